/**
 * The node's Prometheus metrics (prom-client, text exposition at GET /metrics). Our own are
 * named `ombra_*` in base units (seconds, bytes) with `_total` counters; the default process
 * and Node.js metrics keep their standard `process_*` / `nodejs_*` names, which stock
 * dashboards expect. Gauges that mirror node state are read at scrape time (`collect`), so
 * nothing polls between scrapes; counters and histograms are fed by the event feed and by the
 * narrow callbacks below. The scrape-time readers are made by api/metrics/metricRegistry.ts.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram } from 'prom-client';
import { ChainError } from '../../core/errors.ts';
import { HttpSeries } from './httpSeries.ts';
import { MetricRegistry } from './metricRegistry.ts';

/** Histogram buckets (seconds) of block work: from a millisecond to ten seconds. */
const BLOCK_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Histogram buckets (seconds) of HTTP answers. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Histogram buckets (seconds) of webhook and e-mail attempts (the deadline is 5 s). */
const DELIVERY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Every metric of one node, on its own registry. */
export class NodeMetrics extends MetricRegistry {
  readonly height = this.gauge('ombra_chain_height', 'Height of the head block', (s) => s.head().index);
  readonly headAge = this.gauge('ombra_chain_head_age_seconds', "Seconds since the head block's timestamp", (s) =>
    Math.max(0, ((s.clock ?? Date.now)() - s.head().timestamp) / 1000),
  );
  readonly blocksProduced = this.counter('ombra_blocks_produced_total', 'Blocks this node produced and appended');
  readonly blocksImported = this.counter(
    'ombra_blocks_imported_total',
    'Blocks from peers validated and appended (reorganisations included)',
  );
  readonly blocksRejected = new Counter({
    name: 'ombra_blocks_rejected_total',
    help: 'Blocks from elsewhere that failed validation, by error code',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });
  readonly importSeconds = this.histogram(
    'ombra_block_import_duration_seconds',
    'Time to validate and append a block from a peer',
    BLOCK_BUCKETS,
  );
  readonly produceSeconds = this.histogram(
    'ombra_block_production_duration_seconds',
    'Time to build, sign and append a block',
    BLOCK_BUCKETS,
  );
  readonly txsAccepted = new Counter({
    name: 'ombra_transactions_accepted_total',
    help: 'Transactions admitted to the mempool, by origin (api or gossip)',
    labelNames: ['origin'] as const,
    registers: [this.registry],
  });
  readonly txsConfirmed = this.counter('ombra_transactions_confirmed_total', 'Transactions in appended blocks');
  readonly mempoolTxs = this.gauge('ombra_mempool_transactions', 'Transactions waiting in the mempool', (s) => s.pending().length);
  readonly mempoolBytes = this.gauge('ombra_mempool_bytes', 'Size of the pending transactions as JSON, in bytes', (s) => {
    let bytes = 0;
    for (const tx of s.pending()) bytes += Buffer.byteLength(JSON.stringify(tx));
    return bytes;
  });
  readonly peers = this.gauge('ombra_peers', 'Connected p2p peers', (s) => s.peerCount());
  readonly syncing = this.gauge('ombra_syncing', '1 while the node imports a better chain more than one block ahead, else 0', (s) =>
    s.syncing() ? 1 : 0,
  );
  readonly reorgs = this.counter('ombra_reorgs_total', 'Switches to a better branch');
  readonly readModelResets = this.following(
    'ombra_read_model_resets_total',
    'Read models reset to genesis to be rebuilt (one per projection; a fresh data dir counts each once)',
    (s) => s.readModelResets?.() ?? 0,
  );
  readonly storeMemory = this.gauge(
    'ombra_store_memory_bytes',
    "Bytes the store's LevelDB holds in memory: its memtables and block cache (leveldb.approximate-memory-usage)",
    (s) => s.storeMemory?.() ?? 0,
  );
  readonly peersBanned = this.gauge('ombra_peers_banned', 'Peers banned now for invalid blocks or sync protocol breaches', (s) =>
    s.guard ? s.guard().banned : 0,
  );
  readonly peerBans = this.following('ombra_peer_bans_total', 'Peers banned since start', (s) => s.guard?.().bans ?? 0);
  readonly gossipDropped = this.byTopic(
    'ombra_gossip_dropped_total',
    'Gossip messages dropped unread because the validations in flight were at their cap, by topic',
    (g) => g.gossipDropped,
  );
  readonly gossipRejected = this.byTopic(
    'ombra_gossip_rejected_total',
    'Gossip messages rejected as invalid (each costs its sender in the peer score), by topic',
    (g) => g.gossipRejected,
  );
  readonly reorgDepth = this.histogram(
    'ombra_reorg_depth_blocks',
    'Blocks abandoned by a reorganisation',
    [1, 2, 4, 8, 16, 32, 64, 128, 256, 1024],
  );
  /** HTTP answers: counted by method, route template and status, timed by method and route template. */
  readonly http = new HttpSeries(
    this.registry,
    { requests: 'ombra_http_requests_total', seconds: 'ombra_http_request_duration_seconds' },
    {
      requests: 'HTTP requests answered, by method, route template and status',
      seconds: 'Time to answer an HTTP request (to the first byte of a stream), by method and route template',
    },
    HTTP_BUCKETS,
  );
  readonly subscribers = new Gauge({
    name: 'ombra_stream_subscribers',
    help: 'Live subscribers attached to the event feed, by kind (sse or ws)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
    collect: () => {
      const s = this.src?.subscribers?.() ?? { total: 0, ws: 0 };
      this.subscribers.set({ kind: 'ws' }, s.ws);
      this.subscribers.set({ kind: 'sse' }, Math.max(0, s.total - s.ws));
    },
  });
  readonly outbox = this.gauge('ombra_alert_outbox_deliveries', 'Alert deliveries waiting in the durable outbox', (s) => s.outbox?.() ?? 0);
  readonly deliveries = new Counter({
    name: 'ombra_alert_delivery_attempts_total',
    help: 'Alert delivery attempts, by channel and result (success or failure)',
    labelNames: ['channel', 'result'] as const,
    registers: [this.registry],
  });
  readonly deliverySeconds = new Histogram({
    name: 'ombra_alert_delivery_duration_seconds',
    help: 'Time of one alert delivery attempt (a webhook POST or an e-mail), by channel',
    labelNames: ['channel'] as const,
    buckets: DELIVERY_BUCKETS,
    registers: [this.registry],
  });
  /** 1, labelled with the Ed25519 implementation: the fallback verifies ~1.7x fewer signatures a core. */
  readonly verifier = new Gauge({
    name: 'ombra_signature_verifier_info',
    help: 'The implementation that checks Ed25519 signatures (always 1; see the label)',
    labelNames: ['implementation'] as const,
    registers: [this.registry],
    collect: () => {
      const name = this.src?.signatureVerifier?.();
      if (name) this.verifier.set({ implementation: name }, 1);
    },
  });
  readonly projectionLag = new Gauge({
    name: 'ombra_projection_lag_blocks',
    help: 'Blocks between the head and what each read model has folded',
    labelNames: ['projection'] as const,
    registers: [this.registry],
    collect: () => {
      if (!this.src) return;
      const head = this.src.head().index;
      for (const [name, h] of Object.entries(this.src.projectionHeights?.() ?? {}))
        this.projectionLag.set({ projection: name }, Math.max(0, head - h));
    },
  });

