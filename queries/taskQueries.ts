/**
 * Reads of the task pipeline: summaries (newest first, optionally by status), the full pipeline
 * record, the in-flight set and TASK_SUBMITs waiting in the mempool. Lists come from the `tasks`
 * projection's rows; single records join the consensus record with the rows of its transactions.
 */
import type { Task } from '../core/state.ts';
import { isTx } from '../core/tx/handler.ts';
import { TASK_SUBMIT, TASK_TIMEOUTS, TASKS, taskIdOf } from '../core/tx/task/task.ts';
import { readRecord } from './stateReads.ts';
import type { Components } from './schemas/records.ts';
import { TASK_SETTLEMENT_WINDOW_MS } from '../core/economics.ts';
import type { ReadPorts } from '../node/ports.ts';
import { listSize, liveTask, tasksProjection, type TaskList } from '../projections/tasks.ts';
import { frozenRows, type ResponseRow, responseRows, rewardRow, taskNumberRows, taskRow, validationRow } from '../projections/taskRows.ts';

/** The rows numbered `from` (inclusive) to `to` (exclusive) under `prefix`, ascending. */

/** The spec's task summary, plus taskType and timeoutMs (its schema: queries/schemas/records.ts). */
export type TaskSummary = Components['TaskSummary'];

/** The full pipeline record: the summary plus every stage. */
export type TaskPipeline = Components['TaskPipeline'];

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

  /**
   * Summaries of `list` newest first, with its total. Tasks are numbered (projections/tasks.ts):
   * the live ones' numbers are in memory, the rest are numbered rows, so a page at any offset is
   * a slice, at most one range read and one read of its records.
   */
  async list(limit: number, offset: number, list: TaskList = 'all'): Promise<{ tasks: TaskSummary[]; total: number }> {
    for (;;) {
      const rows = await this.rows();
      // Taken at once after the flush: a block folded meanwhile may name rows not written yet,
      // which the read below notices (a missing row), and the page is taken again.
      const s = this.ports.models.state(tasksProjection);
      const total = listSize(s, list);
      let ids: string[] = [];
      const end = Math.min(total, offset + limit);
      if (list === 'all') {
        ids = await taskNumberRows.page(rows, undefined, total, limit, offset, true);
      } else {
        // Newest first: the live numbers (the newest), then the frozen rows below them.
        const live = s.lists[list];
        for (let i = live.length - 1 - offset; i >= 0 && i >= live.length - end; i--) ids.push(liveTask(s, live[i]).id);
        const from = Math.max(0, offset - live.length);
        const to = end - live.length;
        if (from < to && list !== 'active') ids.push(...(await frozenRows.page(rows, list, s.frozen[list], to - from, from, true)));
      }
      const records = await taskRow.getMany(rows, ids);
      if (records.every((t) => t !== undefined)) return { tasks: records.map(taskSummary), total };
    }
  }

  /** The full pipeline record of a task, or undefined. */
  async pipeline(id: string): Promise<TaskPipeline | undefined> {
    const t = await readRecord(this.ports, TASKS, id);
    if (!t) return undefined;
    const responses: ResponseRow[] = [];
    for await (const r of responseRows.values(await this.rows(), id)) responses.push(r);
    const validation = await validationRow.get(await this.rows(), id);
    const reward = await rewardRow.get(await this.rows(), id);
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
      // A task that timed out carries when (settledAt); its deadline only if a record lacked it.
      timeout: t.status === 'timeout' ? { at: t.settledAt ?? deadline, refunded: t.fee } : null,
      nft: t.nftTokenId ?? null,
    };
  }

  /** `limit` TASK_SUBMIT transactions waiting in the mempool from `offset`, in arrival order, and how many wait. */
  pending(limit: number, offset: number) {
    const { total, txs } = this.ports.mempool.ofType('TASK_SUBMIT', limit, offset);
    return {
      total,
      // Every one is a TASK_SUBMIT (the pool's index by type): the filter only narrows its fields.
      tasks: txs
        .filter((tx) => isTx(tx, TASK_SUBMIT))
        .map((tx) => ({
          taskId: taskIdOf(tx),
          txHash: tx.hash,
          submitter: tx.from,
          taskType: tx.taskType,
          prompt: tx.prompt,
          fee: tx.fee,
          timeoutMs: tx.timeoutMs ?? TASK_TIMEOUTS[tx.taskType],
          nonce: tx.nonce,
          timestamp: tx.timestamp,
        })),
    };
  }
}
