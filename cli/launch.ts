/** Wires a running node: log + projections, producer, HTTP API. Used by `start` and by tests. */
import { serve, type ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { noNetwork, type NetworkView } from '../api/context.ts';
import { createApp } from '../api/app.ts';
import { StreamHub } from '../api/streams/streamHub.ts';
import type { StreamOptions } from '../api/streams/streamOptions.ts';
import { attachWebSockets, type WebSockets } from '../api/streams/wsServer.ts';
import type { ForkHeights, Genesis } from '../core/genesis.ts';
import type { KeyPair } from '../core/keys.ts';
import { silentLogger, type Logger } from '../node/log.ts';
import { OmbraNode } from '../node/node.ts';
import { Producer } from '../node/producer.ts';
import { loadOrCreatePeerKey } from '../p2p/identity.ts';
import { P2pNetwork } from '../p2p/network.ts';
import type { P2pOptions } from '../p2p/options.ts';
import { ChainQueries } from '../queries/chainQueries.ts';
import { ApiKeyStore } from '../services/apiKeys.ts';
import { AlertService, type AlertOptions } from '../services/alerts.ts';
import { RateLimiter, type RateLimitOptions } from '../api/rateLimit.ts';
import { NodeMetrics } from '../api/metrics/nodeMetrics.ts';
import { observeLaunched } from '../api/metrics/observeNode.ts';

/** Everything `launch` needs. */
export interface LaunchConfig {
  dataDir: string;
  genesis?: Genesis;
  forkOverrides?: Partial<ForkHeights>;
  /** Producing key; the node produces only if it is an authority. */
  key?: KeyPair;
  dev: boolean;
  httpHost: string;
  /** 0 picks a free port. */
  httpPort: number;
  log?: Logger;
  network?: NetworkView;
  /** Join the p2p network with these options (a peer key is kept in the data dir). */
  p2p?: Partial<P2pOptions>;
  /** Live-stream options (SSE, WebSocket); defaults from api/streams/streamOptions.ts. */
  streams?: Partial<StreamOptions>;
  /** Rate limits; absent or null = off (the default under --dev). */
  rateLimits?: Partial<RateLimitOptions> | null;
  /** Alert options (mail relay, private targets, public URL for links). */
  alerts?: Partial<AlertOptions>;
  /** Progress of folding the log into the read models at startup: height, head. */
  onCatchUp?: (height: number, head: number) => void;
  /** Progress of a sync from peers more than one block behind: height, target. */
  onSyncProgress?: (height: number, target: number) => void;
}

/** A running node and how to stop it. */
export interface Launched {
  node: OmbraNode;
  queries: ChainQueries;
  producer: Producer | null;
  p2p: P2pNetwork | null;
  server: ServerType;
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
  stop(): Promise<void>;
}

/** The LevelDB directory inside a data dir. */
export function dbDirOf(dataDir: string): string {
  return join(dataDir, 'db');
}

/** Opens the node, starts production if it holds an authority key, and serves HTTP. */
export async function launch(cfg: LaunchConfig): Promise<Launched> {
  const log = cfg.log ?? silentLogger;
  const metrics = new NodeMetrics();
  const node = await OmbraNode.open({
    onBlockWork: metrics.blockWork,
    dbDir: dbDirOf(cfg.dataDir),
    genesis: cfg.genesis,
    forkOverrides: cfg.forkOverrides,
    log,
    onCatchUp: cfg.onCatchUp,
  });
  let p2p: P2pNetwork | null = null;
  if (cfg.p2p) {
    p2p = new P2pNetwork(node, await loadOrCreatePeerKey(cfg.dataDir), { ...cfg.p2p });
    if (cfg.onSyncProgress) p2p.onSyncProgress = cfg.onSyncProgress;
    try {
      await p2p.start();
    } catch (e) {
      await node.close();
      throw e;
    }
    log.info('p2p listening', { addresses: p2p.addresses().join(',') });
  }
  const network = cfg.network ?? p2p ?? noNetwork;
  const queries = new ChainQueries(node);
  let producer: Producer | null = null;
  if (cfg.key) {
    producer = new Producer(node, { key: cfg.key, exemptFromPeers: cfg.dev, peerCount: () => network.peerCount() });
    if (producer.isAuthority()) producer.start();
    else {
      log.warn('key is not a genesis authority: not producing', { address: cfg.key.address });
      producer = null;
    }
  }
  const keys = await new ApiKeyStore(node.store).load();
  // The operator's ban file lives in the data dir and is re-read when it changes.
  const limiter = cfg.rateLimits ? new RateLimiter(keys, { banFile: join(cfg.dataDir, 'banned-ips.txt'), ...cfg.rateLimits }) : null;
  const alerts = await AlertService.open(node.store, { height: () => node.head().index, block: (i) => node.store.block(i) }, node.events$, {
    log,
    ...cfg.alerts,
  });
  const streams = new StreamHub(node, cfg.streams);
  const app = createApp({ node, queries, network, keys, alerts, limiter: limiter ?? undefined, streams, metrics });
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: cfg.httpHost, port: cfg.httpPort }, () => resolve(s));
    s.once('error', reject);
  });
  // WebSocket upgrades of /api/ws and /ws are handled beside the Hono app on the same server.
  const sockets = attachWebSockets(server as Server, streams, limiter);
  const stopMetrics = observeLaunched(metrics, { node, network, streams, sockets, alerts });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${cfg.httpHost.includes(':') ? `[${cfg.httpHost}]` : cfg.httpHost}:${port}`;
  if (!cfg.alerts?.publicUrl) alerts.opts.publicUrl = url;
  log.info('node serving', { url, height: node.head().index, chainId: node.genesis.chainId });
  let stopping: Promise<void> | null = null;
  return {
    node,
    queries,
    producer,
    p2p,
    server,
    url,
    streams,
    sockets,
    keys,
    alerts,
    limiter,
    metrics,
    stop() {
      stopping ??= (async () => {
        stopMetrics();
        await producer?.stop();
        await p2p?.stop();
        await sockets.close();
        await new Promise<void>((r) => {
          server.close(() => r());
          // Open keep-alive and streaming connections must not hold shutdown hostage.
          (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        await alerts.close();
        await keys.close();
        limiter?.close();
        await node.close();
      })();
      return stopping;
    },
  };
}
