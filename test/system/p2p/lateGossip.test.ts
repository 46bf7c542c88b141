/**
 * Gossip late through the node's own lag costs its honest sender nothing (p2p/lateGossip.ts): a
 * node that was away (paused, partitioned, restarted) syncs the blocks it missed, and its peers'
 * gossip of those blocks' transactions arrives after them. Each is excused once per peer; a
 * replayer still pays for the rest (test/system/p2p/staleGossip.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { multiaddr } from '@multiformats/multiaddr';
import type { Launched } from '../../../launch/launch.ts';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { signTx } from '../../../core/txCodec.ts';
import { LateGossip } from '../../../p2p/lateGossip.ts';
import { encode } from '../../../p2p/wire.ts';
import { hostileLibp2p } from '../../helpers/hostilePeer.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { converged, heightsReach, testNet } from '../../helpers/testnet.ts';

type Gossip = { getScore(id: string): number; getSubscribers(t: string): unknown[] };
const gossipOf = (x: Launched) => (x.p2p as unknown as { p2p: { services: { pubsub: Gossip } } }).p2p.services.pubsub;
/** Late messages the node excused (0 before p2p/lateGossip.ts existed). */
const excusedOf = (x: Launched) => (x.p2p as unknown as { validator: { late?: { excused: number } } }).validator.late?.excused ?? 0;

test('what the node learned just now is excused once per peer; what it learned earlier, or a second copy, is not', () => {
  const late = new LateGossip(1000);
  late.learn(['block-a', 'tx-1'], 0);
  assert.ok(late.excuse('p', 'tx-1', 500));
  assert.ok(!late.excuse('p', 'tx-1', 600), 'a second copy from the same peer');
  assert.ok(late.excuse('q', 'tx-1', 600), 'another peer sends it once too');
  assert.ok(!late.excuse('p', 'tx-2', 600), 'never learned here');
  assert.ok(!late.excuse('r', 'block-a', 1001), 'learned before the grace period');
  // Learned again (a reorganisation re-imports it): a fresh grace period.
  late.learn(['block-a'], 2000);
  assert.ok(late.excuse('r', 'block-a', 2500));
  assert.equal(late.excused, 3);
  // Bounded: the oldest keys go first.
  const small = new LateGossip(10_000, 2);
  small.learn(['x', 'y', 'z'], 0);
  assert.ok(!small.excuse('p', 'x', 1));
  assert.ok(small.excuse('p', 'z', 1));
});

test('300 transactions gossiped by an honest peer after the node synced their blocks: none rejected, the peer keeps its score', async () => {
  const net = testNet(3, 300, 2);
  const relay = await hostileLibp2p(true);
  try {
    const a = await net.start(0, []);
    await net.start(1, [0]);
    await heightsReach(net, 1);
    // 300 transfers from 7 senders (at most 64 pending each), mined while the follower is away.
    const txs: SignedTx[] = [];
    for (let k = 0; k < 300; k++) {
      const key = DEV_KEYS[3 + (k % 7)];
      const nonce = Math.floor(k / 7);
      const tx = signTx(
        { type: 'TRANSFER', from: key.address, to: DEV_KEYS[2].address, amount: '5', fee: '1000', nonce, timestamp: Date.now() },
        key,
      ) as SignedTx;
      await a.node.submitTx(tx);
      txs.push(tx);
    }
    await waitFor(async () => (a.node.mempool.size === 0 ? true : undefined), 60_000);
    await converged(net);
    // The follower comes back and syncs them.
    const f = await net.start(2, [0], { lateGossipGraceMs: 120_000 });
    await waitFor(async () => (f.node.head().index >= a.node.head().index ? true : undefined), 30_000);
    // The peer's gossip of them, sent while the follower was away, arrives now (the bytes every node publishes).
    const id = f.node.info.genesisBlock.hash.slice(0, 16);
    const topic = `/ombra/${id}/tx/1`;
    relay.services.pubsub.subscribe(topic);
    await relay.dial(multiaddr(net.addr(2)));
    await waitFor(async () => (relay.services.pubsub.getSubscribers(topic).length > 0 ? true : undefined));
    await waitFor(async () => (gossipOf(f).getSubscribers(topic).length > 0 ? true : undefined));
    const rejectedBefore = f.p2p!.guardStats().gossipRejected.tx;
    for (const tx of txs) await relay.services.pubsub.publish(topic, encode(tx)).catch(() => undefined);
    // Then a new transaction: the follower handles one peer's messages in order, so once it knows
    // this one it has judged all 300 before it.
    const sentinel = signTx(
      { type: 'TRANSFER', from: DEV_KEYS[1].address, to: DEV_KEYS[2].address, amount: '5', fee: '1000', nonce: 0, timestamp: Date.now() },
      DEV_KEYS[1],
    ) as SignedTx;
    await relay.services.pubsub.publish(topic, encode(sentinel));
    // (A rejection ends the wait early: the sentinel of a graylisted relay never arrives.)
    const rejections = () => f.p2p!.guardStats().gossipRejected.tx - rejectedBefore;
    await waitFor(async () => ((await f.queries.chain.txStatus(sentinel.hash)) || rejections() > 0 ? true : undefined), 60_000, 100);
    const stale = f.p2p!.stale.counts;
    const rejected = rejections();
    const score = gossipOf(f).getScore(relay.peerId.toString());
    console.log(
      `  300 late transactions: ${excusedOf(f)} excused, ${stale.allowed} within the stale budget, ${stale.charged} charged, ${stale.unread} rejected unread; ${rejected} rejected in all; the relay's score ${score.toFixed(0)}`,
    );
    assert.equal(rejected, 0, 'no late transaction rejected');
    assert.equal(stale.charged + stale.unread, 0, 'none charged to a stale-gossip budget');
    assert.ok(score >= 0, `the honest relay keeps a non-negative score (${score})`);
    assert.ok(excusedOf(f) >= 300, `each judged late (${excusedOf(f)} excused)`);
  } finally {
    await relay.stop();
    await net.stop();
  }
});
