/** The block log's reads and its one-batch writes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEV_KEYS, openTestChain } from '../../../helpers/testChain.ts';

test('blocksJsonIn answers the stored JSON text of each block in the range, which is the block serialised', async () => {
  const c = await openTestChain();
  try {
    for (let i = 0; i < 3; i++) {
      await c.node.submitTx(c.transfer(1, DEV_KEYS[2].address, 5n + BigInt(i)));
      await c.produce();
    }
    const texts = await c.node.store.blocksJsonIn(1, 3);
    const blocks = await c.node.store.blocksIn(1, 3);
    assert.deepEqual(
      texts,
      blocks.map((b) => JSON.stringify(b)),
    );
    assert.deepEqual(await c.node.store.blocksJsonIn(2, 2), [JSON.stringify(blocks[1])]);
    assert.deepEqual(await c.node.store.blocksJsonIn(4, 9), []);
  } finally {
    await c.destroy();
  }
});

test('write applies a batch that names a key more than once as LevelDB would: the last op on each key wins', async () => {
  const c = await openTestChain();
  try {
    const store = c.node.store;
    const sub = store.sublevel('test:dedup');
    const other = store.sublevel('test:dedup2');
    await store.write([
      { type: 'put', sublevel: sub, key: 'gone', value: 0 },
      { type: 'put', sublevel: sub, key: 'a', value: 1 },
      { type: 'put', sublevel: other, key: 'a', value: 'other' },
      { type: 'put', sublevel: sub, key: 'a', value: 2 },
      { type: 'del', sublevel: sub, key: 'b' },
      { type: 'put', sublevel: sub, key: 'b', value: { x: 3 } },
      { type: 'put', sublevel: sub, key: 'c', value: 4 },
      { type: 'del', sublevel: sub, key: 'c' },
      { type: 'del', sublevel: sub, key: 'gone' },
      { type: 'put', sublevel: sub, key: 'a', value: 5 },
    ]);
    assert.deepEqual(await sub.get('a'), 5);
    assert.deepEqual(await sub.get('b'), { x: 3 });
    assert.equal(await sub.get('c'), undefined);
    assert.equal(await sub.get('gone'), undefined);
    assert.equal(await other.get('a'), 'other');
  } finally {
    await c.destroy();
  }
});
