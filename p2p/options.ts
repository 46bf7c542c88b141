/** Network options and their defaults. */

import { SEALED_HEAD_TTL_MS } from './peerHeads.ts';

/** How the p2p layer listens, dials and bounds what it accepts. */
export interface P2pOptions {
  host: string;
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Multiaddrs to dial (with /p2p/<peerId>), redialled when they drop. */
  peers: string[];
  /**
   * Addresses announced to peers (identify) instead of the listen address, for a node behind NAT
   * or a proxy; empty announces the listen address.
   */
  announce: string[];
  /** Largest gossiped block (bytes); larger messages are rejected before parsing. */
  maxBlockBytes: number;
  /** Largest gossiped transaction (bytes). */
  maxTxBytes: number;
  /** Bytes of gossip queued to one peer before more gossip to it is dropped. */
  maxOutboundGossipBytes: number;
  /** Gossiped blocks validated at once, across peers; more are dropped (sync brings them). */
  maxBlockValidations: number;
  /** Gossiped transactions validated at once, across peers; more are dropped. */
  maxTxValidations: number;
  /** Open connections at most (libp2p's connection manager prunes beyond). */
  maxConnections: number;
  /** Most blocks per sync request (the protocol's bound). */
  syncBatch: number;
  /** Largest sync response (bytes): servers answer a prefix of a range to stay under it, askers accept up to it plus one block. */
  maxSyncResponseBytes: number;
  /** A sync request's deadline for the start of its answer (and the dial before it). */
  syncRequestTimeoutMs: number;
  /** Beyond that deadline an answer must keep coming at this rate: each byte buys this much more time. */
  syncMinBytesPerSecond: number;
  /** A peer struck (a missed deadline, a refused range below the head it claimed) is not asked to sync for this long. */
  syncStrikeCooldownMs: number;
  /**
   * How long a block sealed by its slot's authority that a peer gossiped counts as the network's
   * height for readiness after that peer last showed it (p2p/peerHeads.ts).
   */
  sealedHeadTtlMs: number;
  /** Strikes within the ban time (p2p/banList.ts) that get a peer banned. */
  maxSyncStrikes: number;
  /** Open connections from one remote IP at most, unless the peer is a known one (peer book). */
  maxConnectionsPerIp: number;
  /** Connections kept for known peers (`--peer`, and peers whose blocks this node imported): strangers get maxConnections minus these. */
  reservedKnownConnections: number;
  /** Stale gossip (a transaction or block already known) each peer may send a minute before more costs it score like invalid gossip. */
  staleGossipPerMinute: number;
  /** Stale gossip of a block or transaction the node learned less than this long ago is excused once per peer (p2p/lateGossip.ts). */
  lateGossipGraceMs: number;
  /** How often peers are asked for their head. */
  syncIntervalMs: number;
  /** How long gossipsub remembers a message id: the same bytes again are dropped as a duplicate, and not published again, until then. */
  gossipSeenTtlMs: number;
  /** How often pending transactions are looked at for announcing again (p2p/txAnnouncer.ts). */
  reannounceIntervalMs: number;
  /** Block times a transaction stays pending here before it is published again (at most once per gossipsub's seen-cache TTL). */
  reannounceAfterBlocks: number;
  /** Transactions published again per round at most, oldest first (kept well inside peers' stale-gossip budget). */
  reannouncePerRound: number;
  /** Never-published transactions (restored after a restart, or taken while no peer listened) published per round at most. */
  announceBacklogPerRound: number;
  /** How often dropped peers are dialled again. */
  redialIntervalMs: number;
  /** Discover peers on the local network with mDNS (off unless asked: tests build partitions from peer lists). */
  mdns: boolean;
  /**
   * A block hash (64 hex) whose synced ancestors are imported without their signatures checked
   * (`--assume-valid`, p2p/chainFetcher.ts); null checks every signature.
   */
  assumeValid: string | null;
}

/** Defaults. */
export const defaultP2pOptions: P2pOptions = {
  host: '127.0.0.1',
  port: 7778,
  peers: [],
  announce: [],
  maxBlockBytes: 4 * 1024 * 1024,
  maxTxBytes: 1024 * 1024 + 4096,
  maxOutboundGossipBytes: 16 * 1024 * 1024,
  maxBlockValidations: 4,
  maxTxValidations: 64,
  maxConnections: 64,
  syncBatch: 500,
  maxSyncResponseBytes: 16 * 1024 * 1024,
  syncRequestTimeoutMs: 10_000,
  syncMinBytesPerSecond: 256 * 1024,
  syncStrikeCooldownMs: 10_000,
  maxSyncStrikes: 3,
  sealedHeadTtlMs: SEALED_HEAD_TTL_MS,
  maxConnectionsPerIp: 8,
  reservedKnownConnections: 16,
  staleGossipPerMinute: 60,
  lateGossipGraceMs: 30_000,
  syncIntervalMs: 1000,
  gossipSeenTtlMs: 120_000,
  reannounceIntervalMs: 10_000,
  reannounceAfterBlocks: 3,
  reannouncePerRound: 4,
  announceBacklogPerRound: 256,
  redialIntervalMs: 2000,
  mdns: false,
  assumeValid: null,
};
