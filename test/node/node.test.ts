import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEV_KEYS, openTestChain } from '../helpers/testChain.ts';

const t = suite('node');

t('a submitted transfer is mined into the next block and moves funds', async () => {
  const c = await openTestChain();
  try {
    const tx = c.transfer(1, DEV_KEYS[2].address, 5_000_000n, 1000n);
    await c.node.submitTx(tx);
    assert.is(c.node.mempool.size, 1);
    await c.produce();
    assert.is(c.node.head().transactions.length, 1);
    assert.is(c.node.mempool.size, 0);
    assert.is((await c.queries.account(DEV_KEYS[1].address)).balance, 1_000_000_000_000n - 5_000_000n - 1000n);
    assert.is((await c.queries.account(DEV_KEYS[2].address)).balance, 1_000_000_000_000n + 5_000_000n);
    assert.is((await c.queries.account(DEV_KEYS[1].address)).nonce, 1);
  } finally {
    await c.destroy();
  }
});

t.run();
