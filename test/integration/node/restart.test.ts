import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEV_KEYS, openTestChain } from '../../helpers/testChain.ts';
import { txIndexProjection } from '../../../projections/chainIndex.ts';

test('a restart resumes from checkpoints without replaying the log', async () => {
  const c = await openTestChain();
  try {
    for (let i = 0; i < 5; i++) {
      await c.node.submitTx(c.transfer(1, DEV_KEYS[3].address, 1000n + BigInt(i)));
      await c.produce(2);
    }
    const before = await c.node.runner.dump();
    await c.close();
    const again = await openTestChain({ dir: c.dir });
    try {
      assert.deepEqual(again.node.lastCatchUp.blocks, 0);
      assert.equal(again.node.head().index, 10);
      assert.deepEqual(await again.node.runner.dump(), before);
      // The reopened node keeps extending the same chain.
      await again.node.submitTx(again.transfer(1, DEV_KEYS[3].address, 7n));
      await again.produce();
      assert.equal((await again.queries.account(DEV_KEYS[1].address)).nonce, 6);
    } finally {
      await again.destroy();
    }
  } catch (e) {
    await c.destroy().catch(() => undefined);
    throw e;
  }
});

test('a bumped projection version rebuilds that read model from the log on open', async () => {
  const c = await openTestChain();
  try {
    await c.node.submitTx(c.transfer(2, DEV_KEYS[4].address, 99n));
    await c.produce(3);
    const before = await c.node.runner.dump();
    // Forget one projection's checkpoint, as a version bump does.
    await c.node.runner.resetOne(txIndexProjection);
    await c.close();
    const again = await openTestChain({ dir: c.dir });
    try {
      assert.equal(again.node.lastCatchUp.blocks, 3);
      assert.deepEqual(await again.node.runner.dump(), before);
    } finally {
      await again.destroy();
    }
  } catch (e) {
    await c.destroy().catch(() => undefined);
    throw e;
  }
});

test('a data dir refuses a different genesis', async () => {
  const c = await openTestChain();
  await c.close();
  try {
    const other = { ...c.genesis, blockTimeMs: 2000 };
    await assert.rejects(openTestChain({ dir: c.dir, genesis: other }), /different genesis/);
  } finally {
    const again = await openTestChain({ dir: c.dir });
    await again.destroy();
  }
});

test('acknowledged but unmined transactions are pending again after a restart', async () => {
  const c = await openTestChain();
  const a = c.transfer(1, DEV_KEYS[2].address, 10n);
  await c.node.submitTx(a);
  const b = c.transfer(1, DEV_KEYS[2].address, 20n);
  await c.node.submitTx(b);
  await c.close();
  const again = await openTestChain({ dir: c.dir });
  try {
    assert.deepEqual(
      again.node.mempool.list().map((t) => t.hash),
      [a.hash, b.hash],
    );
    await again.produce();
    assert.equal(again.node.head().transactions.length, 2);
    await again.close();
    const third = await openTestChain({ dir: c.dir });
    assert.equal(third.node.mempool.size, 0);
    await third.destroy();
  } catch (e) {
    await again.destroy().catch(() => undefined);
    throw e;
  }
});
