/**
 * Re-gossip of genuine old transactions and blocks costs the sender: identical bytes are
 * duplicates gossipsub drops before validation (content message ids), and replays in fresh bytes
 * beyond a small budget are rejected like invalid gossip until the sender is graylisted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { multiaddr } from '@multiformats/multiaddr';
import type { Launched } from '../../../launch/launch.ts';
import { signTx } from '../../../core/txCodec.ts';
import { StaleGossipBudget } from '../../../p2p/staleGossip.ts';
import { encode } from '../../../p2p/wire.ts';
import { hostileLibp2p } from '../../helpers/hostilePeer.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { heightsReach, testNet } from '../../helpers/testnet.ts';

type Peer = Awaited<ReturnType<typeof hostileLibp2p>>;
type Gossip = { getScore(id: string): number; subscribe(t: string): void; getSubscribers(t: string): unknown[] };
const gossipOf = (x: Launched) => (x.p2p as unknown as { p2p: { services: { pubsub: Gossip } } }).p2p.services.pubsub;

/** The same JSON text with `n` leading spaces: the same message to a JSON reader, other bytes on the wire. */
const variant = (json: string, n: number) => new TextEncoder().encode(' '.repeat(n) + json);

/** Joins `topic` and connects to the node. */
async function join(peer: Peer, node: Launched, topic: string, addr: string): Promise<void> {
  peer.services.pubsub.subscribe(topic);
  await peer.dial(multiaddr(addr));
  await waitFor(async () => (peer.services.pubsub.getSubscribers(topic).length > 0 ? true : undefined));
  await waitFor(async () => (gossipOf(node).getSubscribers(topic).length > 0 ? true : undefined));
}

test('the budget: a burst of a minute of allowance, then spent; new messages delivered earn it back', () => {
  const budget = new StaleGossipBudget(3);
  for (let i = 0; i < 3; i++) assert.ok(budget.allow('p', 0));
  assert.ok(!budget.allow('p', 0));
  assert.ok(budget.spent('p', 0));
  assert.ok(!budget.spent('q', 0), 'another peer has its own');
  budget.earn('p', 0);
  assert.ok(!budget.spent('p', 0));
  assert.ok(budget.allow('p', 0));
  // The allowance refills at its rate: 3 a minute, one each 20 s.
  assert.ok(budget.spent('p', 19_000));
  assert.ok(!budget.spent('p', 20_001));
});

test('2,000 replays of an included transaction and 200 of an old block: the same data again bans, fresh bytes graylist, the budget spent first', async () => {
  const net = testNet(1, 300);
  const [txReplayer, blockReplayer] = await Promise.all([hostileLibp2p(true), hostileLibp2p(true)]);
  try {
    const a = await net.start(0, [], { staleGossipPerMinute: 20 });
    const id = a.node.info.genesisBlock.hash.slice(0, 16);
    const topics = { block: `/ombra/${id}/block/1`, tx: `/ombra/${id}/tx/1` };
    await join(txReplayer, a, topics.tx, net.addr(0));
    await join(blockReplayer, a, topics.block, net.addr(0));
    const tx = signTx(
      { type: 'TRANSFER', from: DEV_KEYS[1].address, to: DEV_KEYS[2].address, amount: '7', fee: '1000', nonce: 0, timestamp: Date.now() },
      DEV_KEYS[1],
    );
    await a.node.submitTx(tx);
    await waitFor(async () => ((await a.queries.chain.account(DEV_KEYS[1].address)).nonce === 1 ? true : undefined), 10_000);
    await heightsReach(net, 2);
    const old = await a.node.readPorts().blocks.block(1);
    const txJson = JSON.stringify(tx);
    const blockJson = JSON.stringify(old);
    const sends: Promise<unknown>[] = [];
    // The same data again and again (signed anew each time): one validation, the rest are
    // duplicates of it, and a peer that sends one message more than a few times is banned.
    for (let i = 0; i < 1000; i++) sends.push(txReplayer.services.pubsub.publish(topics.tx, encode(tx)));
    // Fresh bytes each time: each reaches the validator until the sender is graylisted.
    for (let i = 0; i < 1000; i++) sends.push(txReplayer.services.pubsub.publish(topics.tx, variant(txJson, i + 1)));
    for (let i = 0; i < 200; i++) sends.push(blockReplayer.services.pubsub.publish(topics.block, variant(blockJson, i + 1)));
    await Promise.all(sends.map((p) => p.catch(() => undefined)));
    const gossip = gossipOf(a);
    const syncer = (a.p2p as unknown as { syncer: { isBanned(p: unknown): boolean } }).syncer;
    const graylisted = async () => syncer.isBanned(txReplayer.peerId) && gossip.getScore(blockReplayer.peerId.toString()) < -400;
    const ok = await waitFor(async () => ((await graylisted()) ? true : undefined), 10_000).catch(() => false);
    const stale = a.p2p!.stale.counts;
    console.log(
      `  scores: tx replayer ${gossip.getScore(txReplayer.peerId.toString()).toFixed(0)}, block replayer ${gossip
        .getScore(blockReplayer.peerId.toString())
        .toFixed(0)}; stale messages validated: ${stale.allowed} within budget, ${stale.charged} charged; ${stale.unread} rejected unread`,
    );
    assert.ok(ok, 'the same-data replayer is banned, the fresh-bytes one falls below the graylist threshold (-400)');
    // 20 a peer within budget (and what refilled meanwhile), one charged; then rejected unread
    // until gossipsub recomputes the score and drops the peer's frames before reading them.
    assert.ok(stale.allowed <= 2 * 22, `${stale.allowed} stale messages free`);
    assert.ok(stale.charged <= 2 * 2, `${stale.charged} stale messages validated beyond the budget`);
    assert.ok(a.node.head().index >= 2);
  } finally {
    await Promise.all([txReplayer.stop(), blockReplayer.stop()]);
    await net.stop();
  }
});
