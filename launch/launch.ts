/** Wires a running node: log + projections, producer, HTTP API. Used by `start` and by tests. */
import { join } from 'node:path';
import { type CheckpointView, noNetwork } from '../api/context.ts';
import { createApp } from '../api/app.ts';
import { AdminServer } from '../api/adminServer.ts';
import { HttpServer } from '../api/httpServer.ts';
import { MetricsServer } from '../api/metricsServer.ts';
import { StreamHub } from '../api/streams/streamHub.ts';
import type { WebSockets } from '../api/streams/wsServer.ts';
import { silentLogger } from '../node/log.ts';
import { OmbraNode } from '../node/node.ts';
import { Producer } from '../node/writer/producer.ts';
import type { CheckpointVerifier } from '../checkpoint/checkpointVerifier.ts';
import { CheckpointPublisher } from '../checkpoint/checkpointPublisher.ts';
import { loadOrCreatePeerKey } from '../p2p/identity.ts';
import { P2pNetwork } from '../p2p/network.ts';
import { createQueries, type Queries } from '../queries/index.ts';
import { dbDirOf, loadOrCreateSecretsKey } from './dataDir.ts';
import { Lifecycle } from './lifecycle.ts';
import type { LaunchConfig } from './launchConfig.ts';
import { ApiKeyStore } from '../services/apiKeys.ts';
import { AlertService } from '../services/alerts/alertService.ts';
import { RateLimiter } from '../api/rateLimit.ts';
import { NodeMetrics } from '../api/metrics/nodeMetrics.ts';
import { observeDelivery, observeLaunched } from '../api/metrics/observeNode.ts';
import { signatureEquation } from '../core/signature.ts';
import { observeCheckpoint } from '../api/metrics/checkpointMetrics.ts';
import { checkpointVerifierOf } from './checkpointStart.ts';
import { checkpointRefusal } from '../api/checkpointGate.ts';

/** A running node and how to stop it. */
export interface Launched {
  node: OmbraNode;
  queries: Queries;
  producer: Producer | null;
  p2p: P2pNetwork | null;
  http: HttpServer;
  url: string;
  /** The live-stream hub (SSE and WebSocket subscribers). */
  streams: StreamHub;
  /** The WebSocket endpoints /api/ws and /ws. */
  sockets: WebSockets;
  keys: ApiKeyStore;
  alerts: AlertService;
  limiter: RateLimiter | null;
  /** Prometheus metrics (GET /metrics). */
  metrics: NodeMetrics;
  /** The background verification of the checkpoint the node started from, or null. */
  checkpoint: CheckpointVerifier | null;
  /** The metrics listener's base URL, or null without one. */
  metricsUrl: string | null;
  /** Stops every component in the reverse order of their start. */
  stop(): Promise<void>;
}

