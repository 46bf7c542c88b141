/** /api/analytics/overview, /api/analytics/heatmap and /api/stats/tps, and the read models across a restart. */
import { test } from 'node:test';
import { present } from '../../../core/errors.ts';
import assert from 'node:assert/strict';
import { DEV_KEYS, fixtureGenesis, openTestChain } from '../../helpers/testChain.ts';
import { fullTask, registerMiner, requestRun, submitTask } from '../../helpers/economy.ts';
import { assertError, get, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;
const HOUR = 3_600_000;

test('a rewarded task: rewards to miner and validator, the burn share, miners, submitters and task types', () =>
  withChain(async (c) => {
    assert.deepEqual((await get(c, '/api/analytics/overview')).body, {
      range: '24h',
      blocks: 0,
      txCount: 0,
      totalRewards: '0',
      totalBurned: '0',
      totalFees: '0',
      avgBlockTimeMs: null,
      uniqueMiners: 0,
      uniqueSubmitters: 0,
      topTaskTypes: [],
    });
    for (const i of [2, 3]) await registerMiner(c, i);
    await c.produce();
    await fullTask(c);
    await submitTask(c, 4, { taskType: 'embedding', prompt: 'vec' });
    await submitTask(c, 5, { taskType: 'embedding', prompt: 'vec2' });
    await requestRun(c, 6);
    await c.produce();
    // The block time is the mean interval ending at each block after block 1 (whose predecessor is the genesis).
    const times = await Promise.all([1, 2, 3, 4, 5, 6].map(async (i) => present(await c.queries.block(i), `block ${i}`).timestamp));
    const want = {
      range: '24h',
      blocks: 6,
      txCount: 2 + 1 + 2 + 1 + 1 + 3,
      totalRewards: '15000',
      totalBurned: '5000',
      totalFees: c.node.state().supply.feesPaid.toString(),
      avgBlockTimeMs: Math.round((times[5] - times[0]) / 5),
      uniqueMiners: 2,
      uniqueSubmitters: 4,
      topTaskTypes: [
        { type: 'embedding', count: 2 },
        { type: 'chat', count: 1 },
      ],
    };
    assert.deepEqual((await get(c, '/api/analytics/overview')).body, want);
    assert.deepEqual((await get(c, '/api/analytics/overview?range=30d')).body, { ...want, range: '30d' });
    assert.equal(c.node.state().supply.burned, 5000n);
    // A day later only the newest hour's block is inside 24h; 7d still has everything.
    c.advance(25 * HOUR);
    const feesBefore = c.node.state().supply.feesPaid;
    await c.node.submitTx(c.transfer(1, A(2), 5n));
    await c.produce();
    const last = present(await c.queries.block(7), 'block 7').timestamp;
    const { totalFees, avgBlockTimeMs, ...rest } = (await get(c, '/api/analytics/overview?range=7d')).body;
    assert.deepEqual([totalFees, avgBlockTimeMs], [c.node.state().supply.feesPaid.toString(), Math.round((last - times[0]) / 6)]);
    const { totalFees: _f, avgBlockTimeMs: _b, ...wanted } = want;
    assert.deepEqual(rest, { ...wanted, range: '7d', blocks: 7, txCount: want.txCount + 1 });
    assert.deepEqual((await get(c, '/api/analytics/overview')).body, {
      range: '24h',
      blocks: 1,
      txCount: 1,
      totalRewards: '0',
      totalBurned: '0',
      totalFees: (c.node.state().supply.feesPaid - feesBefore).toString(),
      avgBlockTimeMs: last - times[5],
      uniqueMiners: 0,
      uniqueSubmitters: 0,
      topTaskTypes: [],
    });
  }));

test('block rewards before fork 2 count as rewards', () =>
  withChain(
    async (c) => {
      await c.produce(3);
      assert.equal((await get(c, '/api/analytics/overview')).body.totalRewards, '150000000');
    },
    { genesis: fixtureGenesis('late-forks-genesis.json') },
  ));

test('a range other than 24h, 7d or 30d answers 400', () =>
  withChain(async (c) => {
    for (const r of ['1h', '', 'toString', '24H', '7d,30d'])
      assertError(await get(c, `/api/analytics/overview?range=${r}`), 400, 'INVALID_PARAMS', 'range must be one of 24h, 7d, 30d');
  }));

test('7 rows Monday first by 24 UTC hours of all-time transaction counts', () =>
  withChain(async (c) => {
    const empty = (await get(c, '/api/analytics/heatmap')).body;
    assert.deepEqual(empty, { matrix: Array.from({ length: 7 }, () => new Array(24).fill(0)) });
    await c.node.submitTx(c.transfer(1, A(2), 5n));
    await c.node.submitTx(c.transfer(3, A(2), 5n));
    await c.produce();
    const d = new Date(c.node.head().timestamp);
    const { matrix } = (await get(c, '/api/analytics/heatmap')).body;
    assert.equal(matrix.length, 7);
    for (const row of matrix) assert.equal(row.length, 24);
    assert.equal(matrix[(d.getUTCDay() + 6) % 7][d.getUTCHours()], 2);
    assert.equal(
      matrix.flat().reduce((a: number, b: number) => a + b, 0),
      2,
    );
  }));

test('average over the last 100 blocks, peak over all blocks with its block', () =>
  withChain(async (c) => {
    assert.deepEqual((await get(c, '/api/stats/tps')).body, {
      average: 0,
      peak: 0,
      peakBlock: null,
      blocks: 0,
      transactions: 0,
      seconds: 0,
    });
    await c.produce();
    for (const i of [1, 2, 3]) await c.node.submitTx(c.transfer(i, A(5), 5n));
    await c.produce();
    const span = (c.node.head().timestamp - c.genesis.timestamp) / 1000;
    assert.deepEqual((await get(c, '/api/stats/tps')).body, {
      average: Math.round((3 / span) * 1000) / 1000,
      peak: 3,
      peakBlock: 2,
      blocks: 2,
      transactions: 3,
      seconds: span,
    });
    await c.produce(100);
    assert.deepEqual((await get(c, '/api/stats/tps')).body, {
      average: 0,
      peak: 3,
      peakBlock: 2,
      blocks: 100,
      transactions: 0,
      seconds: 100,
    });
  }));

test('tasks, runs and chat indexes restored from rows answer as before', async () => {
  let c = await openTestChain();
  try {
    for (const i of [2, 3]) await registerMiner(c, i);
    await c.produce();
    const { taskId } = await fullTask(c);
    const { agentRunId } = await requestRun(c, 1);
    await submitTask(c, 4);
    await c.produce();
    const paths = [
      '/api/chain/tasks',
      `/api/chain/task/${taskId}`,
      '/api/tasks/active',
      `/api/agent/v6/run/${agentRunId}`,
      '/api/agent/v6/by-status/pending',
      `/api/agent/v6/by-submitter/${A(1)}`,
      '/api/chain/fee-estimate',
      '/api/analytics/overview',
      '/api/stats/tps',
      '/api/analytics/heatmap',
    ];
    const before = await Promise.all(paths.map(async (p) => (await get(c, p)).body));
    await c.close();
    c = await openTestChain({ dir: c.dir });
    assert.deepEqual(await Promise.all(paths.map(async (p) => (await get(c, p)).body)), before);
    await c.produce();
    assert.deepEqual((await get(c, '/api/chain/tasks?status=submitted')).body.total, 1, 'the restored status counts keep folding');
  } finally {
    await c.destroy();
  }
});
