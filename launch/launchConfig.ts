/** What `launch` (launch/launch.ts) is given: the node's data dir, keys, listeners and every part's options. */
import type { NetworkView } from '../api/context.ts';
import type { ServerLimits } from '../api/serverLimits.ts';
import type { StreamOptions } from '../api/streams/streamOptions.ts';
import type { RateLimitOptions } from '../api/rateLimitOptions.ts';
import type { CheckpointVerifierOptions } from '../checkpoint/checkpointVerifier.ts';
import type { CheckpointPublisherOptions } from '../checkpoint/checkpointPublisher.ts';
import type { ForkHeights, Genesis } from '../core/genesis.ts';
import type { KeyPair } from '../core/keys.ts';
import type { Logger } from '../node/log.ts';
import type { MempoolOptions } from '../node/mempool/mempoolOptions.ts';
import type { P2pHooks } from '../p2p/network.ts';
import type { P2pOptions } from '../p2p/options.ts';
import type { AlertOptions } from '../services/alerts/alertService.ts';
import type { TierKeys } from '../services/tierKeys.ts';

/** Everything `launch` needs. */
export interface LaunchConfig {
  dataDir: string;
  genesis?: Genesis;
  forkOverrides?: Partial<ForkHeights>;
  /** Mempool limits and fee floors (defaults in node/mempool/mempoolOptions.ts). */
  mempool?: Partial<MempoolOptions>;
  /** Blocks back from the head whose hash chain is checked on open (node/store/logIntegrity.ts; Infinity = all). */
  verifyDepth?: number;
  /** Producing key; the node produces only if it is an authority. */
  key?: KeyPair;
  dev: boolean;
  httpHost: string;
  /** 0 picks a free port. */
  httpPort: number;
  /** GET /metrics on its own listener (`--metrics-addr`; port 0 picks one); absent: no listener. */
  metricsAddr?: { host: string; port: number };
  /** GET /metrics on the API port too (default true; `start` keeps it only under --dev or with --metrics-public). */
  metricsOnApi?: boolean;
  /** GET /api/health is 503 "behind" beyond this lag behind peers' best head (api/context.ts default). */
  maxLagBlocks?: number;
  log?: Logger;
  network?: NetworkView;
  /** Join the p2p network with these options (a peer key is kept in the data dir). */
  p2p?: Partial<P2pOptions>;
  /** Live-stream options (SSE, WebSocket); defaults from api/streams/streamOptions.ts. */
  streams?: Partial<StreamOptions>;
  /** Rate limits; absent or null = off (the default under --dev): then only the ban list applies. */
  rateLimits?: Partial<RateLimitOptions> | null;
  /** Alert options (mail relay, private targets, public URL for links). */
  alerts?: Partial<AlertOptions>;
  /** Keys valid across a read tier (`--api-key-secret-file`); absent: keys of this node only. */
  tierKeys?: TierKeys;
  /** HTTP server limits (timeouts, connection caps); defaults in api/serverLimits.ts. */
  httpLimits?: Partial<ServerLimits>;
  /** A node started from a checkpoint: serve reads while it is not verified (`--serve-unverified`; default false: 503 CHECKPOINT_UNVERIFIED). */
  serveUnverified?: boolean;
  /** Checkpoint verification options (how long it waits for history; checkpoint/checkpointVerifier.ts). */
  checkpointVerifier?: Partial<CheckpointVerifierOptions>;
  /** Checkpoint publisher options (when the node builds the one it offers; checkpoint/checkpointPublisher.ts). */
  checkpointPublisher?: Partial<CheckpointPublisherOptions>;
  /** Progress of folding the log into the read models at startup: height, head. */
  onCatchUp?: (height: number, head: number) => void;
  /** Progress of a sync from peers more than one block behind: height, target. */
  onSyncProgress?: P2pHooks['onSyncProgress'];
  /** A peer connected or disconnected. */
  onPeerChange?: P2pHooks['onPeerChange'];
}
