/**
 * An authority that comes back to a network that went on without it (a cut healed, a restart)
 * syncs before it produces: while a peer's status shows a better chain and the sync taking it
 * runs, its slots are skipped, so it never builds on its stale head (a block that loses, and whose
 * import makes the sync fail with "the chain holds another block").
 */
import { multiaddr } from '@multiformats/multiaddr';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../../core/block.ts';
import { syncProtocols } from '../../../p2p/sync.ts';
import type { PeerStatus } from '../../../p2p/syncServer.ts';
import { decode, encode, readAll } from '../../../p2p/wire.ts';
import { hostileLibp2p } from '../../helpers/hostilePeer.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { testNet } from '../../helpers/testnet.ts';

/** How long the slow peer holds each block answer: several of the late authority's slots. */
const ANSWER_DELAY_MS = 2_000;

test('an authority reconnecting behind its peers produces nothing on its stale head while it syncs', async () => {
  // Three authorities, 300 ms slots: 0 and 1 run together; 2 is apart (no peer, so it produces nothing).
  const net = testNet(3, 300);
  const slow = await hostileLibp2p();
  try {
    const a = await net.start(0, []);
    await net.start(1, [0]);
    const late = await net.start(2, []);
    await waitFor(async () => (a.node.head().index >= 6 ? true : undefined), 20_000, 50);
    assert.equal(late.node.head().index, 0, 'alone, the late authority produced nothing');
    const produced: Block[] = [];
    const sub = late.node.events$.subscribe((e) => {
      if (e.type === 'block' && e.source === 'local') produced.push(e.block);
    });
    // The late authority's only peer relays node 0's chain, honestly but slowly (a loaded link).
    const protocols = syncProtocols(a.node.info.genesisBlock.hash);
    await slow.handle(protocols.status, async ({ stream }) => {
      const head = a.node.head();
      const status: PeerStatus = {
        genesisHash: a.node.info.genesisBlock.hash,
        height: head.index,
        headHash: head.hash,
        headTimestamp: head.timestamp,
        peers: [],
      };
      await stream.sink([encode(status)]);
    });
    await slow.handle(protocols.blocks, async ({ stream }) => {
      const req = decode(await readAll(stream, 1024), 1024) as { from: number; to: number };
      await new Promise((r) => setTimeout(r, ANSWER_DELAY_MS));
      const blocks = await a.node.readPorts().blocks.blocksIn(req.from, Math.min(req.to, a.node.head().index));
      await stream.sink([encode({ blocks })]).catch(() => undefined);
    });
    const target = a.node.head().index;
    await slow.dial(multiaddr(late.p2p!.addresses()[0]));
    // It reaches the height the network showed when it reconnected, by sync alone.
    await waitFor(async () => (late.node.head().index >= target ? true : undefined), 30_000, 50);
    sub.unsubscribe();
    const stale = produced.filter((b) => b.index <= target).map((b) => b.index);
    assert.deepEqual(stale, [], `no block built on the stale head below the network's ${target}`);
    const ours = await late.node.readPorts().blocks.blocksIn(1, target);
    const theirs = await a.node.readPorts().blocks.blocksIn(1, target);
    assert.deepEqual(
      ours.map((b) => b.hash),
      theirs.map((b) => b.hash),
      'it holds the network chain',
    );
  } finally {
    await slow.stop();
    await net.stop();
  }
});
