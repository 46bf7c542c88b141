/**
 * The rows of the task read model (projections/tasks.ts), defined once for the projection that
 * writes them and the queries that read them (queries/taskQueries.ts):
 *
 * - `t!<taskId>`: the task's consensus record as of its last change;
 * - `n!<number>` -> taskId: every task, by its number;
 * - `z!<status>!<n>` -> taskId: the n-th frozen task of a finished status;
 * - `!l!<number>` -> {id, status}: each live task, and `!m` the counters (these sort first);
 * - `r!<taskId>!<nn>`: each response's details from its TASK_RESPONSE;
 * - `v!<taskId>` / `w!<taskId>`: the TASK_VALIDATE and TASK_REWARD transactions' details.
 */
import type { Task, TaskStatus } from '../core/state.ts';
import { listNumber, numberedRows, row, rowGroup } from './rows.ts';

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

/** A task not frozen yet. */
export interface LiveTask {
  id: string;
  status: TaskStatus;
}

/** The counters row: the next task's number and each finished status's frozen count. */
export interface TaskCounters {
  next: number;
  frozen: Record<TaskStatus, number>;
}

/** `t!<taskId>`: the task's record. */
export const taskRow = row<Task>('t!');
/** `n!<number>` -> taskId. */
export const taskNumberRows = numberedRows<string>(() => 'n!');
/** `z!<status>!<n>` -> taskId: the frozen tasks of a finished status. */
export const frozenRows = numberedRows<string, TaskStatus>((status) => `z!${status}!`);
/** `!l!<number>`: a live task. */
export const liveRow = row<LiveTask, number>('!l!', listNumber);
/** `!m`: the counters. */
export const countersRow = row<TaskCounters, null>('!m', () => '');
/** `r!<taskId>!<nn>`: responses keep the order consensus gave them (read up to `r!<taskId>!~`). */
export const responseRows = rowGroup<ResponseRow, string, number>(
  (taskId) => `r!${taskId}!`,
  (i) => i.toString().padStart(2, '0'),
  '~',
);
/** `v!<taskId>`: the validation. */
export const validationRow = row<ValidationRow>('v!');
/** `w!<taskId>`: the reward. */
export const rewardRow = row<RewardRow>('w!');
