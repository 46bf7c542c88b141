import { multiaddr } from '@multiformats/multiaddr';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildBlock } from '../../../core/buildBlock.ts';
import { slotOf, slotOwner } from '../../../core/block.ts';
import { refOf } from '../../../node/node.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { converged, heightsReach, testNet } from '../../helpers/testnet.ts';
import { hostileLibp2p } from '../../helpers/hostilePeer.ts';
import type { Launched } from '../../../launch/launch.ts';

/** A plain gossipsub peer subscribed to `topic` on node `a`. */
async function joinAs(topic: string, a: Launched) {
  const peer = await hostileLibp2p(true);
  peer.services.pubsub.subscribe(topic);
  await peer.dial(multiaddr(a.p2p!.addresses()[0]));
  await waitFor(async () => (peer.services.pubsub.getSubscribers(topic).length > 0 ? true : undefined));
  return peer;
}

test('junk, oversized, wrong-proposer, future-slot, duplicate and equivocating blocks neither crash nor stall a node', async () => {
  const net = testNet(2, 1000);
  let evil: Awaited<ReturnType<typeof joinAs>> | null = null;
  try {
    const a = await net.start(0, []);
    await net.start(1, [0]);
    await heightsReach(net, 2);
    const id = a.node.info.genesisBlock.hash.slice(0, 16);
    const topic = `/ombra/${id}/block/1`;
    evil = await joinAs(topic, a);
    const peer = evil;
    const send = (v: unknown) =>
      peer.services.pubsub.publish(
        topic,
        typeof v === 'string' ? new TextEncoder().encode(v) : new TextEncoder().encode(JSON.stringify(v)),
      );
    const g = net.genesis;
    // Right after a new head, so the hostile blocks target the next height within this slot.
    const h0 = a.node.head().index;
    await waitFor(async () => (a.node.head().index > h0 ? true : undefined));
    const head = a.node.head();
    const slot = slotOf(head.timestamp, g.blockTimeMs) + 1;
    const owner = DEV_KEYS.findIndex((k) => k.address === slotOwner(g, slot));
    const intruder = DEV_KEYS[9];
    // Sealed by their slot's owner, so nothing the relaying peer is banned for: the rightful
    // owner ten slots in the future, two blocks for one slot (equivocation), a duplicate of the head.
    // The future block is built on the head of the moment it is sent (retried if the head moved first).
    const aheadOfClock = () => a.p2p!.rejected.some((r) => /ahead of the local clock/.test(r.reason));
    await waitFor(
      async () => {
        const now = a.node.head();
        const future = slotOf(now.timestamp, g.blockTimeMs) + 11;
        const key = DEV_KEYS[DEV_KEYS.findIndex((k) => k.address === slotOwner(g, future))];
        await send(buildBlock(a.node.state(), refOf(now), [], key, future * g.blockTimeMs, g).block);
        await new Promise((r) => setTimeout(r, 300));
        return aheadOfClock() ? true : undefined;
      },
      15_000,
      0,
    );
    await send(buildBlock(a.node.state(), refOf(head), [], DEV_KEYS[owner], slot * g.blockTimeMs + 1, g).block);
    await send(buildBlock(a.node.state(), refOf(head), [], DEV_KEYS[owner], slot * g.blockTimeMs + 2, g).block);
    await send(head);
    await waitFor(async () => (a.p2p!.rejected.some((r) => r.reason === 'equivocation') ? true : undefined));
    const syncer = (a.p2p as unknown as { syncer: { isBanned(p: unknown): boolean } }).syncer;
    assert.ok(!syncer.isBanned(peer.peerId), 'relaying sealed blocks is no ground for a ban');
    // Rejected messages cost their sender in gossipsub's peer score.
    const pubsub = (a.p2p as unknown as { p2p: { services: { pubsub: { getScore(id: string): number } } } }).p2p.services.pubsub;
    await waitFor(async () => (pubsub.getScore(peer.peerId.toString()) < 0 ? true : undefined));
    // A well-formed block signed by a key that is no authority: junk, its sender banned and hung up on.
    await send(buildBlock(a.node.state(), refOf(head), [], intruder, slot * g.blockTimeMs, g).block);
    await waitFor(async () => (syncer.isBanned(peer.peerId) ? true : undefined));
    // Unparseable junk from another peer: banned too.
    const junk = await joinAs(topic, a);
    await junk.services.pubsub.publish(topic, new TextEncoder().encode('{not json')).catch(() => undefined);
    await waitFor(async () => (syncer.isBanned(junk.peerId) ? true : undefined));
    await junk.stop();
    // Above the inbound frame limit gossipsub refuses the frame before buffering or parsing it.
    const big = await joinAs(topic, a);
    await big.services.pubsub.publish(topic, new Uint8Array(5 * 1024 * 1024).fill(0x78)).catch(() => undefined);
    await big.stop();
    await waitFor(async () => (a.p2p!.peers().some((p) => p.peerId === peer.peerId.toString()) ? undefined : true));
    const reasons: string = a.p2p!.rejected.map((r) => r.reason).join('\n');
    assert.match(reasons, /malformed/);
    assert.match(reasons, /belongs to/);
    const ev = (await (await fetch(`${a.url}/api/chain/evidence`)).json()) as { count: number; evidence: { proposer: string }[] };
    assert.ok(ev.count >= 1, 'the two blocks for one slot are recorded as evidence');
    assert.equal(ev.evidence[0].proposer, DEV_KEYS[owner].address);
    // The node keeps producing with its honest peer and they agree.
    const h = a.node.head().index;
    await heightsReach(net, h + 3);
    await converged(net);
    assert.equal(((await (await fetch(`${a.url}/api/health`)).json()) as { status: string }).status, 'ok');
  } finally {
    await evil?.stop();
    await net.stop();
  }
});
