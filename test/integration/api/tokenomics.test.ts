/** /api/tokenomics: supply, holders, distribution. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEV_KEYS, fixtureGenesis } from '../../helpers/testChain.ts';
import { assertError, assertKeys, DEV_ALLOCATION, get, STRANGER, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;
const TOTAL = 10n * DEV_ALLOCATION;
const REWARD = 50_000_000n;
const LABELS = [
  '0-1 OMBRA',
  '1-10 OMBRA',
  '10-100 OMBRA',
  '100-1000 OMBRA',
  '1000-10000 OMBRA',
  '10000-100000 OMBRA',
  '100000-1000000 OMBRA',
  '1000000+ OMBRA',
];

test('the dev genesis: the allocations emitted and circulating, no blocks, rewardPerBlock "0"', () =>
  withChain(async (c) => {
    const res = await get(c, '/api/tokenomics/supply');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { totalEmitted: TOTAL.toString(), circulating: TOTAL.toString(), blocksProduced: 0, rewardPerBlock: '0' });
    await c.node.submitTx(c.transfer(1, A(2), 5n));
    await c.produce(3);
    assert.deepEqual((await get(c, '/api/tokenomics/supply')).body, {
      totalEmitted: TOTAL.toString(),
      circulating: TOTAL.toString(),
      blocksProduced: 3,
      rewardPerBlock: '0',
    });
  }));

test('before fork 2 each block emits rewardPerBlock; from fork 2 (height 10) nothing', () =>
  withChain(
    async (c) => {
      const at = async () => (await get(c, '/api/tokenomics/supply')).body;
      assert.deepEqual(await at(), {
        totalEmitted: TOTAL.toString(),
        circulating: TOTAL.toString(),
        blocksProduced: 0,
        rewardPerBlock: '50000000',
      });
      await c.produce(3);
      assert.deepEqual(await at(), {
        totalEmitted: (TOTAL + 3n * REWARD).toString(),
        circulating: (TOTAL + 3n * REWARD).toString(),
        blocksProduced: 3,
        rewardPerBlock: '50000000',
      });
      await c.produce(5);
      assert.equal((await at()).rewardPerBlock, '50000000', 'block 9 still pays');
      await c.produce();
      const nine = await at();
      assert.deepEqual(nine, {
        totalEmitted: (TOTAL + 9n * REWARD).toString(),
        circulating: (TOTAL + 9n * REWARD).toString(),
        blocksProduced: 9,
        rewardPerBlock: '0',
      });
      await c.produce(5);
      assert.deepEqual(await at(), { ...nine, blocksProduced: 14 });
      // The reward went to the authority.
      assert.equal((await c.queries.account(A(0))).balance, DEV_ALLOCATION + 9n * REWARD);
    },
    { genesis: fixtureGenesis('late-forks-genesis.json') },
  ));

test('the dev genesis: ten equal holders at 10% each, ranked with ties by address', () =>
  withChain(async (c) => {
    const res = await get(c, '/api/tokenomics/holders');
    assert.equal(res.status, 200);
    assertKeys(res.body, ['totalHolders', 'totalSupply', 'holders']);
    assert.equal(res.body.totalHolders, 10);
    assert.equal(res.body.totalSupply, TOTAL.toString());
    const sorted = DEV_KEYS.map((k) => k.address).sort();
    assert.deepEqual(
      res.body.holders,
      sorted.map((address) => ({ address, balance: DEV_ALLOCATION.toString(), percentage: 10 })),
    );
  }));

test('holders are sorted by balance, descending, with percentage numbers; limit picks the top N', () =>
  withChain(async (c) => {
    await c.node.submitTx(c.transfer(1, STRANGER, 5_000_000n, 1000n));
    await c.node.submitTx(c.transfer(2, A(3), 250_000_000_000n, 1000n));
    await c.produce();
    const res = await get(c, '/api/tokenomics/holders?limit=100');
    assert.equal(res.body.totalHolders, 11);
    assert.equal(res.body.holders.length, 11);
    const balances = res.body.holders.map((h: any) => BigInt(h.balance));
    for (let i = 1; i < balances.length; i++) assert.ok(balances[i - 1] >= balances[i], `rank ${i}`);
    assert.deepEqual(res.body.holders[0], { address: A(3), balance: '1250000000000', percentage: 12.5 });
    assert.deepEqual(res.body.holders[10], { address: STRANGER, balance: '5000000', percentage: 0 });
    for (const h of res.body.holders) {
      assertKeys(h, ['address', 'balance', 'percentage'], 'holder');
      assert.equal(typeof h.percentage, 'number');
      assert.match(h.balance, /^[1-9][0-9]*$/);
    }
    const top3 = await get(c, '/api/tokenomics/holders?limit=3');
    assert.deepEqual(top3.body.holders, res.body.holders.slice(0, 3));
    assert.equal(top3.body.totalHolders, 11);
    assert.equal((await get(c, '/api/tokenomics/holders?limit=0')).body.holders.length, 0);
    assert.equal((await get(c, '/api/tokenomics/holders?limit=100000')).body.holders.length, 11);
    assert.equal((await get(c, '/api/tokenomics/holders')).body.holders.length, 11);
  }));

test('an emptied account is no longer a holder', () =>
  withChain(async (c) => {
    await c.node.submitTx(c.transfer(1, A(2), DEV_ALLOCATION - 1000n, 1000n));
    await c.produce();
    const res = await get(c, '/api/tokenomics/holders');
    assert.equal(res.body.totalHolders, 9);
    assert.ok(!res.body.holders.some((h: any) => h.address === A(1)));
    // Percentages carry four decimals, truncated: 19.99999999% reads 19.9999.
    assert.deepEqual(res.body.holders[0], { address: A(2), balance: '1999999999000', percentage: 19.9999 });
  }));

test('a bad limit is 400 INVALID_PARAMS', () =>
  withChain(async (c) => {
    for (const q of ['-1', '1.5', 'abc', '1e2']) assertError(await get(c, `/api/tokenomics/holders?limit=${q}`), 400, 'INVALID_PARAMS');
  }));

test('buckets are labelled `<low>-<high> OMBRA`, the last `<low>+ OMBRA`, and count every holder once', () =>
  withChain(async (c) => {
    const res = await get(c, '/api/tokenomics/distribution');
    assert.equal(res.status, 200);
    assertKeys(res.body, ['buckets']);
    assert.deepEqual(
      res.body.buckets,
      LABELS.map((range, i) => ({ range, count: i === LABELS.length - 1 ? 10 : 0 })),
    );
    await c.node.submitTx(c.transfer(1, STRANGER, 5_000_000n, 1000n));
    await c.node.submitTx(c.transfer(2, `ox${'cd'.repeat(20)}`, 500_000n, 1000n));
    await c.produce();
    const after = (await get(c, '/api/tokenomics/distribution')).body.buckets;
    assert.deepEqual(
      after.map((b: any) => b.range),
      LABELS,
    );
    // 5 OMBRA -> 1-10; 0.5 OMBRA -> 0-1; dev 1 and 2 drop just below 1,000,000; the other 8 stay.
    assert.deepEqual(
      after.map((b: any) => b.count),
      [1, 1, 0, 0, 0, 0, 2, 8],
    );
    const total = (await get(c, '/api/tokenomics/holders')).body.totalHolders;
    assert.equal(
      after.reduce((n: number, b: any) => n + b.count, 0),
      total,
    );
    assert.equal(total, 12);
  }));