  constructor(opts: { processMetrics?: boolean } = {}) {
    super();
    if (opts.processMetrics !== false) {
      collectDefaultMetrics({ register: this.registry });
      // prom-client's nodejs_active_*_total are gauges, which the exposition rules (promtool) refuse
      // to name `_total`; the per-type nodejs_active_* gauges carry the same numbers.
      for (const metric of this.registry.getMetricsAsArray())
        if (metric.name.startsWith('nodejs_') && metric.name.endsWith('_total') && !(metric instanceof Counter))
          this.registry.removeSingleMetric(metric.name);
    }
  }

  /** The node's block-work callback: a timing per import or production, and rejections. */
  readonly blockWork = (kind: 'import' | 'produce', seconds: number, error?: unknown): void => {
    if (error !== undefined) {
      if (kind === 'import') this.blocksRejected.inc({ code: error instanceof ChainError ? error.code : 'INTERNAL' });
      return;
    }
    (kind === 'import' ? this.importSeconds : this.produceSeconds).observe(seconds);
  };

  /** Counts and times one answered request by its route template (not the raw path): api/envelope.ts calls it. */
  observeHttp(method: string, route: string, status: number, seconds: number): void {
    this.http.observe(method, route, status, seconds);
  }

  /** The exposition text and its content type. */
  async exposition(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
