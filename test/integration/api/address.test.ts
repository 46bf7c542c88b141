/** The older reads: /api/address/:addr, /balance, /txs, and /api/stats/supply. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../core/txCodec.ts';
import { DEV_KEYS, fixtureGenesis } from '../../helpers/testChain.ts';
import { assertError, DEV_ALLOCATION, get, STRANGER, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;
const TOTAL = 10n * DEV_ALLOCATION;

test('answers balance and nonce, balance alone, and the history newest first', () =>
  withChain(async (c) => {
    const hashes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const tx = c.transfer(1, A(2), BigInt(i + 1));
      await c.node.submitTx(tx);
      hashes.push(tx.hash as string);
      if (i % 2 === 1) await c.produce();
    }
    await c.produce();
    const spent = 15n + 5n * 1000n;
    const res = await get(c, `/api/address/${A(1)}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { address: A(1), balance: (DEV_ALLOCATION - spent).toString(), nonce: 5 });
    assert.deepEqual((await get(c, `/api/address/${A(1)}/balance`)).body, { address: A(1), balance: (DEV_ALLOCATION - spent).toString() });
    const txs = await get(c, `/api/address/${A(1)}/txs`);
    assert.equal(txs.status, 200);
    assert.equal(txs.body.address, A(1));
    assert.equal(txs.body.count, 5);
    assert.deepEqual(
      txs.body.txs.map((t: any) => t.hash),
      [...hashes].reverse(),
    );
    assert.deepEqual(
      txs.body.txs.map((t: any) => t.blockIndex),
      [3, 2, 2, 1, 1],
    );
    const two = await get(c, `/api/address/${A(1)}/txs?limit=2`);
    assert.deepEqual(
      two.body.txs.map((t: any) => t.hash),
      [hashes[4], hashes[3]],
    );
    assert.equal(two.body.count, 2);
    assert.equal(two.body.total, 5, 'total counts every transaction of the address, not the page');
    assert.equal(two.body.nextCursor, '2', 'the next page starts at the third newest');
    assert.deepEqual(
      (await get(c, `/api/address/${A(1)}/txs?limit=2&cursor=${two.body.nextCursor}`)).body.txs.map((t: any) => t.hash),
      [hashes[2], hashes[1]],
    );
    const off = await get(c, `/api/address/${A(1)}/txs?limit=2&offset=3`);
    assert.deepEqual(
      off.body.txs.map((t: any) => t.hash),
      [hashes[1], hashes[0]],
    );
    assert.equal((await get(c, `/api/address/${A(2)}/txs`)).body.count, 5);
    assert.deepEqual((await get(c, `/api/address/${A(3)}/txs`)).body, { address: A(3), count: 0, total: 0, txs: [], nextCursor: null });
  }));

test('the history limit defaults to 30 and clamps to 100', () =>
  withChain(async (c) => {
    for (let b = 0; b < 2; b++) {
      for (let i = 0; i < 60; i++) await c.node.submitTx(c.transfer(1, A(2), 1n));
      await c.produce();
    }
    assert.equal((await get(c, `/api/address/${A(1)}/txs`)).body.count, 30);
    assert.equal((await get(c, `/api/address/${A(1)}/txs?limit=1000`)).body.count, 100);
    const deep = (await get(c, `/api/address/${A(1)}/txs?limit=1000&offset=100`)).body;
    assert.equal(deep.count, 20);
    assert.equal(deep.total, 120);
  }));

test('unknown addresses are empty, mixed case is lowercased, malformed addresses and limits are 400', () =>
  withChain(async (c) => {
    assert.deepEqual((await get(c, `/api/address/${STRANGER}`)).body, { address: STRANGER, balance: '0', nonce: 0 });
    assert.deepEqual((await get(c, `/api/address/${STRANGER}/balance`)).body, { address: STRANGER, balance: '0' });
    assert.equal((await get(c, `/api/address/${A(1).toUpperCase()}/balance`)).body.address, A(1));
    for (const bad of ['ox12', 'x'.repeat(10_000), `ox${'q'.repeat(40)}`]) {
      assertError(await get(c, `/api/address/${bad}`), 400, 'INVALID_PARAMS');
      assertError(await get(c, `/api/address/${bad}/balance`), 400, 'INVALID_PARAMS');
      assertError(await get(c, `/api/address/${bad}/txs`), 400, 'INVALID_PARAMS');
    }
    for (const q of ['limit=-1', 'limit=2.5', 'limit=x', 'offset=-1'])
      assertError(await get(c, `/api/address/${A(1)}/txs?${q}`), 400, 'INVALID_PARAMS');
  }));

const SUPPLY_KEYS = ['totalSupply', 'totalEmitted', 'totalBurned', 'escrow', 'circulating', 'feesPaid', 'blocksProduced', 'rewardPerBlock'];

test('a fresh dev chain: everything emitted circulates, nothing burned, escrowed or paid', () =>
  withChain(async (c) => {
    const res = await get(c, '/api/stats/supply');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      totalSupply: TOTAL.toString(),
      totalEmitted: TOTAL.toString(),
      totalBurned: '0',
      escrow: '0',
      circulating: TOTAL.toString(),
      feesPaid: '0',
      blocksProduced: 0,
      rewardPerBlock: '0',
    });
  }));

test('fees and burns show up; a burn leaves circulation and totalEmitted stays', () =>
  withChain(async (c) => {
    await c.node.submitTx(c.transfer(1, A(2), 5n, 1234n));
    await c.node.submitTx(
      signTx(
        { type: 'BURN', from: A(3), amount: '777', reason: 'slashing', blockIndex: 0, tokensConsumed: 0, nonce: 0, timestamp: c.now() },
        DEV_KEYS[3],
      ),
    );
    await c.produce(2);
    const res = await get(c, '/api/stats/supply');
    assert.deepEqual(Object.keys(res.body).sort(), [...SUPPLY_KEYS].sort());
    assert.deepEqual(res.body, {
      totalSupply: (TOTAL - 777n).toString(),
      totalEmitted: TOTAL.toString(),
      totalBurned: '777',
      escrow: '0',
      circulating: (TOTAL - 777n).toString(),
      feesPaid: '1234',
      blocksProduced: 2,
      rewardPerBlock: '0',
    });
    assert.equal((await get(c, '/api/tokenomics/supply')).body.circulating, (TOTAL - 777n).toString());
  }));

test('before fork 2 emission grows by the block reward', () =>
  withChain(
    async (c) => {
      await c.produce(2);
      const res = (await get(c, '/api/stats/supply')).body;
      assert.equal(res.totalEmitted, (TOTAL + 100_000_000n).toString());
      assert.equal(res.rewardPerBlock, '50000000');
      assert.equal(res.blocksProduced, 2);
    },
    { genesis: fixtureGenesis('late-forks-genesis.json') },
  ));
