/**
 * What every mint of a rewarded task's answer checks (ART_MINT, IMAGE_MINT, AUDIO_MINT): the task
 * exists, is of the mint's task type and rewarded, was not minted yet, the sender submitted it,
 * minerId names its best miner; and the seedHash they all carry.
 */
import { sha256Hex } from '../../hash.ts';
import type { TxState } from '../../txState.ts';
import { refuse, type StateReader } from '../handler.ts';
import { TASKS, type Task, type TaskResponseRef } from './taskRecord.ts';

/** The fields every task mint carries. */
export interface TaskMintFields {
  type: string;
  from: string;
  taskId: string;
  minerId: string;
  seedHash: string;
}

/** The rewarded task a mint names and its best response, or a VALIDATION_FAILED refusal. */
export function checkTaskMint(state: StateReader, tx: TaskMintFields, taskType: string): { task: Readonly<Task>; best: TaskResponseRef } {
  const task = state.get(TASKS, tx.taskId);
  if (!task) refuse(`task ${tx.taskId} does not exist`);
  if (task.taskType !== taskType) refuse(`task ${task.taskId} is a ${task.taskType} task, not ${taskType}`);
  if (task.status !== 'rewarded') refuse(`${tx.type} is not allowed: task ${task.taskId} is ${task.status}, not rewarded`);
  if (task.nftTokenId) refuse(`task ${task.taskId} was already minted as ${task.nftTokenId}`);
  if (tx.from !== task.submitter) refuse(`only the task's submitter ${task.submitter} may mint it`);
  if (tx.minerId !== task.bestMinerId) refuse(`minerId must be the task's best miner ${task.bestMinerId}`);
  const best = task.responses.find((r) => r.minerId === task.bestMinerId);
  if (!best) refuse(`task ${task.taskId} has no response from its best miner`);
  return { task, best };
}

/** Refuses a seedHash other than SHA-256(prompt + best miner id + TASK_REWARD hash). */
export function checkSeedHash(task: Readonly<Task>, seedHash: string): void {
  if (seedHash !== sha256Hex(task.prompt + task.bestMinerId + task.rewardTxHash))
    refuse('seedHash must be SHA-256(prompt + minerId + reward tx hash)');
}

/** Marks a task as minted (once per task, whatever the kind of token). */
export function markTaskMinted(s: TxState, taskId: string, tokenId: string): void {
  const task = s.get(TASKS, taskId);
  if (task) s.put(TASKS, taskId, { ...task, nftTokenId: tokenId });
}
