/**
 * The task read model. Consensus keeps each task's record (status, response refs, scores); this
 * projection keeps what the API serves besides it, folded purely from each block. Tasks are
 * numbered in submission order (block, then position), so every list is a numbered range and a
 * page at any offset is one range read (docs/memory.md, "Task and run read models"):
 *
 * - `t!<taskId>`: the task's consensus record as of its last change (AFTER value from the diff,
 *   so timeouts, which carry no transaction, are seen too);
 * - `n!<number>` -> taskId: every task, by its number;
 * - `z!<status>!<n>` -> taskId: the n-th *frozen* task of a finished status (rewarded, timeout).
 *   A task freezes once it and every task before it are finished, so these lists only grow at
 *   their end, in submission order;
 * - `!l!<number>` -> {id, status}: each live task (not frozen yet), and `!m` the counters. They
 *   sort first: a restart reads them and stops, so it costs what is live, not the history;
 * - `r!<taskId>!<nn>`: each response's details from its TASK_RESPONSE (content, model, tokens);
 * - `v!<taskId>` / `w!<taskId>`: the TASK_VALIDATE and TASK_REWARD transactions' details.
 *
 * In memory: the live tasks only (those submitted since the oldest open one: bounded by the
 * tasks submitted within a task's lifetime, not by history), each list's live numbers, counters.
 */
import type { Task, TaskStatus } from '../core/state.ts';
import type { SignedTx } from '../core/tx/handler.ts';
import { TASK_STATUSES, TASKS, taskIdOf } from '../core/tx/task/task.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { listNumber } from './rowCounters.ts';

/** One response's details, as its transaction carried them. */
export interface ResponseRow {
  txHash: string;
  blockIndex: number;
  minerId: string;
  miner: string;
  contentHash: string;
  content: string;
  model: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  thinkingTokens: number | null;
  durationMs: number | null;
  timestamp: number;
}

/** The validation's details. */
export interface ValidationRow {
  txHash: string;
  blockIndex: number;
  validator: string;
  bestMinerId: string;
  scores: { minerId: string; score: number }[];
  timestamp: number;
}

/** The reward's details. */
export interface RewardRow {
  txHash: string;
  blockIndex: number;
  rewards: { address: string; amount: string; reason: string }[];
  timestamp: number;
}

const emptyCounts = (): Record<TaskStatus, number> => Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** Row key of a response: responses keep the order consensus gave them. */
const responseKey = (taskId: string, i: number): string => `r!${taskId}!${i.toString().padStart(2, '0')}`;

function foldTx(tx: SignedTx, blockIndex: number, task: Task | undefined, ops: KvOp[]): void {
  if (tx.type === 'TASK_RESPONSE' && task) {
    const i = task.responses.findIndex((r) => r.txHash === tx.hash);
    if (i < 0) return;
    const row: ResponseRow = {
      txHash: tx.hash,
      blockIndex,
      minerId: tx.minerId as string,
      miner: tx.from,
      contentHash: tx.contentHash as string,
      content: tx.content as string,
      model: typeof tx.model === 'string' ? tx.model : null,
      tokensIn: num(tx.tokensIn),
      tokensOut: num(tx.tokensOut),
      thinkingTokens: num(tx.thinkingTokens),
      durationMs: num(tx.durationMs),
      timestamp: tx.timestamp,
    };
    ops.push({ type: 'put', key: responseKey(task.taskId, i), value: row });
  } else if (tx.type === 'TASK_VALIDATE') {
    const row: ValidationRow = {
      txHash: tx.hash,
      blockIndex,
      validator: tx.from,
      bestMinerId: tx.bestMinerId as string,
      scores: tx.scores as ValidationRow['scores'],
      timestamp: tx.timestamp,
    };
    ops.push({ type: 'put', key: `v!${tx.taskId}`, value: row });
  } else if (tx.type === 'TASK_REWARD') {
    const row: RewardRow = { txHash: tx.hash, blockIndex, rewards: tx.rewards as RewardRow['rewards'], timestamp: tx.timestamp };
    ops.push({ type: 'put', key: `w!${tx.taskId}`, value: row });
  }
}

/** The in-flight statuses /api/tasks/active lists (the spec's set). */
export const ACTIVE_STATUSES: readonly TaskStatus[] = ['submitted', 'responses_collected'];
/** Statuses a task never leaves. */
const FINAL_STATUSES: readonly TaskStatus[] = TASK_STATUSES.filter((st) => !TASKS.isOpen!({ status: st } as Task));

/** A list the API pages through: every task, one status, or the active set. */
export type TaskList = 'all' | 'active' | TaskStatus;
/** The lists held (in part) in memory: every status and the active set. */
type LiveList = Exclude<TaskList, 'all'>;

/** A task not frozen yet. */
interface LiveTask {
  id: string;
  status: TaskStatus;
}

/** In memory: the live tasks and the counters (what the `!` rows hold). */
export interface TasksState {
  /** Tasks submitted so far: the next task's number. */
  next: number;
  /** Live tasks by number: every number from `next - live.size` to `next - 1`. */
  live: Map<number, LiveTask>;
  /** The number of each live task. */
  numberOf: Map<string, number>;
  /** Each list's live numbers, ascending. */
  lists: Record<LiveList, number[]>;
  /** Frozen tasks of each finished status (rows `z!<status>!<n>`). */
  frozen: Record<TaskStatus, number>;
}

