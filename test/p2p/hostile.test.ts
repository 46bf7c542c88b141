import { gossipsub, type GossipsubEvents } from '@chainsafe/libp2p-gossipsub';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { identify } from '@libp2p/identify';
import type { Libp2p, PubSub } from '@libp2p/interface';
import { tcp } from '@libp2p/tcp';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildBlock } from '../../core/applyBlock.ts';
import { slotOf, slotOwner } from '../../core/block.ts';
import { refOf } from '../../node/node.ts';
import { DEV_KEYS } from '../helpers/testChain.ts';
import { waitFor } from '../helpers/nodeProcess.ts';
import { converged, heightsReach, testNet } from '../helpers/testnet.ts';

const t = suite('hostile gossip');

t('junk, oversized, wrong-proposer, future-slot, duplicate and equivocating blocks neither crash nor stall a node', async () => {
  const net = testNet(2, 1000);
  const evil = (await createLibp2p({
    addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: { identify: identify(), pubsub: gossipsub({ allowPublishToZeroTopicPeers: true, maxInboundDataLength: 8 * 1024 * 1024 }) },
  })) as unknown as Libp2p<{ pubsub: PubSub<GossipsubEvents> }>;
  try {
    const a = await net.start(0, []);
    await net.start(1, [0]);
    await heightsReach(net, 2);
    const id = a.node.info.genesisBlock.hash.slice(0, 16);
    const topic = `/ombra/${id}/block/1`;
    evil.services.pubsub.subscribe(topic);
    await evil.dial(multiaddr(net.addr(0)));
    await waitFor(async () => (evil.services.pubsub.getSubscribers(topic).length > 0 ? true : undefined));
    const send = (v: unknown) =>
      evil.services.pubsub.publish(
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
    await send('{not json');
    // A well-formed block signed by a key that is no authority.
    await send(buildBlock(a.node.state(), refOf(head), [], intruder, slot * g.blockTimeMs, g).block);
    // The rightful owner, but ten slots in the future.
    const future = slot + 10;
    await send(
      buildBlock(
        a.node.state(),
        refOf(head),
        [],
        DEV_KEYS[DEV_KEYS.findIndex((k) => k.address === slotOwner(g, future))],
        future * g.blockTimeMs,
        g,
      ).block,
    );
    // Two blocks for one slot by its owner (equivocation), and a duplicate of the head.
    await send(buildBlock(a.node.state(), refOf(head), [], DEV_KEYS[owner], slot * g.blockTimeMs + 1, g).block);
    await send(buildBlock(a.node.state(), refOf(head), [], DEV_KEYS[owner], slot * g.blockTimeMs + 2, g).block);
    await send(head);
    await waitFor(async () => (a.p2p!.rejected.length >= 3 ? true : undefined));
    await waitFor(async () => (a.p2p!.rejected.some((r) => r.reason === 'equivocation') ? true : undefined));
    // Above the inbound limit gossipsub drops the message before any parsing.
    await send('x'.repeat(5 * 1024 * 1024)).catch(() => undefined);
    const reasons: string = a.p2p!.rejected.map((r) => r.reason).join('\n');
    assert.match(reasons, /malformed/);
    assert.match(reasons, /belongs to/);
    assert.match(reasons, /ahead of the local clock/);
    assert.match(reasons, /equivocation/);
    // Rejected messages cost their sender in gossipsub's peer score.
    const pubsub = (a.p2p as unknown as { p2p: { services: { pubsub: { getScore(id: string): number } } } }).p2p.services.pubsub;
    await waitFor(async () => (pubsub.getScore(evil.peerId.toString()) < 0 ? true : undefined));
    const ev = (await (await fetch(`${a.url}/api/chain/evidence`)).json()) as { count: number; evidence: { proposer: string }[] };
    assert.ok(ev.count >= 1, 'the two blocks for one slot are recorded as evidence');
    assert.is(ev.evidence[0].proposer, DEV_KEYS[owner].address);
    // The node keeps producing with its honest peer and they agree.
    const h = a.node.head().index;
    await heightsReach(net, h + 3);
    await converged(net);
    assert.is(((await (await fetch(`${a.url}/api/health`)).json()) as { status: string }).status, 'ok');
  } finally {
    await evil.stop();
    await net.stop();
  }
});

t.run();
