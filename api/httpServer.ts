/**
 * The HTTP face as a component: the Hono app on @hono/node-server, with the WebSocket endpoints
 * (/api/ws, /ws) on the same server. `stop` lets the requests being answered finish (their reads
 * need the store the node closes after it), then ends open streams and connections, so shutdown
 * never waits on a client.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hono } from 'hono';
import { listenFault } from '../node/listenFault.ts';
import type { RateLimiter } from './rateLimit.ts';
import type { Component } from '../node/ports.ts';
import { dotSegmentAnswer, dotSegmentProblem } from './requestTarget.ts';
import type { StreamHub } from './streams/streamHub.ts';
import { attachWebSockets, type UpgradeGate, type WebSockets } from './streams/wsServer.ts';
import { capConnections, defaultServerLimits, serverOptionsOf, type ServerLimits } from './serverLimits.ts';

/** Where to listen, and the server's limits. */
export interface HttpServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  limits?: Partial<ServerLimits>;
  /** Asked before every WebSocket upgrade, which never reaches the app (api/checkpointGate.ts). */
  upgradeGate?: UpgradeGate;
  /** How long `stop` waits for the requests being answered (default DRAIN_MS). */
  drainMs?: number;
}

/**
 * How long a stop waits for answers under way: a read that outlived the node's store failed
 * with `Database is not open` (a two-hour soak, a store reopened after a full disk).
 */
const DRAIN_MS = 2000;

/** The API server. */
export class HttpServer implements Component {
  private readonly app: Hono;
  private readonly streams: StreamHub;
  private readonly limiter: RateLimiter | null;
  private readonly opts: HttpServerOptions;
  private server: ServerType | null = null;
  private sockets: WebSockets | null = null;
  /** The base URL once listening; kept after stop (alert links built while shutting down still name it). */
  private baseUrl: string | null = null;
  /** Answers the app is still making (a stream counts until its response starts, not while it runs). */
  private readonly answering = new Set<Promise<Response>>();

  constructor(app: Hono, streams: StreamHub, limiter: RateLimiter | null, opts: HttpServerOptions) {
    this.app = app;
    this.streams = streams;
    this.limiter = limiter;
    this.opts = opts;
  }

  /** The app, behind the raw-target check that URL parsing would otherwise erase (api/requestTarget.ts). */
  private readonly fetch = (req: Request, env: { incoming?: { url?: string } }): Response | Promise<Response> => {
    const problem = dotSegmentProblem(env.incoming?.url ?? '');
    if (problem) return dotSegmentAnswer(problem);
    const answer = this.app.fetch(req, env);
    if (!(answer instanceof Promise)) return answer;
    this.answering.add(answer);
    const done = () => this.answering.delete(answer);
    answer.then(done, done);
    return answer;
  };

  /** Listens and attaches the WebSocket endpoints. */
  async start(): Promise<void> {
    const limits = { ...defaultServerLimits, ...this.opts.limits };
    const server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve({ fetch: this.fetch, hostname: this.opts.host, port: this.opts.port, serverOptions: serverOptionsOf(limits) }, () =>
        resolve(s),
      );
      capConnections(s as Server, limits);
      s.once('error', (e: NodeJS.ErrnoException) =>
        reject(listenFault('the HTTP address', this.opts.host, this.opts.port, e.code, 'with --http-port (and --http-host)')),
      );
    });
    this.server = server;
    const port = (server.address() as AddressInfo).port;
    const host = this.opts.host;
    this.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    this.sockets = attachWebSockets(server as Server, this.streams, this.limiter, this.opts.upgradeGate);
  }

  /** The underlying Node server (after start). */
  get node(): ServerType {
    if (!this.server) throw new Error('the HTTP server is not started');
    return this.server;
  }

  /** The WebSocket endpoints (after start). */
  get webSockets(): WebSockets {
    if (!this.sockets) throw new Error('the HTTP server is not started');
    return this.sockets;
  }

  /** The base URL it serves on. */
  get url(): string {
    if (!this.baseUrl) throw new Error('the HTTP server is not started');
    return this.baseUrl;
  }

  /**
   * Closes WebSockets, stops taking connections, waits up to `drainMs` for the answers under way,
   * then closes every open connection.
   */
  async stop(): Promise<void> {
    await this.sockets?.close();
    const server = this.server as Server | null;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((r) => server.close(() => r()));
    server.closeIdleConnections();
    if (this.answering.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((r) => {
        timer = setTimeout(r, this.opts.drainMs ?? DRAIN_MS);
      });
      await Promise.race([Promise.allSettled([...this.answering]), deadline]);
      clearTimeout(timer);
    }
    // Open keep-alive and streaming connections must not hold shutdown hostage.
    server.closeAllConnections();
    await closed;
  }
}
