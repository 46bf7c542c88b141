/** A catch-up writes its rows and checkpoints in a batch every 1,000 blocks, not whenever the disk is free. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openTestChain } from '../../helpers/testChain.ts';

test('a rebuild of 1,100 empty blocks writes its read models in a few batches', async () => {
  const c = await openTestChain();
  try {
    await c.produce(1100);
    const before = c.node.runner.heights();
    await c.node.runner.resetAll();
    const store = c.node.store;
    const write = store.write.bind(store);
    let batches = 0;
    store.write = (ops, opts) => {
      batches++;
      return write(ops, opts);
    };
    try {
      await c.node.catchUp();
    } finally {
      store.write = write;
    }
    assert.deepEqual(c.node.runner.heights(), before);
    // The flush at block 1,000 and the last one (before: one batch every ~26 blocks, ~40 here).
    assert.ok(batches <= 3, `${batches} batches`);
  } finally {
    await c.destroy();
  }
});
