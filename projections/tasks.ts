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
import { isTx, type SignedTx } from '../core/tx/handler.ts';
import { TASK_RESPONSE, TASK_REWARD, TASK_STATUSES, TASK_SUBMIT, TASK_VALIDATE, TASKS, taskIdOf } from '../core/tx/task/task.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import {
  countersRow,
  frozenRows,
  type LiveTask,
  liveRow,
  type ResponseRow,
  responseRows,
  rewardRow,
  type TaskCounters,
  taskNumberRows,
  taskRow,
  validationRow,
} from './taskRows.ts';

// Every status by name: a status core adds is a type error here until it is counted.
const emptyCounts = (): Record<TaskStatus, number> => ({ submitted: 0, responses_collected: 0, validated: 0, rewarded: 0, timeout: 0 });
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

function foldTx(tx: SignedTx, blockIndex: number, task: Task | undefined, ops: KvOp[]): void {
  if (isTx(tx, TASK_RESPONSE) && task) {
    const i = task.responses.findIndex((r) => r.txHash === tx.hash);
    if (i < 0) return;
    const row: ResponseRow = {
      txHash: tx.hash,
      blockIndex,
      minerId: tx.minerId,
      miner: tx.from,
      contentHash: tx.contentHash,
      content: tx.content,
      model: typeof tx.model === 'string' ? tx.model : null,
      tokensIn: num(tx.tokensIn),
      tokensOut: num(tx.tokensOut),
      thinkingTokens: num(tx.thinkingTokens),
      durationMs: num(tx.durationMs),
      timestamp: tx.timestamp,
    };
    ops.push(responseRows.put(task.taskId, i, row));
  } else if (isTx(tx, TASK_VALIDATE)) {
    const { hash: txHash, from: validator, bestMinerId, scores, timestamp } = tx;
    ops.push(validationRow.put(tx.taskId, { txHash, blockIndex, validator, bestMinerId, scores, timestamp }));
  } else if (isTx(tx, TASK_REWARD)) {
    ops.push(rewardRow.put(tx.taskId, { txHash: tx.hash, blockIndex, rewards: tx.rewards, timestamp: tx.timestamp }));
  }
}

/** The in-flight statuses /api/tasks/active lists (the spec's set). */
export const ACTIVE_STATUSES: readonly TaskStatus[] = ['submitted', 'responses_collected'];
/** Statuses a task never leaves. */
const FINAL_STATUSES: readonly TaskStatus[] = TASK_STATUSES.filter((st) => !TASKS.isOpen({ status: st } as Task));

/** A list the API pages through: every task, one status, or the active set. */
export type TaskList = 'all' | 'active' | TaskStatus;
/** The lists held (in part) in memory: every status and the active set. */
type LiveList = Exclude<TaskList, 'all'>;

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

const listsOf = (status: TaskStatus): LiveList[] => (ACTIVE_STATUSES.includes(status) ? [status, 'active'] : [status]);
const emptyLists = (): Record<LiveList, number[]> => ({
  submitted: [],
  responses_collected: [],
  validated: [],
  rewarded: [],
  timeout: [],
  active: [],
});
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

/** The live task numbered `n`: every number from `next - live.size` to `next - 1` has one. */
export function liveTask(s: TasksState, n: number): LiveTask {
  const t = s.live.get(n);
  if (!t) throw new Error(`tasks: no live task numbered ${n}`);
  return t;
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
      if (!isTx(tx, TASK_SUBMIT)) continue;
      const id = taskIdOf(tx);
      const task = diff.records.tasks.get(id);
      if (!task || s.numberOf.has(id)) continue;
      const n = s.next++;
      s.live.set(n, { id, status: task.status });
      s.numberOf.set(id, n);
      enlist(s, n, task.status);
      fresh.add(n);
      ops.push(taskNumberRows.put(undefined, n, id));
    }
    for (const [id, task] of diff.records.tasks) {
      const n = s.numberOf.get(id);
      ops.push(taskRow.put(id, task, n !== undefined && fresh.has(n)));
      // A frozen task is finished: its status never changes again (a later TASK_MINT only names its NFT).
      if (n === undefined) continue;
      const known = liveTask(s, n);
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
      const t = liveTask(s, n);
      if (!FINAL_STATUSES.includes(t.status)) break;
      delist(s, n, t.status);
      s.live.delete(n);
      s.numberOf.delete(t.id);
      ops.push(frozenRows.put(t.status, s.frozen[t.status]++, t.id));
      if (!fresh.has(n)) ops.push(liveRow.del(n));
      fresh.delete(n);
      touched.delete(n);
      frozeAny = true;
    }
    for (const n of fresh) ops.push(liveRow.put(n, liveTask(s, n), true));
    for (const n of touched) if (!fresh.has(n)) ops.push(liveRow.put(n, liveTask(s, n)));
    if (fresh.size > 0 || frozeAny) ops.push(countersRow.put(null, { next: s.next, frozen: s.frozen }));
    for (const tx of ev.txs) {
      if (isTx(tx, TASK_RESPONSE) || isTx(tx, TASK_VALIDATE) || isTx(tx, TASK_REWARD))
        foldTx(tx, block.index, diff.records.tasks.get(tx.taskId), ops);
    }
    return { state: s, ops };
  },
  async restore(rows) {
    const s = emptyState();
    // The `!` rows sort first: the counters and the live tasks, then the history, never read here.
    for await (const [key, value] of rows) {
      if (!key.startsWith('!')) break;
      if (key === countersRow.key(null)) {
        const m: TaskCounters = countersRow.value(value);
        s.next = m.next;
        s.frozen = { ...emptyCounts(), ...m.frozen };
      } else {
        const n = Number(liveRow.idOf(key));
        const t = liveRow.value(value);
        s.live.set(n, t);
        s.numberOf.set(t.id, n);
        enlist(s, n, t.status);
      }
    }
    return s;
  },
};
