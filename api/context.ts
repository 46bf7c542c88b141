/** What routes may use: the node's queries, write entry point and the network's view. */
import type { ChainQueries } from '../queries/chainQueries.ts';
import type { OmbraNode } from '../node/node.ts';
import type { StreamHub } from './streams/streamHub.ts';
import type { ApiKeyStore } from '../services/apiKeys.ts';
import type { AlertService } from '../services/alerts.ts';
import type { RateLimiter } from './rateLimit.ts';
import type { NodeMetrics } from './metrics/nodeMetrics.ts';

/** Network facts the API reports (p2p/ fills them in; a --dev node has no peers). */
export interface NetworkView {
  peerCount(): number;
  peers(): { peerId: string; addresses: string[] }[];
  peerId(): string | null;
  addresses(): string[];
  syncing(): boolean;
}

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
  node: OmbraNode;
  queries: ChainQueries;
  network: NetworkView;
  /** The live-stream hub shared with the WebSocket server (createApp makes one when absent). */
  streams?: StreamHub;
  /** API keys (created on the node's store when absent). */
  keys?: ApiKeyStore;
  /** Alert subscriptions; /api/alerts is mounted only with it. */
  alerts?: AlertService;
  /** The rate limiter; absent = no limits (tests, --dev). */
  limiter?: RateLimiter;
  /** Prometheus metrics; GET /metrics and the HTTP timings exist only with it. */
  metrics?: NodeMetrics;
}

/** API options. */
export interface ApiOptions {
  /** Largest request body in bytes (413 PAYLOAD_TOO_LARGE above). */
  maxBodyBytes: number;
}

/** Defaults: 1 MiB bodies. */
export const defaultApiOptions: ApiOptions = { maxBodyBytes: 1024 * 1024 };
