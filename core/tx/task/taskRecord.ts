/** The task record: its statuses, its responses and the `tasks` kind the task family owns. */
import { defineRecord } from '../../record.ts';

/** Every task status, in pipeline order (see taskMachine.ts for the transitions). */
export const TASK_STATUSES = ['submitted', 'responses_collected', 'validated', 'rewarded', 'timeout'] as const;
/** A task status. */
export type TaskStatus = (typeof TASK_STATUSES)[number];
const OPEN_TASK: readonly TaskStatus[] = ['submitted', 'responses_collected', 'validated'];

/** One miner's answer to a task, as consensus keeps it (the content stays in the block log). */
export interface TaskResponseRef {
  minerId: string;
  miner: string;
  contentHash: string;
  txHash: string;
}

/** A task in flight or settled. */
export interface Task {
  taskId: string;
  submitter: string;
  taskType: string;
  prompt: string;
  fee: string;
  timeoutMs: number;
  submittedAt: number;
  submitBlock: number;
  submitTxHash: string;
  status: TaskStatus;
  responses: TaskResponseRef[];
  validator?: string;
  bestMinerId?: string;
  scores?: { minerId: string; score: number }[];
  rewardTxHash?: string;
  settledAt?: number;
  nftTokenId?: string;
}

/** Task records, `t:<taskId>`; open (able to time out) while in flight. */
export const TASKS = defineRecord<Task>()('tasks', { prefix: 't', id: 'taskId', doc: 'task', isOpen: (t) => OPEN_TASK.includes(t.status) });
