import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEV_KEYS, openTestChain } from '../../helpers/testChain.ts';

test('a submitted transfer is mined into the next block and moves funds', async () => {
  const c = await openTestChain();
  try {
    const tx = c.transfer(1, DEV_KEYS[2].address, 5_000_000n, 1000n);
    await c.node.submitTx(tx);
    assert.equal(c.node.mempool.size, 1);
    await c.produce();
    assert.equal(c.node.head().transactions.length, 1);
    assert.equal(c.node.mempool.size, 0);
    assert.equal((await c.queries.account(DEV_KEYS[1].address)).balance, 1_000_000_000_000n - 5_000_000n - 1000n);
    assert.equal((await c.queries.account(DEV_KEYS[2].address)).balance, 1_000_000_000_000n + 5_000_000n);
    assert.equal((await c.queries.account(DEV_KEYS[1].address)).nonce, 1);
  } finally {
    await c.destroy();
  }
});
