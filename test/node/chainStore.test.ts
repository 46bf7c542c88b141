/** The block log's reads. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEV_KEYS, openTestChain } from '../helpers/testChain.ts';

const t = suite('chain store');

t('blocksJsonIn answers the stored JSON text of each block in the range, which is the block serialised', async () => {
  const c = await openTestChain();
  try {
    for (let i = 0; i < 3; i++) {
      await c.node.submitTx(c.transfer(1, DEV_KEYS[2].address, 5n + BigInt(i)));
      await c.produce();
    }
    const texts = await c.node.store.blocksJsonIn(1, 3);
    const blocks = await c.node.store.blocksIn(1, 3);
    assert.equal(
      texts,
      blocks.map((b) => JSON.stringify(b)),
    );
    assert.equal(await c.node.store.blocksJsonIn(2, 2), [JSON.stringify(blocks[1])]);
    assert.equal(await c.node.store.blocksJsonIn(4, 9), []);
  } finally {
    await c.destroy();
  }
});

t.run();
