/**
 * The sink's own Prometheus metrics (prom-client, names `ombra_sink_*`) and the small HTTP server
 * that answers GET /metrics on `--metrics-addr`.
 */
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { errorMessage } from '../core/errors.ts';

/** The metrics one sink keeps. */
export class SinkMetrics {
  readonly registry = new Registry();
  readonly height = new Gauge({
    name: 'ombra_sink_height',
    help: 'height of the last block committed to PostgreSQL',
    registers: [this.registry],
  });
  readonly nodeHeight = new Gauge({
    name: 'ombra_sink_node_height',
    help: "the node's head height as last seen",
    registers: [this.registry],
  });
  readonly lagBlocks = new Gauge({
    name: 'ombra_sink_lag_blocks',
    help: "blocks between the node's head and the mirror",
    registers: [this.registry],
  });
  readonly lagSeconds = new Gauge({
    name: 'ombra_sink_lag_seconds',
    help: 'seconds between now and the timestamp of the last committed block',
    registers: [this.registry],
  });
  readonly rows = new Counter({
    name: 'ombra_sink_rows_written_total',
    help: 'rows written, by table',
    labelNames: ['table'],
    registers: [this.registry],
  });
  readonly reorgs = new Counter({
    name: 'ombra_sink_reorgs_total',
    help: 'reorganisations undone in the database',
    registers: [this.registry],
  });
  readonly retries = new Counter({
    name: 'ombra_sink_retries_total',
    help: 'reconnects after a failure, by party',
    labelNames: ['party'],
    registers: [this.registry],
  });
  readonly stateHeight = new Gauge({
    name: 'ombra_sink_state_height',
    help: 'height of the folded state last saved to PostgreSQL (a restart folds the blocks after it)',
    registers: [this.registry],
  });
  readonly commitLag = new Histogram({
    name: 'ombra_sink_commit_lag_seconds',
    help: "from a block's SSE event to the commit of its rows",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
}

/** Serves GET /metrics of `metrics` on host:port; resolves with the bound address. */
export async function serveMetrics(metrics: SinkMetrics, host: string, port: number): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found","code":"NOT_FOUND"}');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (e: unknown) => res.writeHead(500).end(errorMessage(e)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the metrics server is not on a TCP port');
  return { server, port: address.port };
}
