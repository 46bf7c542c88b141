/** GET /api/wallet/balance/:address: balance with mined storage capacity. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../core/txCodec.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { assertError, DEV_ALLOCATION, get, STRANGER, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;

test('a dev account: balance in micro-units and whole OMBRA, nonce, no storage', () =>
  withChain(async (c) => {
    const res = await get(c, `/api/wallet/balance/${A(1)}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      address: A(1),
      balance: '1000000000000',
      balanceOmbra: '1000000',
      nonce: 0,
      storageCapacity: '0',
      storageUsed: '0',
      storageFree: '0',
    });
  }));

test('the dev authority gains 4096 bytes of storage capacity per produced block', () =>
  withChain(async (c) => {
    assert.equal((await get(c, `/api/wallet/balance/${A(0)}`)).body.storageCapacity, '0');
    await c.produce();
    const one = (await get(c, `/api/wallet/balance/${A(0)}`)).body;
    assert.deepEqual([one.storageCapacity, one.storageUsed, one.storageFree], ['4096', '0', '4096']);
    await c.produce(9);
    const ten = (await get(c, `/api/wallet/balance/${A(0)}`)).body;
    assert.deepEqual([ten.storageCapacity, ten.storageUsed, ten.storageFree], ['40960', '0', '40960']);
    // Others gain nothing from blocks they did not produce.
    assert.equal((await get(c, `/api/wallet/balance/${A(1)}`)).body.storageCapacity, '0');
  }));

test('balances move with transfers, fees go to the proposer, and balanceOmbra shows the fraction', () =>
  withChain(async (c) => {
    await c.node.submitTx(c.transfer(1, A(2), 5_000_001n, 1000n));
    await c.produce();
    const sender = (await get(c, `/api/wallet/balance/${A(1)}`)).body;
    assert.equal(sender.balance, (DEV_ALLOCATION - 5_001_001n).toString());
    assert.equal(sender.balanceOmbra, '999994.998999');
    assert.equal(sender.nonce, 1);
    const recipient = (await get(c, `/api/wallet/balance/${A(2)}`)).body;
    assert.equal(recipient.balance, '1000005000001');
    assert.equal(recipient.balanceOmbra, '1000005.000001');
    assert.equal((await get(c, `/api/wallet/balance/${A(0)}`)).body.balance, (DEV_ALLOCATION + 1000n).toString());
  }));

test('a STORAGE_TRANSFER moves capacity between wallets', () =>
  withChain(async (c) => {
    await c.produce(2);
    await c.node.submitTx(
      signTx({ type: 'STORAGE_TRANSFER', from: A(0), to: A(3), bytes: '1000', fee: '0', nonce: 0, timestamp: c.now() }, DEV_KEYS[0]),
    );
    await c.produce();
    const from = (await get(c, `/api/wallet/balance/${A(0)}`)).body;
    assert.deepEqual([from.storageCapacity, from.storageFree], [String(3 * 4096 - 1000), String(3 * 4096 - 1000)]);
    const to = (await get(c, `/api/wallet/balance/${A(3)}`)).body;
    assert.deepEqual([to.storageCapacity, to.storageUsed, to.storageFree], ['1000', '0', '1000']);
  }));

test('an unknown address is an empty wallet; a mixed-case one is lowercased; a malformed one is 400', () =>
  withChain(async (c) => {
    assert.deepEqual((await get(c, `/api/wallet/balance/${STRANGER}`)).body, {
      address: STRANGER,
      balance: '0',
      balanceOmbra: '0',
      nonce: 0,
      storageCapacity: '0',
      storageUsed: '0',
      storageFree: '0',
    });
    assert.equal((await get(c, `/api/wallet/balance/${A(1).toUpperCase()}`)).body.address, A(1));
    for (const bad of ['ox12', 'hello', `ox${'z'.repeat(40)}`, 'x'.repeat(10_000)])
      assertError(await get(c, `/api/wallet/balance/${bad}`), 400, 'INVALID_PARAMS');
  }));
