/** Equivocation: two blocks for one slot by its authority are recorded, served, and the second is never built upon. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slotOf } from '../../../../core/block.ts';
import { DEV_KEYS, openTestChain } from '../../../helpers/testChain.ts';

test('a second block for a held slot is recorded as evidence, served and kept across restarts; a longer chain through it still wins', async () => {
  const a = await openTestChain();
  const b = await openTestChain();
  try {
    const g = a.genesis;
    await a.produce(1);
    const ours = a.node.head();
    // The same authority signs another block for the same slot (on another node, with a transfer
    // in it), and builds on it: a longer branch through the slot's second block.
    b.advance(a.now() - b.now());
    await b.node.submitTx(b.transfer(3, DEV_KEYS[4].address, 5n));
    await b.produce(2);
    const [second, third] = await b.node.store.blocksIn(1, 2);
    const slot = slotOf(ours.timestamp, g.blockTimeMs);
    assert.equal(slotOf(second.timestamp, g.blockTimeMs), slot);
    assert.notEqual(second.hash, ours.hash);
    // Not evidence: our own block again, or a block of another slot.
    assert.equal(await a.node.noteCompetingBlock(ours), false);
    assert.equal(await a.node.noteCompetingBlock({ ...second, attestations: [] }), false);
    assert.equal(await a.node.noteCompetingBlock(second), true);
    const res = await a.app.request('/api/chain/evidence');
    const body = (await res.json()) as {
      count: number;
      evidence: { proposer: string; slot: number; height: number; first: { hash: string }; second: { hash: string } }[];
    };
    assert.equal(body.count, 1);
    assert.deepEqual(
      {
        proposer: body.evidence[0].proposer,
        slot: body.evidence[0].slot,
        height: body.evidence[0].height,
        first: body.evidence[0].first.hash,
        second: body.evidence[0].second.hash,
      },
      { proposer: DEV_KEYS[0].address, slot, height: 1, first: ours.hash, second: second.hash },
    );
    // Liveness: a strictly longer chain built on the second block by others still wins, and the
    // evidence stays (gossip of the second block alone is rejected: see test/system/p2p/hostile.test.ts).
    a.advance(Math.max(0, b.now() - a.now()));
    await a.node.reorg(0, [second, third]);
    assert.equal(a.node.head().hash, third.hash);
    assert.ok(a.node.evidence.isRefused(second.hash));
    // The record survives a restart.
    await a.close();
    const again = await openTestChain({ dir: a.dir, genesis: g });
    try {
      assert.equal(((await (await again.app.request('/api/chain/evidence')).json()) as { count: number }).count, 1);
      assert.ok(again.node.evidence.isRefused(second.hash));
    } finally {
      await again.close();
    }
  } finally {
    await a.destroy().catch(() => undefined);
    await b.destroy();
  }
});
