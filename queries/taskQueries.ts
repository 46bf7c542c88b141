/**
 * Reads of the task pipeline: summaries (newest first, optionally by status), the full pipeline
 * record, the in-flight set and TASK_SUBMITs waiting in the mempool. Lists come from the `tasks`
 * projection's rows; single records join the consensus record with the rows of its transactions.
 */
import type { Task, TaskStatus } from '../core/state.ts';
import { TASK_TIMEOUTS, TASKS, taskIdOf } from '../core/tx/task.ts';
import { readRecord } from './stateReads.ts';
import { TASK_SETTLEMENT_WINDOW_MS } from '../core/economics.ts';
import type { ResponseRow, RewardRow, ValidationRow } from '../projections/tasks.ts';
import type { ReadPorts } from '../node/ports.ts';
import { tasksProjection } from '../projections/tasks.ts';

/** The spec's task summary, plus taskType and timeoutMs. */
export interface TaskSummary {
  taskId: string;
  status: TaskStatus;
  taskType: string;
  responseCount: number;
  hasValidation: boolean;
  hasReward: boolean;
  submitter: string;
  fee: string;
  timeoutMs: number;
  submittedAt: number;
  bestMinerId: string | null;
  prompt: string;
}

/** The full pipeline record: the summary plus every stage. */
export interface TaskPipeline extends TaskSummary {
  submit: Pick<Task, 'submitter' | 'taskType' | 'prompt' | 'fee' | 'timeoutMs' | 'submittedAt'> & {
    txHash: string;
    blockIndex: number;
    deadline: number;
    settleBy: number;
  };
  responses: ResponseRow[];
  validation: ValidationRow | null;
  reward: RewardRow | null;
  timeout: { at: number; refunded: string } | null;
  nft: string | null;
}

/** The summary of a consensus task record. */
export function taskSummary(t: Task): TaskSummary {
  return {
    taskId: t.taskId,
    status: t.status,
    taskType: t.taskType,
    responseCount: t.responses.length,
    hasValidation: t.validator !== undefined,
    hasReward: t.rewardTxHash !== undefined,
    submitter: t.submitter,
    fee: t.fee,
    timeoutMs: t.timeoutMs,
    submittedAt: t.submittedAt,
    bestMinerId: t.bestMinerId ?? null,
    prompt: t.prompt,
  };
}

/** Task query facade. */
export class TaskQueries {
  private readonly ports: ReadPorts;

  constructor(ports: ReadPorts) {
    this.ports = ports;
  }

  private rows() {
    return this.ports.models.readable(tasksProjection);
  }

  /** Summaries newest first, with the total (of the status when one is given). */
  async list(limit: number, offset: number, statuses?: readonly TaskStatus[]): Promise<{ tasks: TaskSummary[]; total: number }> {
    const s = this.ports.models.state(tasksProjection);
    if (!statuses) {
      const tasks: TaskSummary[] = [];
      let skipped = 0;
      for await (const t of (await this.rows()).values({ gte: 't!', lt: 't!~', reverse: true })) {
        if (tasks.length >= limit) break;
        if (skipped++ < offset) continue;
        tasks.push(taskSummary(t as Task));
      }
      return { tasks, total: s.byId.size };
    }
    // Merge the per-status indexes by order key, newest first.
    const orders: string[] = [];
    for (const status of statuses) {
      for await (const k of (await this.rows()).keys({ gte: `s!${status}!`, lt: `s!${status}!~`, reverse: true, limit: offset + limit }))
        orders.push((k as string).slice(status.length + 3));
    }
    orders.sort().reverse();
    const tasks: TaskSummary[] = [];
    for (const o of orders.slice(offset, offset + limit)) tasks.push(taskSummary((await (await this.rows()).get(`t!${o}`)) as Task));
    return { tasks, total: statuses.reduce((n, st) => n + s.counts[st], 0) };
  }

  /** The full pipeline record of a task, or undefined. */
  async pipeline(id: string): Promise<TaskPipeline | undefined> {
    const t = await readRecord(this.ports, TASKS, id);
    if (!t) return undefined;
    const responses: ResponseRow[] = [];
    for await (const r of (await this.rows()).values({ gte: `r!${id}!`, lt: `r!${id}!~` })) responses.push(r as ResponseRow);
    const validation = (await (await this.rows()).get(`v!${id}`)) as ValidationRow | undefined;
    const reward = (await (await this.rows()).get(`w!${id}`)) as RewardRow | undefined;
    const deadline = t.submittedAt + t.timeoutMs;
    return {
      ...taskSummary(t),
      submit: {
        txHash: t.submitTxHash,
        blockIndex: t.submitBlock,
        submitter: t.submitter,
        taskType: t.taskType,
        prompt: t.prompt,
        fee: t.fee,
        timeoutMs: t.timeoutMs,
        submittedAt: t.submittedAt,
        deadline,
        settleBy: deadline + TASK_SETTLEMENT_WINDOW_MS,
      },
      responses,
      validation: validation ?? null,
      reward: reward ?? null,
      timeout: t.status === 'timeout' ? { at: t.settledAt!, refunded: t.fee } : null,
      nft: t.nftTokenId ?? null,
    };
  }

  /** TASK_SUBMIT transactions waiting in the mempool, in mempool order. */
  pending() {
    return this.ports.mempool
      .list()
      .filter((tx) => tx.type === 'TASK_SUBMIT')
      .map((tx) => ({
        taskId: taskIdOf(tx),
        txHash: tx.hash,
        submitter: tx.from,
        taskType: tx.taskType as string,
        prompt: tx.prompt as string,
        fee: tx.fee as string,
        timeoutMs: (tx.timeoutMs as number | undefined) ?? TASK_TIMEOUTS[tx.taskType as keyof typeof TASK_TIMEOUTS],
        nonce: tx.nonce,
        timestamp: tx.timestamp,
      }));
  }
}
