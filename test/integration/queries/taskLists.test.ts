/**
 * Task lists as numbered rows (projections/tasks.ts): every page of /api/chain/tasks (all and by
 * status) and /api/tasks/active, at any offset, equals the list's definition (every task, newest
 * first by block and position, filtered by status, sliced at offset/limit) computed from the
 * blocks and the final consensus state; through a restart (the live tasks restored from their
 * rows) and with a record cache of 2. A node restarted halfway (tasks and agent runs restored
 * from their live rows only) folds the rest into the same read models as one that never stopped.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../../core/block.ts';
import type { ChainState, Task } from '../../../core/state.ts';
import { TASK_STATUSES, taskIdOf } from '../../../core/tx/task/task.ts';
import { ACTIVE_STATUSES } from '../../../projections/tasks.ts';
import { taskSummary } from '../../../queries/taskQueries.ts';
import { DEV_GENESIS } from '../../helpers/coreSupport.ts';
import { act, pureTraffic, type Act } from '../../helpers/taskTraffic.ts';
import { pageOffsets } from '../../helpers/pageOffsets.ts';
import { openTestChain, type TestChain } from '../../helpers/testChain.ts';

/** The lists' definition: tasks newest first (block, then position), with their final records. */
function reference(blocks: readonly Block[], state: ChainState): Task[] {
  const ids = blocks.flatMap((b) => b.transactions.filter((tx) => tx.type === 'TASK_SUBMIT').map(taskIdOf));
  return ids.reverse().map((id) => state.records.tasks.get(id) as Task);
}

/** Every list's path and the tasks it holds. */
function lists(tasks: readonly Task[]): [string, Task[]][] {
  return [
    ['/api/chain/tasks?', [...tasks]],
    ['/api/tasks/active?', tasks.filter((x) => ACTIVE_STATUSES.includes(x.status))],
    ...TASK_STATUSES.map((st): [string, Task[]] => [`/api/chain/tasks?status=${st}&`, tasks.filter((x) => x.status === st)]),
  ];
}

async function checkLists(c: TestChain, tasks: readonly Task[], what: string): Promise<number> {
  let pages = 0;
  for (const [path, list] of lists(tasks))
    for (const offset of pageOffsets(list.length))
      for (const limit of [1, 7, 100]) {
        const res = await c.app.request(`${path}offset=${offset}&limit=${limit}`);
        const want = { tasks: list.slice(offset, offset + limit).map(taskSummary), total: list.length };
        assert.deepEqual(await res.json(), want, `${what}: ${path}offset=${offset}&limit=${limit}`);
        pages++;
      }
  return pages;
}

/** Imports `blocks` into a node with a record cache of 2, checking every list halfway, after a restart and at the end. */
async function importAndCheck(acts: readonly Act[]): Promise<number> {
  const { blocks: pure, state } = pureTraffic(DEV_GENESIS, acts);
  const blocks = pure.map((b) => b.block);
  const half = Math.floor(blocks.length / 2);
  let c = await openTestChain({ genesis: DEV_GENESIS, clock: blocks[blocks.length - 1].timestamp + 1000, recordCache: 2 });
  try {
    await c.node.importBlocks(blocks.slice(0, half));
    await c.close();
    c = await openTestChain({ genesis: DEV_GENESIS, dir: c.dir, clock: blocks[blocks.length - 1].timestamp + 1000, recordCache: 2 });
    for (const b of blocks.slice(half)) await c.node.importBlock(b);
    // The same read models (rows) as a node that folded every block without a restart.
    const straight = await openTestChain({ genesis: DEV_GENESIS, clock: blocks[blocks.length - 1].timestamp + 1000 });
    try {
      await straight.node.importBlocks(blocks);
      assert.deepEqual(await c.node.runner.dump(), await straight.node.runner.dump(), 'read models after a restart halfway');
    } finally {
      await straight.destroy();
    }
    const pages = await checkLists(c, reference(blocks, state), 'imported');
    await c.close();
    c = await openTestChain({ genesis: DEV_GENESIS, dir: c.dir, clock: blocks[blocks.length - 1].timestamp + 1000, recordCache: 2 });
    return pages + (await checkLists(c, reference(blocks, state), 'after a restart'));
  } finally {
    await c.destroy();
  }
}

test('random task traffic: every page of every list, at every offset, is the list sliced', async () => {
  const submit = fc.record({ k: fc.constant('submit' as const), fee: fc.integer({ min: 5_000, max: 90_000 }), nft: fc.constant(false) });
  await fc.assert(
    fc.asyncProperty(fc.array(fc.oneof(act, submit, submit), { minLength: 20, maxLength: 120 }), async (acts) => {
      assert.ok((await importAndCheck(acts)) > 0);
    }),
    { numRuns: 6, seed: 20260601 },
  );
});

test('2,000 tasks in every status: pages deep in each list equal the list sliced', async () => {
  // Blocks of submits with some tasks carried through the pipeline and waits past the timeouts,
  // so every status holds hundreds of tasks and the finished ones freeze out of order.
  const acts: Act[] = [];
  for (let b = 0; b < 40; b++) {
    for (let i = 0; i < 50; i++) acts.push({ k: 'submit', fee: 10_000 + i, nft: false });
    acts.push({ k: 'block' });
    // Task j of the batch goes j % 4 steps: responded, validated, rewarded (miner 4 validates after one response).
    for (let j = 0; j < 8; j++) for (let step = 0; step < j % 4; step++) acts.push({ k: 'progressTask', task: b * 50 + j, miner: 4 });
    if (b % 3 === 2) acts.push({ k: 'wait', ms: 70_000 });
  }
  const pages = await importAndCheck(acts);
  assert.ok(pages > 100);
});
