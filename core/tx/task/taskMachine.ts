/**
 * The task state machine. TASK_TRANSITIONS is the whole table: every transition not in it is
 * refused with VALIDATION_FAILED naming the current status. The protocol reference prints it.
 */
import { ZERO_ADDRESS } from '../../address.ts';
import { FEE_SPLIT_V2, TASK_SETTLEMENT_WINDOW_MS } from '../../economics.ts';
import { forkActive } from '../../genesis.ts';
import { present } from '../../errors.ts';
import { refuse, type TxContext } from '../handler.ts';
import { transitionRow, transitionTable, type Transition } from '../machine.ts';
import type { Task, TaskStatus } from './taskRecord.ts';

/** What moves a task. */
export type TaskTrigger = 'TASK_SUBMIT' | 'TASK_RESPONSE' | 'TASK_VALIDATE' | 'TASK_REWARD' | 'timeout';

/** One row of the table. */
export type TaskTransition = Transition<TaskStatus, TaskTrigger>;

/** Every allowed transition. */
export const TASK_TRANSITIONS: readonly TaskTransition[] = [
  { from: null, on: 'TASK_SUBMIT', to: 'submitted', when: 'fee >= 10,000 escrowed from the submitter; the taskId is unused' },
  { from: 'submitted', on: 'TASK_RESPONSE', to: 'responses_collected', when: 'a registered miner answers before submittedAt + timeoutMs' },
  {
    from: 'responses_collected',
    on: 'TASK_RESPONSE',
    to: 'responses_collected',
    when: 'another registered miner answers before the deadline (at most 32 responses)',
  },
  {
    from: 'responses_collected',
    on: 'TASK_VALIDATE',
    to: 'validated',
    when: 'a genesis authority scores the responses and names a responding bestMinerId',
  },
  { from: 'validated', on: 'TASK_REWARD', to: 'rewarded', when: 'the validator pays out exactly the fee split; the escrow is released' },
  {
    from: 'submitted',
    on: 'timeout',
    to: 'timeout',
    when: 'no response by submittedAt + timeoutMs: the escrow goes back to the submitter',
  },
  {
    from: 'responses_collected',
    on: 'timeout',
    to: 'timeout',
    when: 'not rewarded by submittedAt + timeoutMs + 600,000 ms: the escrow goes back to the submitter',
  },
  {
    from: 'validated',
    on: 'timeout',
    to: 'timeout',
    when: 'not rewarded by submittedAt + timeoutMs + 600,000 ms: the escrow goes back to the submitter',
  },
];

/** The status `on` leads to from `from`, or a VALIDATION_FAILED naming the current status. */
export function nextTaskStatus(task: Task | undefined, on: TaskTrigger): TaskStatus {
  const what = task ? `task ${task.taskId} is ${task.status}` : 'the task does not exist';
  return transitionRow(TASK_TRANSITIONS, task?.status ?? null, on, what).to;
}

/** Refuses `on` unless `task` exists and its status has a row for it; narrows `task` for the caller. */
export function checkTaskTransition(task: Task | undefined, on: TaskTrigger): asserts task is Task {
  nextTaskStatus(task, on);
  if (!task) refuse(`${on} is not allowed: the task does not exist`);
}

/** When an open task times out (ms), given its status. */
export function taskDeadline(t: Task): number {
  const responses = t.submittedAt + t.timeoutMs;
  return t.status === 'submitted' ? responses : responses + TASK_SETTLEMENT_WINDOW_MS;
}

/** The exact payout a TASK_REWARD must carry: 100% to the miner before fork 2, then 70/5/25. */
export function expectedRewards(task: Task, height: number, ctx: TxContext): { address: string; amount: string; reason: string }[] {
  const fee = BigInt(task.fee);
  const miner = present(
    task.responses.find((r) => r.minerId === task.bestMinerId),
    `task ${task.taskId}'s best response`,
  ).miner;
  if (!forkActive(ctx.genesis.forks, 2, height)) return [{ address: miner, amount: fee.toString(), reason: 'miner' }];
  const toMiner = (fee * FEE_SPLIT_V2.miner) / 100n;
  const toValidator = (fee * FEE_SPLIT_V2.validator) / 100n;
  return [
    { address: miner, amount: toMiner.toString(), reason: 'miner' },
    { address: present(task.validator, `task ${task.taskId}'s validator`), amount: toValidator.toString(), reason: 'validator' },
    { address: ZERO_ADDRESS, amount: (fee - toMiner - toValidator).toString(), reason: 'burn' },
  ];
}

/** The protocol reference's task status section. */
export function taskMachineDoc(): string[] {
  return [
    '## Task status',
    '',
    'Every transition not in this table is refused with `422 VALIDATION_FAILED` naming the current status. In flight: `submitted`, `responses_collected`, `validated`.',
    '',
    ...transitionTable(TASK_TRANSITIONS),
  ];
}
