/**
 * The metrics listener: GET /metrics on its own address (`--metrics-addr`, default
 * 127.0.0.1:9464), apart from the API port, so the node's internals are not public wherever the
 * API is. Anything else answers 404. A taken address is the operator's one-line error naming the
 * flag (ListenFault).
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import type { NodeMetrics } from './metrics/nodeMetrics.ts';
import { metricsRoutes } from './resources/operator/operatorRoutes.ts';
import { listenFault } from '../node/listenFault.ts';

export { ListenFault } from '../node/listenFault.ts';

/** `HOST:PORT` (IPv6 hosts in brackets) as host and port; throws naming the bad value. */
export function parseListenAddr(raw: string, flag: string): { host: string; port: number } {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):([0-9]{1,5})$/.exec(raw.trim());
  const port = m ? Number(m[3]) : -1;
  if (!m || port > 65535) throw new Error(`${flag} ${raw.slice(0, 80)} must be HOST:PORT ([IPv6]:PORT), port 0-65535`);
  return { host: m[1] ?? m[2], port };
}

/** GET /metrics on its own listener. */
export class MetricsServer {
  private readonly metrics: NodeMetrics;
  private readonly host: string;
  private readonly port: number;
  private server: ServerType | null = null;

  constructor(metrics: NodeMetrics, addr: { host: string; port: number }) {
    this.metrics = metrics;
    this.host = addr.host;
    this.port = addr.port;
  }

  /** Listens; a taken address rejects with a ListenFault naming --metrics-addr. */
  async start(): Promise<void> {
    const app = new Hono().route('/', metricsRoutes(this.metrics));
    app.notFound((c) => c.json({ error: 'this listener serves GET /metrics only', code: 'NOT_FOUND' }, 404));
    await new Promise<void>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, hostname: this.host, port: this.port }, () => {
        s.off('error', failed);
        resolve();
      });
      const failed = (e: NodeJS.ErrnoException) =>
        reject(listenFault('--metrics-addr', this.host, this.port, e.code, 'address with --metrics-addr HOST:PORT'));
      s.once('error', failed);
      this.server = s;
    });
  }

  /** The base URL it serves on (after start). */
  get url(): string {
    if (!this.server) throw new Error('the metrics listener is not started');
    const port = (this.server.address() as AddressInfo).port;
    return `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${port}`;
  }

  /** Closes the listener and its connections. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((r) => {
      server.close(() => r());
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
  }
}
