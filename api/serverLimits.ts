/**
 * Limits of the public HTTP server: how long a client may take to send its headers and its whole
 * request, how long an idle keep-alive connection stays open, how many connections the server
 * holds, and how many one IP may hold. Applied to the Node server before it listens.
 */
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { CidrSet, quotaBucketOf } from '../node/cidr.ts';
import { normalizeIp } from './clientIp.ts';

/** Server limits (flags in cli/start/start.ts; every one has a default). */
export interface ServerLimits {
  /** A client must send its complete headers within this time (slowloris), ms. */
  headersTimeoutMs: number;
  /** A client must send its complete request (headers and body) within this time, ms. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long, ms. */
  keepAliveTimeoutMs: number;
  /**
   * A connection on which nothing moves either way for this long is closed, ms (0: never): it
   * catches a client that stops reading a response. Above the SSE heartbeat (2 s), so live event
   * streams stay open; WebSockets leave the HTTP server on upgrade and keep their own pings.
   */
  idleTimeoutMs: number;
  /** Most open connections in all. */
  maxConnections: number;
  /**
   * Most open connections from one IP address (0: no per-IP cap). Loopback is exempt: a reverse
   * proxy on the same host, and local tools, speak for many clients.
   */
  maxConnectionsPerIp: number;
  /** Addresses (CIDRs) the per-IP cap does not apply to: the trusted reverse proxies, which speak for many clients. */
  exemptFromPerIp: string[];
}

/** Defaults for a node on the public internet. */
export const defaultServerLimits: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnections: 20_000,
  maxConnectionsPerIp: 256,
  exemptFromPerIp: [],
};

/** The Node server options that carry the time limits (given when the server is created). */
export function serverOptionsOf(limits: ServerLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node checks header and request deadlines on this period: a fraction of the shortest one.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4))),
  };
}

/**
 * Caps the server's connections, in all and per IP (connections over a cap are closed at once),
 * and sets the idle socket timeout.
 */
export function capConnections(server: Server, limits: ServerLimits): void {
  // Node destroys a socket idle this long when no 'timeout' listener is on the server.
  server.timeout = limits.idleTimeoutMs;
  server.maxConnections = limits.maxConnections;
  if (limits.maxConnectionsPerIp <= 0) return;
  const perIp = new Map<string, number>();
  const exempt = limits.exemptFromPerIp.length ? new CidrSet(limits.exemptFromPerIp) : null;
  server.on('connection', (socket: Socket) => {
    const addr = normalizeIp(socket.remoteAddress ?? 'unknown');
    if (addr === '127.0.0.1' || addr === '::1' || exempt?.has(addr)) return;
    // Per IPv4 address or IPv6 /64, as every per-IP quota.
    const ip = quotaBucketOf(addr);
    const n = (perIp.get(ip) ?? 0) + 1;
    if (n > limits.maxConnectionsPerIp) {
      socket.destroy();
      return;
    }
    perIp.set(ip, n);
    socket.once('close', () => {
      const left = (perIp.get(ip) ?? 1) - 1;
      if (left <= 0) perIp.delete(ip);
      else perIp.set(ip, left);
    });
  });
}
