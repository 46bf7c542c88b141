/**
 * Throwaway libp2p identities from one host cannot take every connection slot: at most
 * `maxConnectionsPerIp` of them stay connected, an honest peer from another address still gets
 * in, and a known peer (in the peer book) gets in even when strangers from many hosts fill theirs.
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
import { testNet } from '../../helpers/testnet.ts';

/** A libp2p peer whose connections leave from `localAddress` (another loopback address: another host). */
async function peerFrom(localAddress: string): Promise<Libp2p> {
  return createLibp2p({
    addresses: { listen: [`/ip4/${localAddress}/tcp/0`] },
    transports: [tcp({ dialOpts: { localAddress } as never })],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: { identify: identify() },
  });
}

/** Dials `addr` from every peer, retrying refused dials for `ms` (libp2p limits inbound dials a second per host). */
async function flood(peers: Libp2p[], addr: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  await Promise.all(
    peers.map(async (p) => {
      while (Date.now() < until && p.getConnections().length === 0) {
        await p.dial(multiaddr(addr), { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 250));
      }
    }),
  );
}

/** The node's open connections. */
const connectionsOf = (node: Launched) =>
  (node.p2p as unknown as { p2p: { getConnections(): { remoteAddr: { toString(): string }; status: string }[] } }).p2p
    .getConnections()
    .filter((c) => c.status === 'open');

/** Open connections of `node` from remote IP `ip`. */
function inboundFrom(node: Launched, ip: string): number {
  return connectionsOf(node).filter((c) => c.remoteAddr.toString().startsWith(`/ip4/${ip}/`)).length;
}

const connected = (node: Launched, peer: Libp2p) => node.p2p!.peers().some((p) => p.peerId === peer.peerId.toString());

test('40 throwaway identities from five hosts: one host holds 3 slots, an honest peer and a known peer still connect', async () => {
  const net = testNet(1, 400);
  const peers: Libp2p[] = [];
  try {
    const honestKnown = await peerFrom('127.0.0.1');
    peers.push(honestKnown);
    // The known peer's address in the node's book (as if given with --peer); the node cannot dial
    // it there (nothing listens on that port), so the known peer's own dial is what gets it in.
    const a = await net.start(0, [], {
      peers: [`/ip4/127.0.0.1/tcp/9/p2p/${honestKnown.peerId}`],
      maxConnections: 12,
      maxConnectionsPerIp: 3,
      reservedKnownConnections: 4,
    });
    const addr = net.addr(0);
    const fromOneHost = await Promise.all(Array.from({ length: 20 }, () => peerFrom('127.0.0.2')));
    peers.push(...fromOneHost);
    await flood(fromOneHost, addr, 6000);
    const held = inboundFrom(a, '127.0.0.2');
    const honest = await peerFrom('127.0.0.1');
    peers.push(honest);
    await honest.dial(multiaddr(addr), { signal: AbortSignal.timeout(3000) }).catch(() => undefined);
    const honestIn = await waitFor(async () => (connected(a, honest) ? true : undefined), 2000).catch(() => false);
    console.log(`  20 throwaway identities from one host held ${held} of 12 slots; honest peer connected: ${honestIn}`);
    assert.ok(honestIn, `an honest peer connects while one host floods (the flood holds ${held} slots)`);
    assert.ok(held <= 3, `one host holds ${held} slots`);
    // Strangers from four more hosts fill every slot strangers may have (12 - 4 kept for known peers).
    const fromManyHosts = await Promise.all(Array.from({ length: 20 }, (_, i) => peerFrom(`127.0.0.${3 + (i % 4)}`)));
    peers.push(...fromManyHosts);
    await flood(fromManyHosts, addr, 6000);
    const strangers = a.p2p!.peers().length;
    assert.ok(strangers <= 8, `strangers hold ${strangers} slots`);
    await honestKnown.dial(multiaddr(addr), { signal: AbortSignal.timeout(3000) });
    await waitFor(async () => (connected(a, honestKnown) ? true : undefined), 3000);
    assert.ok(a.p2p!.guard.refused > 0, 'the guard refused strangers');
  } finally {
    await Promise.all(peers.map(async (p) => p.stop()));
    await net.stop();
  }
});
