/**
 * The mempool's admission policy through a real node on LevelDB and the HTTP API: zero-fee spam,
 * the per-type fee floor, replace-by-fee, and the pending log following evictions across a restart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../../core/txCodec.ts';
import { assertError, postTx } from '../../../helpers/apiSupport.ts';
import { DEV_KEYS, openTestChain, tempDir, type TestChain } from '../../../helpers/testChain.ts';

const A = (i: number) => DEV_KEYS[i].address;

function transfer(c: TestChain, from: number, nonce: number, fee: bigint | string) {
  return signTx({ type: 'TRANSFER', from: A(from), to: A(9), amount: '1', fee: String(fee), nonce, timestamp: c.now() }, DEV_KEYS[from]);
}

test('zero-fee spam filling the pool cannot keep a fee-paying transfer out of the next block', async () => {
  const tmp = tempDir();
  let c = await openTestChain({ dir: tmp.dir, mempool: { maxSize: 8, maxPerSender: 4 } });
  try {
    const spam = [];
    for (const from of [1, 2]) for (let n = 0; n < 4; n++) spam.push(transfer(c, from, n, 0n));
    for (const s of spam) assert.equal((await postTx(c, s)).status, 200);
    assertError(await postTx(c, transfer(c, 3, 0, 0n)), 503, 'MEMPOOL_FULL');
    const paying = transfer(c, 4, 0, 1000n);
    assert.equal((await postTx(c, paying)).status, 200);
    assert.equal(c.node.mempool.size, 8);
    // The newest tail of a spam run left, so no remaining spam waits on a missing nonce.
    assert.ok(!c.node.mempool.has(spam[7].hash));
    // The eviction reached the pending log: a restart restores the same pool.
    await c.close();
    c = await openTestChain({ dir: tmp.dir, mempool: { maxSize: 8, maxPerSender: 4 } });
    assert.deepEqual(
      c.node.mempool.list().map((x) => x.hash),
      [...spam.slice(0, 7), paying].map((x) => x.hash),
    );
    await c.produce(1);
    const block = await c.node.readPorts().blocks.block(1);
    assert.equal(block?.transactions[0].hash, paying.hash, 'the paying transfer leads the next block');
  } finally {
    await c.destroy();
  }
});

test('a fee below the type’s floor is 422 VALIDATION_FAILED and changes nothing', async () => {
  const c = await openTestChain({ mempool: { minFee: { TRANSFER: 100n } } });
  try {
    assertError(await postTx(c, transfer(c, 1, 0, 99n)), 422, 'VALIDATION_FAILED', /below this node's minimum of 100 for TRANSFER/);
    assert.equal(c.node.mempool.size, 0);
    assert.equal((await postTx(c, transfer(c, 1, 0, 100n))).status, 200);
    // A type with its own floor unset still takes a zero fee.
    const reg = signTx(
      { type: 'MINER_REGISTER', from: A(2), name: 'm', capabilities: ['chat'], fee: '0', nonce: 0, timestamp: c.now() },
      DEV_KEYS[2],
    );
    assert.equal((await postTx(c, reg)).status, 200);
  } finally {
    await c.destroy();
  }
});

test('replace-by-fee needs at least 10% more (else 409 DUPLICATE_TX) and leaves one transaction for the nonce', async () => {
  const c = await openTestChain();
  try {
    const first = transfer(c, 1, 0, 1000n);
    const second = transfer(c, 1, 1, 1000n);
    assert.equal((await postTx(c, first)).status, 200);
    assert.equal((await postTx(c, second)).status, 200);
    assertError(await postTx(c, transfer(c, 1, 0, 1099n)), 409, 'DUPLICATE_TX', /at least 1100/);
    const better = transfer(c, 1, 0, 1100n);
    assert.equal((await postTx(c, better)).status, 200);
    assert.deepEqual(
      c.node.mempool.candidates().map((x) => x.hash),
      [better.hash, second.hash],
    );
    assertError(await postTx(c, first), 409, 'DUPLICATE_TX');
    await c.produce(1);
    const block = await c.node.readPorts().blocks.block(1);
    assert.deepEqual(
      block?.transactions.map((x) => x.hash),
      [better.hash, second.hash],
    );
    assert.equal(c.node.mempool.size, 0);
  } finally {
    await c.destroy();
  }
});
