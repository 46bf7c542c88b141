/** GET /api/analytics/series and /api/analytics/totals over the recorded simulated chain and a chain spanning days. */
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGenesis } from '../../../core/genesis.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { assertError, get, withChain } from '../../helpers/apiSupport.ts';

const lines = readFileSync(new URL('../../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const genesis = parseGenesis(lines[0].genesis);
const txs: Record<string, any>[] = lines.slice(2).flatMap((b: { transactions: Record<string, any>[] }) => b.transactions);
const HOUR = 3_600_000;

const sum = (xs: (string | number)[]) => xs.reduce<bigint>((a, x) => a + BigInt(x), 0n);

test('over the simulated chain: the series and the totals agree with the blocks and the consensus state', () =>
  withChain(
    async (c) => {
      for (const b of lines.slice(2)) await c.node.importBlock(b);
      const s = c.node.state();
      const storageUsed = sum([...s.accounts.values()].map((a) => a.storageUsed.toString()));
      assert.ok(storageUsed > 0n, 'the fixture stores drive files');

      const totals = (await get(c, '/api/analytics/totals')).body;
      assert.deepEqual(
        [totals.height, totals.transactions, totals.tasks, totals.agentRuns, totals.miners],
        [
          c.node.head().index,
          txs.length,
          txs.filter((x) => x.type === 'TASK_SUBMIT').length,
          txs.filter((x) => x.type === 'AGENT_REQUEST').length,
          s.records.miners.size,
        ],
      );
      assert.deepEqual(
        [totals.feesPaid, totals.storageUsed, totals.totalBurned],
        [s.supply.feesPaid.toString(), storageUsed.toString(), s.supply.burned.toString()],
      );
      assert.equal(totals.transactions24h, txs.length);
      assert.ok(totals.activeMiners24h > 0 && totals.tps.peak > 0, JSON.stringify(totals));
      assert.equal(totals.blockTimeMs24h, genesis.blockTimeMs);

      for (const step of ['hour', 'day']) {
        const series = (await get(c, `/api/analytics/series?range=30d&step=${step}`)).body;
        assert.equal(series.step, step);
        assert.equal(series.points.length, step === 'hour' ? 720 : 31);
        const p = series.points;
        assert.equal(sum(p.map((x: any) => x.txCount)), BigInt(txs.length));
        assert.equal(sum(p.map((x: any) => x.blocks)), BigInt(lines.length - 2));
        assert.equal(sum(p.map((x: any) => x.fees)), s.supply.feesPaid);
        assert.equal(sum(p.map((x: any) => x.tasks)), BigInt(totals.tasks));
        assert.equal(p.at(-1).storageUsed, storageUsed.toString());
        for (let i = 1; i < p.length; i++) assert.equal(p[i].start - p[i - 1].start, step === 'hour' ? HOUR : 24 * HOUR);
        const chat = txs.filter((x) => x.type === 'TASK_SUBMIT' && x.taskType === 'chat').length;
        assert.equal(sum(p.map((x: any) => x.taskTypes.chat ?? 0)), BigInt(chat));
      }
    },
    { genesis },
  ));

test('a chain spanning two days: a point per hour with blocks, gaps as zeros, per-day sums of the hours', () =>
  withChain(async (c) => {
    await c.produce(2);
    c.advance(26 * HOUR);
    await c.node.submitTx(c.transfer(1, DEV_KEYS[2].address, 5n));
    await c.produce(3);
    const hours = (await get(c, '/api/analytics/series?range=7d')).body.points;
    assert.equal(hours.length, 168);
    const busy = hours.filter((p: any) => p.blocks > 0);
    assert.deepEqual(
      busy.map((p: any) => p.blocks),
      [2, 3],
    );
    assert.equal(busy[1].txCount, 1);
    assert.equal(busy[1].blockTimeMs > 0, true);
    assert.equal(hours.filter((p: any) => p.blocks === 0 && p.txCount === 0 && p.blockTimeMs === null).length, 166);
    const days = (await get(c, '/api/analytics/series?range=7d&step=day')).body.points;
    assert.equal(sum(days.map((d: any) => d.blocks)), 5n);
    assert.equal(sum(days.map((d: any) => d.txCount)), 1n);
    assert.ok(days.every((d: any) => new Date(d.start).getUTCHours() === 0));
  }));

test('a bad range or step is 400 INVALID_PARAMS', () =>
  withChain(async (c) => {
    assertError(await get(c, '/api/analytics/series?range=1y'), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/analytics/series?step=week'), 400, 'INVALID_PARAMS');
  }));
