/**
 * The WebSocket endpoints on the HTTP server: `ws` in noServer mode on the server's 'upgrade'
 * event, routing /api/ws and /ws to their dialects, with a size limit on client messages and a
 * ping heartbeat that drops peers which stopped answering.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { ChainError, type ErrorCode } from '../../core/errors.ts';
import type { GateRefusal } from '../checkpointGate.ts';
import { upgradeIp } from '../clientIp.ts';
import type { RateLimiter } from '../rateLimit.ts';
import { limitHeaders } from '../rateLimitGate.ts';
import { STATUS } from '../errors.ts';
import type { StreamHub } from './streamHub.ts';
import { apiDialect, legacyDialect, type WsDialect } from './wsDialects.ts';
import { WsSession } from './wsSession.ts';

/** The attached WebSocket endpoints. */
export interface WebSockets {
  /** Open connections. */
  readonly sessions: Set<WsSession>;
  /** Drops every connection and stops the heartbeat. */
  close(): Promise<void>;
}

/** WebSocket paths and their protocols. */
const ROUTES: Record<string, WsDialect> = { '/api/ws': apiDialect, '/ws': legacyDialect };

/** Refuses an upgrade with a JSON `{error, code}` answer (and the limiter's headers, when it has some). */
function refuse(socket: Duplex, err: ChainError, headers: Record<string, string> = {}): void {
  refuseWith(socket, { status: STATUS[err.code], body: { error: err.message, code: err.code } }, headers);
}

function refuseWith(socket: Duplex, { status, body }: GateRefusal, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.end(
    `HTTP/1.1 ${status} ${body.code}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n${extra.join('')}Connection: close\r\n\r\n${text}`,
  );
}

/** Asked before every upgrade: a refusal for `path`, or null to serve it (api/checkpointGate.ts). */
export type UpgradeGate = (path: string) => GateRefusal | null;

/** Serves /api/ws and /ws on `server`. */
export function attachWebSockets(server: Server, hub: StreamHub, limiter?: RateLimiter | null, gate?: UpgradeGate): WebSockets {
  const o = hub.options;
  // Compression off: it costs CPU and memory per connection, and blocks are small.
  const wss = new WebSocketServer({ noServer: true, maxPayload: o.wsMaxPayload, perMessageDeflate: false });
  const sessions = new Set<WsSession>();
  // The limiter's X-RateLimit-* headers of an admitted upgrade, added to its 101 answer.
  const limits = new WeakMap<IncomingMessage, Record<string, string>>();
  wss.on('headers', (lines: string[], req: IncomingMessage) => {
    for (const [k, v] of Object.entries(limits.get(req) ?? {})) lines.push(`${k}: ${v}`);
  });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
    const dialect = ROUTES[path];
    if (!dialect) return refuse(socket, new ChainError('NOT_FOUND', `no WebSocket at ${path.slice(0, 100)}; use /api/ws or /ws`));
    const refused = gate?.(path);
    if (refused) return refuseWith(socket, refused);
    try {
      hub.checkCapacity();
    } catch (e) {
      return refuse(socket, e as ChainError);
    }
    // Upgrades bypass the Hono middleware, so they take their quota and stream slot here.
    let release: () => void = () => {};
    if (limiter) {
      const key = req.headers['x-api-key'];
      const d = limiter.admit(upgradeIp(req, limiter.proxies), Array.isArray(key) ? key[0] : key, path);
      if (!d.ok) return refuse(socket, new ChainError(d.code as ErrorCode, d.error), limitHeaders(limiter, d));
      limits.set(req, limitHeaders(limiter, d));
      release = d.release;
      socket.once('close', release);
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const session = new WsSession(ws, hub, dialect);
      sessions.add(session);
      ws.once('close', () => {
        sessions.delete(session);
        release();
      });
    });
  };
  server.on('upgrade', onUpgrade);
  const heartbeat = setInterval(() => {
    for (const s of sessions) {
      if (!s.alive) {
        s.ws.terminate();
        continue;
      }
      s.alive = false;
      s.ws.ping();
    }
  }, o.wsPingMs);
  heartbeat.unref();
  return {
    sessions,
    async close() {
      clearInterval(heartbeat);
      server.off('upgrade', onUpgrade);
      for (const s of sessions) s.ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
    },
  };
}
