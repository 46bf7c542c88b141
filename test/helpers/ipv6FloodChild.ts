/**
 * The IPv6 /64 flood of test/system/p2p/ipv6Guard.test.ts, run in a network namespace of its own
 * (`unshare -rn`): its loopback gets the node's address and 60 more from one /64 (one host's
 * network), a node listens on the first, and 60 throwaway identities dial it, each from its own
 * address of that /64. Prints one JSON line: how many of them the node kept.
 */
import { execFileSync } from 'node:child_process';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { identify } from '@libp2p/identify';
import type { Libp2p } from '@libp2p/interface';
import { tcp } from '@libp2p/tcp';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import { testNet } from './testnet.ts';

const PREFIX = 'fd00:64:0:1::';
const STRANGERS = 60;

execFileSync('ip', ['link', 'set', 'lo', 'up']);
for (let i = 1; i <= STRANGERS + 1; i++) execFileSync('ip', ['-6', 'addr', 'add', `${PREFIX}${i.toString(16)}/128`, 'dev', 'lo', 'nodad']);

/** A libp2p peer whose connections leave from `localAddress`. */
function peerFrom(localAddress: string): Promise<Libp2p> {
  return createLibp2p({
    addresses: { listen: [`/ip6/${localAddress}/tcp/0`] },
    transports: [tcp({ dialOpts: { localAddress } as never })],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: { identify: identify() },
  });
}

const net = testNet(1, 400);
const peers: Libp2p[] = [];
try {
  const node = await net.start(0, [], { host: `${PREFIX}1` });
  const addr = net.addr(0);
  peers.push(...(await Promise.all(Array.from({ length: STRANGERS }, (_, i) => peerFrom(`${PREFIX}${(i + 2).toString(16)}`)))));
  // Each dials until it holds a connection or 6 s passed (libp2p limits inbound dials a second per host).
  const until = Date.now() + 6000;
  await Promise.all(
    peers.map(async (p) => {
      while (Date.now() < until && p.getConnections().length === 0) {
        await p.dial(multiaddr(addr), { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 250));
      }
    }),
  );
  const libp2p = (node.p2p as unknown as { p2p: Libp2p }).p2p;
  const kept = libp2p
    .getConnections()
    .filter((c) => c.status === 'open' && c.remoteAddr.toString().startsWith(`/ip6/${PREFIX.slice(0, -1)}`)).length;
  console.log(JSON.stringify({ strangers: STRANGERS, kept, refused: node.p2p!.guard.refused }));
} finally {
  await Promise.all(peers.map((p) => p.stop()));
  await net.stop();
}
