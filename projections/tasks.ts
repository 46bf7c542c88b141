/**
 * The task read model. Consensus keeps each task's record (status, response refs, scores); this
 * projection keeps what the API serves besides it, folded purely from each block:
 *
 * - `t!<order>`: the task's consensus record as of its last change (AFTER value from the diff,
 *   so timeouts, which carry no transaction, are seen too), keyed by submission order
 *   (`<height>!<position>`) so a reverse range read lists newest first;
 * - `s!<status>!<order>`: status index (the old entry is deleted on every change);
 * - `r!<taskId>!<nn>`: each response's details from its TASK_RESPONSE (content, model, tokens);
 * - `v!<taskId>` / `w!<taskId>`: the TASK_VALIDATE and TASK_REWARD transactions' details.
 *
 * In memory: taskId -> {order, status} and per-status counts, rebuilt from `t!` rows on restore.
 */
import { heightKey } from '../core/encoding.ts';
import type { Task, TaskStatus } from '../core/state.ts';
import type { SignedTx } from '../core/tx/handler.ts';
import { TASK_STATUSES, taskIdOf } from '../core/tx/task.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';

/** Every task status, in pipeline order (core's list). */
export { TASK_STATUSES };

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

/** In-memory index. */
export interface TasksState {
  byId: Map<string, { order: string; status: TaskStatus }>;
  counts: Record<TaskStatus, number>;
}

const emptyCounts = (): Record<TaskStatus, number> => Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** Row key of a response: responses keep the order consensus gave them. */
export const responseKey = (taskId: string, i: number): string => `r!${taskId}!${i.toString().padStart(2, '0')}`;

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

/** Task records, their status index and the pipeline transactions' details. */
export const tasksProjection: Projection<TasksState> = {
  name: 'tasks',
  version: 1,
  init: () => ({ byId: new Map(), counts: emptyCounts() }),
  apply(s, ev: BlockEvent) {
    const ops: KvOp[] = [];
    const { block, diff } = ev;
    const position = new Map<string, number>();
    block.transactions.forEach((tx, i) => {
      if (tx.type === 'TASK_SUBMIT') position.set(taskIdOf(tx), i);
    });
    for (const [id, task] of diff.records.tasks) {
      const known = s.byId.get(id);
      const order = known?.order ?? `${heightKey(task.submitBlock)}!${(position.get(id) ?? 0).toString().padStart(5, '0')}`;
      if (known) {
        s.counts[known.status] -= 1;
        ops.push({ type: 'del', key: `s!${known.status}!${order}` });
      }
      s.byId.set(id, { order, status: task.status });
      s.counts[task.status] += 1;
      ops.push({ type: 'put', key: `t!${order}`, value: task }, { type: 'put', key: `s!${task.status}!${order}`, value: id });
    }
    for (const tx of block.transactions) {
      if (tx.type === 'TASK_RESPONSE' || tx.type === 'TASK_VALIDATE' || tx.type === 'TASK_REWARD')
        foldTx(tx, block.index, diff.records.tasks.get(tx.taskId as string), ops);
    }
    return { state: s, ops };
  },
  async restore(rows) {
    const s: TasksState = { byId: new Map(), counts: emptyCounts() };
    for await (const [key, value] of rows) {
      if (!key.startsWith('t!')) continue;
      const t = value as Task;
      s.byId.set(t.taskId, { order: key.slice(2), status: t.status });
      s.counts[t.status] += 1;
    }
    return s;
  },
};
