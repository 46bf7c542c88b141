/** GET /api/mempool/ and GET /api/chain/mempool: pending transactions, oldest first. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../core/txCodec.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { assertError, get, postTx, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;
const MOUNTS = ['/api/mempool/', '/api/mempool', '/api/chain/mempool', '/api/chain/mempool/'];

test('an empty mempool answers {total: 0, pending: []} on every mount', () =>
  withChain(async (c) => {
    for (const path of MOUNTS) {
      const res = await get(c, path);
      assert.equal(res.status, 200, path);
      assert.deepEqual(res.body, { total: 0, pending: [] }, path);
    }
  }));

test('pending transactions are listed oldest first with type, from, to, amount, fee, nonce and hash', () =>
  withChain(async (c) => {
    const admit = async <T extends Record<string, unknown>>(tx: T): Promise<T> => {
      assert.equal((await postTx(c, tx)).status, 200);
      return tx;
    };
    const t1 = await admit(c.transfer(1, A(2), 5n, 10n));
    const t2 = await admit(c.transfer(3, A(4), 6n, 5000n));
    const t3 = await admit(c.transfer(1, A(5), 7n, 10n));
    const reg = await admit(
      signTx({ type: 'MINER_REGISTER', from: A(6), name: 'n', capabilities: [], fee: '0', nonce: 0, timestamp: c.now() }, DEV_KEYS[6]),
    );
    const expected = [
      { type: 'TRANSFER', from: A(1), to: A(2), amount: '5', fee: '10', nonce: 0, hash: t1.hash },
      { type: 'TRANSFER', from: A(3), to: A(4), amount: '6', fee: '5000', nonce: 0, hash: t2.hash },
      { type: 'TRANSFER', from: A(1), to: A(5), amount: '7', fee: '10', nonce: 1, hash: t3.hash },
      // Types without `to` and `amount` leave them out.
      { type: 'MINER_REGISTER', from: A(6), fee: '0', nonce: 0, hash: reg.hash },
    ];
    for (const path of MOUNTS) assert.deepEqual((await get(c, path)).body, { total: 4, pending: expected }, path);
    const page = await get(c, '/api/mempool/?limit=2&offset=1');
    assert.deepEqual(page.body, { total: 4, pending: expected.slice(1, 3) });
    assert.deepEqual((await get(c, '/api/chain/mempool?offset=10')).body, { total: 4, pending: [] });
    await c.produce();
    assert.deepEqual((await get(c, '/api/mempool/')).body, { total: 0, pending: [] });
  }));

test('the default page is 30 and limit clamps to 100', () =>
  withChain(async (c) => {
    for (let i = 0; i < 64; i++) await c.node.submitTx(c.transfer(1, A(2), BigInt(i + 1)));
    for (let i = 0; i < 50; i++) await c.node.submitTx(c.transfer(2, A(3), BigInt(i + 1)));
    const res = await get(c, '/api/mempool/');
    assert.equal(res.body.total, 114);
    assert.equal(res.body.pending.length, 30);
    assert.equal(res.body.pending[0].amount, '1');
    assert.equal((await get(c, '/api/mempool/?limit=1000')).body.pending.length, 100);
    assert.equal((await get(c, '/api/mempool/?limit=1000&offset=100')).body.pending.length, 14);
  }));

test('a bad limit or offset is 400 INVALID_PARAMS', () =>
  withChain(async (c) => {
    for (const q of ['limit=-1', 'limit=1.5', 'limit=abc', 'offset=-3', 'offset=x']) {
      assertError(await get(c, `/api/mempool/?${q}`), 400, 'INVALID_PARAMS');
      assertError(await get(c, `/api/chain/mempool?${q}`), 400, 'INVALID_PARAMS');
    }
  }));
