/**
 * The one client-IP rule, for HTTP requests and WebSocket upgrades alike: the socket's remote
 * address, or the first X-Forwarded-For hop when the operator trusts the proxy in front.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { Context } from 'hono';

/** `::ffff:1.2.3.4` is 1.2.3.4. */
export function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/** The client IP from a forwarded-for header and the socket's remote address. */
export function clientIpFrom(forwardedFor: string | string[] | undefined, remote: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const first = (Array.isArray(forwardedFor) ? forwardedFor[0] : forwardedFor)?.split(',')[0]?.trim();
    if (first && isIP(first)) return normalizeIp(first);
  }
  return normalizeIp(remote ?? 'unknown');
}

/** The client IP of a Hono request served by @hono/node-server (X-Forwarded-For only when trusted). */
export function clientIp(c: Context, trustProxy = false): string {
  const incoming = (c.env as { incoming?: Partial<IncomingMessage> } | undefined)?.incoming;
  // Node's parsed headers when served by @hono/node-server (cheaper than building a Request's).
  const xff = incoming?.headers ? incoming.headers['x-forwarded-for'] : c.req.header('x-forwarded-for');
  return clientIpFrom(xff, incoming?.socket?.remoteAddress, trustProxy);
}

/** The client IP of an HTTP upgrade request. */
export function upgradeIp(req: IncomingMessage, trustProxy: boolean): string {
  return clientIpFrom(req.headers['x-forwarded-for'], req.socket.remoteAddress, trustProxy);
}
