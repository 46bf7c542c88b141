/**
 * The node's libp2p: TCP with noise and yamux, mDNS when enabled, identify, and gossipsub with
 * the bounded queues and peer scoring of p2p/gossipConfig.ts. An address it cannot listen on
 * becomes the operator's one-line ListenFault naming --p2p-port (libp2p's own error is a
 * multi-line stack inside its message).
 */
import { type GossipSub, gossipsub } from '@chainsafe/libp2p-gossipsub';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { identify } from '@libp2p/identify';
import type { ConnectionGater, Libp2p, PrivateKey } from '@libp2p/interface';
import { mdns } from '@libp2p/mdns';
import { tcp } from '@libp2p/tcp';
import { createLibp2p } from 'libp2p';
import { isIP } from 'node:net';
import { listenFault } from '../node/listenFault.ts';
import { gossipOptions } from './gossipConfig.ts';
import type { P2pOptions } from './options.ts';
import { errorMessage } from '../core/errors.ts';

/** A started libp2p node with gossipsub as its pubsub service. */
export type OmbraLibp2p = Libp2p<{ pubsub: GossipSub }>;

/** Creates and starts the node's libp2p on `opts.host:opts.port`, with `topics` scored by gossipsub. */
export async function startLibp2p(
  key: PrivateKey,
  opts: P2pOptions,
  topics: { block: string; tx: string },
  gater: ConnectionGater,
): Promise<OmbraLibp2p> {
  const config: Parameters<typeof createLibp2p>[0] = {
    privateKey: key,
    // Announced addresses replace the listen address in what identify tells peers (NAT, proxies).
    addresses: {
      listen: [`/${isIP(opts.host) === 6 ? 'ip6' : 'ip4'}/${opts.host}/tcp/${opts.port}`],
      ...(opts.announce.length ? { announce: opts.announce } : {}),
    },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    // Data frames of up to 1 MiB instead of 64 KiB: the receiver answers every frame it reads
    // with a window update (a write of its own), so a sync answer of hundreds of KB costs a
    // handful of frames and updates instead of one per 64 KiB. Frames stay bounded by the
    // receiver's window, as yamux requires; peers with the default read them the same way.
    streamMuxers: [yamux({ maxMessageSize: 1024 * 1024 })],
    peerDiscovery: opts.mdns ? [mdns()] : [],
    services: {
      identify: identify(),
      // Bounded queues and peer scoring (p2p/gossipConfig.ts).
      pubsub: gossipsub(gossipOptions(topics, opts)),
    },
    connectionManager: { maxConnections: opts.maxConnections },
    connectionGater: gater,
  };
  try {
    return (await createLibp2p(config)) as OmbraLibp2p;
  } catch (e) {
    const code = /\b(E[A-Z]{4,})\b/.exec(errorMessage(e))?.[1];
    if (!(e instanceof Error && e.name === 'UnsupportedListenAddressesError') && !code?.startsWith('EADDR')) throw e;
    throw listenFault('the p2p address', opts.host, opts.port, code, 'with --p2p-port (and --p2p-host)');
  }
}
