/** What routes may use: the node's queries, write entry point and the network's view. */
import type { CompressionOptions } from './compression.ts';
import type { Logger } from '../node/log.ts';
import type { HeadReader, HealthView, NetworkView, TxSubmitter } from '../node/ports.ts';
import type { CheckpointStatus } from '../checkpoint/checkpointRecord.ts';
import type { CheckpointPublisher } from '../checkpoint/checkpointPublisher.ts';

/** Where the verification of the checkpoint a node started from stands. */
export interface CheckpointView {
  status(): CheckpointStatus;
  /** Why it is `mismatch` or `failed`. */
  reason(): string | undefined;
  /** Serve reads while `verifying` or `failed` (the operator's `--serve-unverified`); else they answer 503 CHECKPOINT_UNVERIFIED. */
  readonly serveUnverified: boolean;
}

export type { NetworkView };
import type { Queries } from '../queries/index.ts';
import type { StreamHub } from './streams/streamHub.ts';
import type { ApiKeyStore } from '../services/apiKeys.ts';
import type { AlertService } from '../services/alerts/alertService.ts';
import type { RateLimiter } from './rateLimit.ts';
import type { NodeMetrics } from './metrics/nodeMetrics.ts';

/** A network view for a node without p2p. */
export const noNetwork: NetworkView = {
  peerCount: () => 0,
  peers: () => [],
  peerId: () => null,
  addresses: () => [],
  syncing: () => false,
};

/** Dependencies of the API. */
export interface ApiDeps {
  /** The query objects every read route calls. */
  queries: Queries;
  /** The write entry point, the head for fork gates, and whether block work succeeds (health). */
  chain: TxSubmitter & Pick<HeadReader, 'genesis' | 'nextHeight'> & HealthView;
  network: NetworkView;
  /** The live-stream hub shared with the WebSocket server. */
  streams: StreamHub;
  /** API keys. */
  keys: ApiKeyStore;
  /** Alert subscriptions; /api/alerts is mounted only with it. */
  alerts?: AlertService;
  /** The rate limiter; absent = no limits (tests, --dev). */
  limiter?: RateLimiter;
  /** Prometheus metrics; GET /metrics and the HTTP timings exist only with it. */
  metrics?: NodeMetrics;
  /** The checkpoint this node started from, when it did (checkpoint/checkpointVerifier.ts): health reports it, a mismatch stops reads. */
  checkpoint?: CheckpointView;
  /** The checkpoint this node offers others (GET /api/checkpoint); without it they answer 404. */
  checkpoints?: CheckpointPublisher;
  log: Logger;
}

/** API options. */
export interface ApiOptions {
  /** Largest request body in bytes (413 PAYLOAD_TOO_LARGE above). */
  maxBodyBytes: number;
  /** Most bytes of block JSON one block-range answer carries (at least one block; `next` says where to go on). */
  maxRangeBytes: number;
  /** GET /metrics on this app (with metrics); a node off --dev serves it on its own listener instead. */
  metricsRoute: boolean;
  /** GET /api/health answers 503 "behind" while the head is more than this many blocks below the best head peers showed. */
  maxLagBlocks: number;
  /**
   * Submissions answer 503 NO_PEERS (the transaction not kept) while no peer would receive its
   * gossip: on for a network node, off under --dev (its one authority produces alone) and without p2p.
   */
  requirePeers: boolean;
  /** Answer compression (api/compression.ts); null = never compress. */
  compression: Partial<CompressionOptions> | null;
}

/**
 * True while the head at `height` is more than `maxLagBlocks` below the best head peers showed
 * (GET /api/health's "behind"; a submission's nonce may be known to the network and not here yet).
 */
export function isBehind(network: NetworkView, height: number, maxLagBlocks: number): boolean {
  const networkHeight = network.networkHeight?.() ?? null;
  return networkHeight !== null && networkHeight - height > maxLagBlocks;
}

/** Defaults: 1 MiB bodies; 16 MiB block ranges, the cap of a sync answer; /metrics on the app; behind beyond 8 blocks; compression on. */
export const defaultApiOptions: ApiOptions = {
  maxBodyBytes: 1024 * 1024,
  maxRangeBytes: 16 * 1024 * 1024,
  metricsRoute: true,
  maxLagBlocks: 8,
  requirePeers: false,
  compression: {},
};