/** Row key of the n-th frozen task of `status`. */
const frozenKey = (status: TaskStatus, n: number): string => `z!${status}!${listNumber(n)}`;
const liveKey = (n: number): string => `!l!${listNumber(n)}`;

const listsOf = (status: TaskStatus): LiveList[] => (ACTIVE_STATUSES.includes(status) ? [status, 'active'] : [status]);
const emptyLists = (): Record<LiveList, number[]> =>
  Object.fromEntries([...TASK_STATUSES, 'active'].map((l) => [l, []])) as unknown as Record<LiveList, number[]>;
const emptyState = (): TasksState => ({ next: 0, live: new Map(), numberOf: new Map(), lists: emptyLists(), frozen: emptyCounts() });

/** Index of the first element of ascending `a` that is >= `n`. */
function lowerBound(a: readonly number[], n: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function enlist(s: TasksState, n: number, status: TaskStatus): void {
  for (const l of listsOf(status)) {
    const a = s.lists[l];
    if (a.length === 0 || a[a.length - 1] < n) a.push(n);
    else a.splice(lowerBound(a, n), 0, n);
  }
}

function delist(s: TasksState, n: number, status: TaskStatus): void {
  for (const l of listsOf(status)) {
    const a = s.lists[l];
    if (a[0] === n) a.shift();
    else a.splice(lowerBound(a, n), 1);
  }
}

/** How many tasks `list` holds. */
export function listSize(s: TasksState, list: TaskList): number {
  return list === 'all' ? s.next : s.lists[list].length + (list === 'active' ? 0 : s.frozen[list]);
}

/** Task records, numbered lists and the pipeline transactions' details. */
export const tasksProjection: Projection<TasksState> = {
  name: 'tasks',
  // 2: numbered lists (pages at any offset cost one range read), only live tasks in memory.
  version: 2,
  init: emptyState,
  apply(s, ev: BlockEvent) {
    const ops: KvOp[] = [];
    const { block, diff } = ev;
    const fresh = new Set<number>();
    const touched = new Set<number>();
    // New tasks take their numbers in block order.
    for (const tx of ev.txs) {
      if (tx.type !== 'TASK_SUBMIT') continue;
      const id = taskIdOf(tx);
      const task = diff.records.tasks.get(id);
      if (!task || s.numberOf.has(id)) continue;
      const n = s.next++;
      s.live.set(n, { id, status: task.status });
      s.numberOf.set(id, n);
      enlist(s, n, task.status);
      fresh.add(n);
      ops.push({ type: 'put', key: `n!${listNumber(n)}`, value: id, fresh: true });
    }
    for (const [id, task] of diff.records.tasks) {
      const n = s.numberOf.get(id);
      ops.push(
        n !== undefined && fresh.has(n)
          ? { type: 'put', key: `t!${id}`, value: task, fresh: true }
          : { type: 'put', key: `t!${id}`, value: task },
      );
      // A frozen task is finished: its status never changes again (a later TASK_MINT only names its NFT).
      if (n === undefined) continue;
      const known = s.live.get(n)!;
      if (known.status !== task.status) {
        delist(s, n, known.status);
        enlist(s, n, task.status);
        s.live.set(n, { id, status: task.status });
        touched.add(n);
      }
    }
    // Freeze the finished tasks no open task precedes.
    let frozeAny = false;
    for (let n = s.next - s.live.size; s.live.size > 0; n++) {
      const t = s.live.get(n)!;
      if (!FINAL_STATUSES.includes(t.status)) break;
      delist(s, n, t.status);
      s.live.delete(n);
      s.numberOf.delete(t.id);
      ops.push({ type: 'put', key: frozenKey(t.status, s.frozen[t.status]++), value: t.id, fresh: true });
      if (!fresh.has(n)) ops.push({ type: 'del', key: liveKey(n) });
      fresh.delete(n);
      touched.delete(n);
      frozeAny = true;
    }
    for (const n of fresh) ops.push({ type: 'put', key: liveKey(n), value: s.live.get(n), fresh: true });
    for (const n of touched) if (!fresh.has(n)) ops.push({ type: 'put', key: liveKey(n), value: s.live.get(n) });
    if (fresh.size > 0 || frozeAny) ops.push({ type: 'put', key: '!m', value: { next: s.next, frozen: s.frozen } });
    for (const tx of ev.txs) {
      if (tx.type === 'TASK_RESPONSE' || tx.type === 'TASK_VALIDATE' || tx.type === 'TASK_REWARD')
        foldTx(tx, block.index, diff.records.tasks.get(tx.taskId as string), ops);
    }
    return { state: s, ops };
  },
  async restore(rows) {
    const s = emptyState();
    // The `!` rows sort first: the counters and the live tasks, then the history, never read here.
    for await (const [key, value] of rows) {
      if (!key.startsWith('!')) break;
      if (key === '!m') {
        const m = value as { next: number; frozen: Record<TaskStatus, number> };
        s.next = m.next;
        s.frozen = { ...emptyCounts(), ...m.frozen };
      } else {
        const n = Number(key.slice(3));
        const t = value as LiveTask;
        s.live.set(n, t);
        s.numberOf.set(t.id, n);
        enlist(s, n, t.status);
      }
    }
    return s;
  },
};