/** Opens the node, starts production if it holds an authority key, and serves HTTP. */
export async function launch(cfg: LaunchConfig): Promise<Launched> {
  const log = cfg.log ?? silentLogger;
  // Each component starts after the ones it uses; on any failure the started ones stop in reverse.
  const life = new Lifecycle(log);
  const metrics = new NodeMetrics();
  const node = await life.start(
    'node',
    await OmbraNode.open({
      start: false,
      dbDir: dbDirOf(cfg.dataDir),
      genesis: cfg.genesis,
      forkOverrides: cfg.forkOverrides,
      mempool: cfg.mempool,
      verifyDepth: cfg.verifyDepth,
      log,
      onCatchUp: cfg.onCatchUp,
      onBlockWork: metrics.blockWork,
    }),
  );
  // A data dir installed from a checkpoint verifies it in the background once peers can be asked.
  const verifier = await checkpointVerifierOf(
    node,
    cfg.dataDir,
    log,
    (from, to) => (p2p ? p2p.fetchHistory(from, to) : Promise.reject(new Error('no p2p network'))),
    cfg.checkpointVerifier,
  );
  // What the API sees of it: the gate and health refuse reads until it is verified, unless the operator chose otherwise.
  const checkpointView: CheckpointView | null = verifier && {
    status: () => verifier.status(),
    reason: () => verifier.reason(),
    serveUnverified: cfg.serveUnverified ?? false,
  };
  let p2p: P2pNetwork | null = null;
  if (cfg.p2p) {
    p2p = new P2pNetwork(
      node.networkPorts(),
      await loadOrCreatePeerKey(cfg.dataDir),
      { ...cfg.p2p },
      {
        onSyncProgress: cfg.onSyncProgress,
        onPeerChange: cfg.onPeerChange,
      },
    );
    await life.start('p2p', p2p);
  }
  if (p2p) log.info('p2p listening', { addresses: p2p.addresses().join(',') });
  if (verifier) await life.start('checkpoint verification', verifier);
  const network = cfg.network ?? p2p ?? noNetwork;
  let producer: Producer | null = null;
  if (cfg.key) {
    producer = new Producer(node, {
      key: cfg.key,
      exemptFromPeers: cfg.dev,
      peerCount: () => network.peerCount(),
      behind: () => network.behind?.() ?? false,
    });
    if (producer.isAuthority()) await life.start('producer', producer);
    else {
      log.warn('key is not a genesis authority: not producing', { address: cfg.key.address });
      producer = null;
    }
  }
  const keys = await life.start('keys', new ApiKeyStore(node.store, cfg.tierKeys ? { tierKeys: cfg.tierKeys } : {}));
  // The operator's ban file lives in the data dir and is re-read when it changes. Bans apply
  // whether limits are on or off: without limits the limiter only bans.
  const limiter = await life.start(
    'rate limiter',
    new RateLimiter(keys, { banFile: join(cfg.dataDir, 'banned-ips.txt'), ...(cfg.rateLimits ?? { enforceLimits: false }) }),
  );
  // Links in alerts point at the operator's public URL, else at the HTTP server once it listens;
  // attempts are counted by the metrics. Both are given here: nothing is set after start.
  let serving: HttpServer | null = null;
  const alerts = await life.start(
    'alerts',
    new AlertService(node.alertPorts(), {
      log,
      secretsKey: loadOrCreateSecretsKey(cfg.dataDir),
      ...cfg.alerts,
      serverUrl: () => serving?.url,
      onAttempt: (channel, ok, seconds) => observeDelivery(metrics, channel, ok, seconds),
    }),
  );
  const streams = new StreamHub(node.streamPorts(), cfg.streams);
  const queries = createQueries(node.readPorts());
  // The checkpoint this node offers others (GET /api/checkpoint), kept in DATA_DIR/checkpoints.
  // Built on the node's own schedule, only once its own state is proven (never by a request).
  const checkpoints = await life.start(
    'checkpoint publisher',
    new CheckpointPublisher(
      {
        store: node.store,
        consistentSnapshot: () => node.consistentSnapshot(),
        height: () => node.head().index,
        dir: join(cfg.dataDir, 'checkpoints'),
        verified: () => !verifier || verifier.status() === 'verified',
        log,
      },
      cfg.checkpointPublisher,
    ),
  );
  const app = createApp(
    {
      queries,
      chain: node,
      network,
      streams,
      keys,
      alerts,
      limiter,
      metrics,
      log,
      ...(checkpointView ? { checkpoint: checkpointView } : {}),
      checkpoints,
    },
    {
      metricsRoute: cfg.metricsOnApi ?? true,
      ...(cfg.maxLagBlocks === undefined ? {} : { maxLagBlocks: cfg.maxLagBlocks }),
      // A network node's 200 means a peer hears the transaction; a dev node's one authority produces alone.
      requirePeers: p2p !== null && !cfg.dev && cfg.network === undefined,
    },
  );
  const http = await life.start(
    'http',
    new HttpServer(app, streams, limiter, {
      host: cfg.httpHost,
      port: cfg.httpPort,
      limits: cfg.httpLimits,
      ...(checkpointView ? { upgradeGate: (path: string) => checkpointRefusal(checkpointView, path) } : {}),
    }),
  );
  serving = http;
  let stopMetrics = () => {};
  await life.start('metrics', {
    start: async () => {
      stopMetrics = observeLaunched(metrics, { node: node.metricsPorts(), network, streams, sockets: http.webSockets, alerts });
      if (verifier) observeCheckpoint(metrics, verifier);
    },
    stop: async () => stopMetrics(),
  });
  // The operator's admin socket (DATA_DIR/admin.sock): keys, peers and snapshots without a restart.
  await life.start(
    'admin socket',
    new AdminServer(
      { keys, store: node.store, genesis: node.genesis, network, log, consistentSnapshot: () => node.consistentSnapshot() },
      cfg.dataDir,
    ),
  );
  const metricsServer = cfg.metricsAddr ? await life.start('metrics listener', new MetricsServer(metrics, cfg.metricsAddr)) : null;
  const url = http.url;
  log.info('node serving', {
    url,
    ...(metricsServer ? { metrics: `${metricsServer.url}/metrics` } : {}),
    height: node.head().index,
    chainId: node.genesis.chainId,
    signatures: signatureEquation(),
  });
  return {
    node,
    queries,
    producer,
    p2p,
    http,
    url,
    streams,
    sockets: http.webSockets,
    keys,
    alerts,
    limiter,
    metrics,
    checkpoint: verifier,
    metricsUrl: metricsServer?.url ?? null,
    stop: () => life.stop(),
  };
}
