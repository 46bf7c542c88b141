/** Miner figures fold from the block's task transactions, so a block that validates and rewards a task counts both. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyRecords, type Task } from '../../../core/state.ts';
import type { BlockEvent } from '../../../projections/events.ts';
import { minerFigures, minerStatsProjection } from '../../../projections/minerStats.ts';

const M1 = '1'.repeat(64);
const M2 = '2'.repeat(64);

function event(index: number, txs: Record<string, unknown>[], task: Partial<Task>): BlockEvent {
  const records = emptyRecords();
  records.tasks.set('task-0001', { taskId: 'task-0001', responses: [], ...task } as Task);
  return {
    type: 'block',
    block: { index, transactions: txs } as never,
    txs: txs as never,
    diff: { accounts: new Map(), records, supply: { emitted: 0n, burned: 0n, escrow: 0n, feesPaid: 0n } },
    balances: [],
    emitted: 0n,
    replay: false,
  };
}

const scores = [
  { minerId: M1, score: 80 },
  { minerId: M2, score: 40 },
];
const validateTx = { type: 'TASK_VALIDATE', taskId: 'task-0001', bestMinerId: M1, scores };
const rewardTx = { type: 'TASK_REWARD', taskId: 'task-0001' };

test('validation and reward in separate blocks', () => {
  let s = minerStatsProjection.init(undefined as never);
  s = minerStatsProjection.apply(s, event(1, [validateTx], { status: 'validated', bestMinerId: M1, scores })).state;
  s = minerStatsProjection.apply(s, event(2, [rewardTx], { status: 'rewarded', bestMinerId: M1, scores })).state;
  assert.deepEqual(
    [minerFigures(s, M1), minerFigures(s, M2)],
    [
      { reputationScore: 80, tasksCompleted: 1 },
      { reputationScore: 40, tasksCompleted: 0 },
    ],
  );
});

test("validation and reward in one block (a peer's block may carry both) count the same", () => {
  let s = minerStatsProjection.init(undefined as never);
  s = minerStatsProjection.apply(s, event(1, [validateTx, rewardTx], { status: 'rewarded', bestMinerId: M1, scores })).state;
  assert.deepEqual(
    [minerFigures(s, M1), minerFigures(s, M2)],
    [
      { reputationScore: 80, tasksCompleted: 1 },
      { reputationScore: 40, tasksCompleted: 0 },
    ],
  );
});

test('a validated task that later times out keeps its scores and completes nothing', () => {
  let s = minerStatsProjection.init(undefined as never);
  s = minerStatsProjection.apply(s, event(1, [validateTx], { status: 'validated', bestMinerId: M1, scores })).state;
  s = minerStatsProjection.apply(s, event(2, [], { status: 'timeout', bestMinerId: M1, scores })).state;
  assert.deepEqual(minerFigures(s, M1), { reputationScore: 80, tasksCompleted: 0 });
});
