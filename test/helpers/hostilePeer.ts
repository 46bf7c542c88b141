/**
 * A hostile peer for tests against a node running as a child process: a plain libp2p peer with
 * no authority key (gossipsub optional), junk blocks of realistic size (megabytes of
 * transaction-like JSON under a header that hashes, links and carries a real signature by a key
 * that owns no slot), and what a test reads of the node: its resident memory from /proc and its
 * Prometheus samples over HTTP.
 */
import { readFileSync } from 'node:fs';
import { gossipsub, type GossipsubEvents } from '@chainsafe/libp2p-gossipsub';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { identify } from '@libp2p/identify';
import type { Libp2p, PubSub } from '@libp2p/interface';
import { tcp } from '@libp2p/tcp';
import { createLibp2p } from 'libp2p';
import { attest, blockHash, type Block } from '../../core/block.ts';
import { DEV_KEYS } from './testChain.ts';
import { errorMessage } from '../../core/errors.ts';

/** A plain libp2p peer on loopback; with `pubsub`, a gossipsub that sends anything it is given. */
export async function hostileLibp2p(pubsub = false): Promise<Libp2p<{ pubsub: PubSub<GossipsubEvents> }>> {
  return (await createLibp2p({
    addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: {
      identify: identify(),
      ...(pubsub ? { pubsub: gossipsub({ allowPublishToZeroTopicPeers: true, maxInboundDataLength: 8 * 1024 * 1024 }) } : {}),
    },
  })) as unknown as Libp2p<{ pubsub: PubSub<GossipsubEvents> }>;
}

/** The key junk is signed with: a funded dev account that owns no slot. */
const NOT_AN_AUTHORITY = DEV_KEYS[9];

/**
 * A junk block at `index` after `previousHash` carrying about `bytes` of transaction-like JSON:
 * its header hashes to its hash and is attested by a real signature, of a key that owns no slot.
 */
export function junkBlock(index: number, previousHash: string, bytes: number, seed = 0): Block {
  const filler = 'x'.repeat(1900);
  const transactions = Array.from({ length: Math.max(1, Math.floor(bytes / 2100)) }, (_, i) => ({
    type: 'TRANSFER',
    from: DEV_KEYS[1].address,
    to: DEV_KEYS[2].address,
    amount: String(i + 1),
    fee: '1000',
    nonce: i,
    timestamp: Date.now(),
    memo: `${seed}:${i}:${filler}`,
    hash: (seed + i).toString(16).padStart(64, '0'),
    signature: 'ab'.repeat(64),
    publicKey: 'cd'.repeat(32),
  }));
  const header = {
    index,
    previousHash,
    timestamp: Date.now(),
    proposer: NOT_AN_AUTHORITY.address,
    txRoot: '0'.repeat(64),
    stateRoot: (seed % 256).toString(16).padStart(64, '0'),
    tokensBurned: '0',
    tokensConsumed: '0',
  };
  const hash = blockHash(header);
  return {
    ...header,
    hash,
    transactions: transactions as unknown as Block['transactions'],
    attestations: [attest(hash, NOT_AN_AUTHORITY)],
  };
}

/** A process's resident memory now and at its peak (VmHWM), in MiB, from /proc. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** One sample of a node's GET /metrics (`labels` as written, '' for none); 0 when absent. */
export async function metricOf(url: string, name: string, labels = ''): Promise<number> {
  const text = await (await get(url, '/metrics')).text();
  const line = text.split('\n').find((l) => l.startsWith(labels ? `${name}{${labels}} ` : `${name} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

/**
 * GET `path` of a node. A pooled keep-alive socket the server closed as idle while the request
 * went out ("other side closed": a client-side race, frequent when a busy machine runs the
 * server's idle timer late) is retried once on a fresh connection.
 */
async function get(url: string, path: string): Promise<Response> {
  const res = await fetch(`${url}${path}`).catch(async (e: unknown) => {
    const why = e instanceof Error && e.cause !== undefined ? errorMessage(e.cause) : '';
    if (/other side closed|ECONNRESET/.test(why)) return fetch(`${url}${path}`);
    throw new Error(`GET ${path}: ${errorMessage(e)} (${why})`);
  });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return res;
}

/** GET `path` of a node as JSON. */
export async function getJson<T>(url: string, path: string): Promise<T> {
  return (await (await get(url, path)).json()) as T;
}
/** Answers the sync `status` protocol claiming a head at `height()` with a made-up hash. */
export async function claimHead(
  peer: Libp2p,
  protocol: string,
  genesisHash: string,
  height: () => number | Promise<number>,
): Promise<void> {
  await peer.handle(protocol, async ({ stream }) => {
    const claimed = await height();
    await stream.sink([
      new TextEncoder().encode(
        JSON.stringify({ genesisHash, height: claimed, headHash: 'ee'.repeat(32), headTimestamp: Date.now(), peers: [] }),
      ),
    ]);
  });
}
