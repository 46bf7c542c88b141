/**
 * Identities that merely connected to an honest node do not become known to its followers: a
 * follower learns their addresses from the honest node's status (and dials them), but they stay
 * strangers at its connection guard (the per-IP and stranger caps hold for them). A peer becomes
 * known by serving blocks the follower checked and imported.
 */
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { identify } from '@libp2p/identify';
import type { Libp2p } from '@libp2p/interface';
import { tcp } from '@libp2p/tcp';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Launched } from '../../../launch/launch.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { heightsReach, testNet } from '../../helpers/testnet.ts';

const HOST = '127.0.0.2';
const IDENTITIES = 20;

/**
 * A throwaway identity dialling from HOST that announces a listen address nothing answers on (so
 * a follower that learns it cannot dial it: whatever it holds of these peers came in inbound).
 */
function throwaway(): Promise<Libp2p> {
  return createLibp2p({
    addresses: { listen: [`/ip4/${HOST}/tcp/0`], announce: [`/ip4/${HOST}/tcp/9`] },
    transports: [tcp({ dialOpts: { localAddress: HOST } as never })],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: { identify: identify() },
  });
}

/** Dials `addr` from every peer until each holds a connection or `ms` passed. */
async function dialAll(peers: Libp2p[], addr: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  await Promise.all(
    peers.map(async (p) => {
      while (Date.now() < until && !p.getConnections().some((c) => c.remoteAddr.toString() === addr.replace(/\/p2p\/.*$/, ''))) {
        await p.dial(multiaddr(addr), { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 250));
      }
    }),
  );
}

const book = (node: Launched) => (node.p2p as unknown as { book: { knows(id: string): boolean } }).book;
const openFrom = (node: Launched, ip: string) =>
  (node.p2p as unknown as { p2p: Libp2p }).p2p
    .getConnections()
    .filter((c) => c.status === 'open' && c.remoteAddr.toString().startsWith(`/ip4/${ip}/`)).length;

test('20 identities that connected to an honest node stay strangers at its follower: one IP holds 8 slots there', async () => {
  const net = testNet(2, 300, 1);
  const peers: Libp2p[] = [];
  try {
    // The honest node lets many peers in from one address (a bootstrap node behind a NAT, say).
    const honest = await net.start(0, [], { maxConnectionsPerIp: 64 });
    peers.push(...(await Promise.all(Array.from({ length: IDENTITIES }, throwaway))));
    await dialAll(peers, net.addr(0), 8000);
    const follower = await net.start(1, [0]);
    await heightsReach(net, 2);
    // The follower has read the honest node's status, which names the identities.
    await waitFor(async () => (follower.p2p!.knownPeerCount() > IDENTITIES ? true : undefined), 15_000);
    const known = peers.filter((p) => book(follower).knows(p.peerId.toString())).length;
    await dialAll(peers, net.addr(1), 8000);
    const held = openFrom(follower, HOST);
    console.log(`  ${IDENTITIES} identities named by the honest node: ${known} known to the follower, ${held} connected from one IP`);
    assert.equal(known, 0, 'named identities are not known');
    assert.ok(held > 0, 'the identities reached the follower');
    assert.ok(held <= 8, `one IP holds ${held} slots at the follower`);
    assert.ok(book(follower).knows(honest.p2p!.peerId()!), 'the operator-named peer is known');
  } finally {
    await Promise.all(peers.map((p) => p.stop()));
    await net.stop();
  }
});

test('a peer that served blocks the node checked and imported becomes known', async () => {
  const net = testNet(3, 300, 1);
  try {
    const authority = await net.start(0, []);
    await net.start(1, [0]);
    await heightsReach(net, 5);
    // No --peer: the authority dials the late follower, so it is a stranger until its blocks are imported.
    const follower = await net.start(2, []);
    const id = authority.p2p!.peerId()!;
    assert.ok(!book(follower).knows(id));
    authority.p2p!.connect(net.addr(2));
    await waitFor(async () => (follower.node.head().index >= 5 ? true : undefined), 20_000);
    await waitFor(async () => (book(follower).knows(id) ? true : undefined), 10_000);
  } finally {
    await net.stop();
  }
});
