/**
 * Every transaction of the chain, newest first (queries/blockReads.ts `allTxs`, over
 * projections/allTxs.ts): a page at any depth is one range read of the index, bounded by the
 * page, the same as a page at its head, on a chain where most blocks hold no transaction.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allTxsProjection } from '../../../projections/allTxs.ts';
import { DEV_KEYS, openTestChain } from '../../helpers/testChain.ts';

test('a page deep in the history costs one bounded range read, as a page at its head does', async (t) => {
  const c = await openTestChain();
  try {
    const hashes: string[] = [];
    for (let b = 0; b < 8; b++) {
      for (let i = 0; i < 50; i++) {
        const tx = c.transfer(1 + (i % 5), DEV_KEYS[9].address, 1n);
        await c.node.submitTx(tx);
        hashes.push(String(tx.hash));
      }
      await c.produce();
      await c.produce(20);
    }
    hashes.reverse();
    const rows = await c.node.readPorts().models.readable(allTxsProjection);
    const reads = t.mock.method(rows, 'values');
    for (const offset of [0, 150, 390]) {
      reads.mock.resetCalls();
      const page = await c.queries.allTxs(10, offset);
      assert.deepEqual(
        page.txs.map((x) => x.hash),
        hashes.slice(offset, offset + 10),
      );
      assert.equal(page.total, 400);
      assert.equal(reads.mock.callCount(), 1, `one range read at offset ${offset}`);
      assert.equal(reads.mock.calls[0].arguments[0]?.limit, 10, 'bounded by the page');
    }
    // A cursor reads the same way, and ends after the first transaction ever.
    const last = await c.queries.allTxs(10, 0, 5);
    assert.deepEqual(
      last.txs.map((x) => x.hash),
      hashes.slice(394),
    );
    assert.equal(last.nextCursor, null);
  } finally {
    await c.destroy();
  }
});
