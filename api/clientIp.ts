/**
 * The one client-IP rule, for HTTP requests and WebSocket upgrades alike: the socket's remote
 * address, unless that address is a trusted proxy (`--trusted-proxy CIDR`); then the rightmost
 * X-Forwarded-For hop that is not itself a trusted proxy (hops to its left are whatever the
 * client wrote, so they cannot be believed).
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { Context } from 'hono';
import { CidrSet } from './cidr.ts';

/** `::ffff:1.2.3.4` is 1.2.3.4. */
export function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/** The trusted proxies: CIDRs (or single addresses) whose X-Forwarded-For is believed. */
export type TrustedProxies = CidrSet | null;

/** Parses `--trusted-proxy` values; throws naming the first bad one. */
export function trustedProxies(cidrs: readonly string[]): TrustedProxies {
  return cidrs.length === 0 ? null : new CidrSet(cidrs);
}

/** The client IP from a forwarded-for header and the socket's remote address. */
export function clientIpFrom(forwardedFor: string | string[] | undefined, remote: string | undefined, proxies: TrustedProxies): string {
  const peer = normalizeIp(remote || 'unknown');
  if (!proxies?.has(peer)) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '')).split(',');
  let leftmost = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i].trim());
    // A malformed hop ends what can be believed: the last good one stands.
    if (isIP(hop) === 0) return leftmost;
    if (!proxies.has(hop)) return hop;
    leftmost = hop;
  }
  return leftmost;
}

/** The client IP of a Hono request served by @hono/node-server. */
export function clientIp(c: Context, proxies: TrustedProxies = null): string {
  const incoming = (c.env as { incoming?: Partial<IncomingMessage> } | undefined)?.incoming;
  // Node's parsed headers when served by @hono/node-server (cheaper than building a Request's).
  const xff = incoming?.headers ? incoming.headers['x-forwarded-for'] : c.req.header('x-forwarded-for');
  return clientIpFrom(xff, incoming?.socket?.remoteAddress, proxies);
}

/** The client IP of an HTTP upgrade request. */
export function upgradeIp(req: IncomingMessage, proxies: TrustedProxies): string {
  return clientIpFrom(req.headers['x-forwarded-for'], req.socket.remoteAddress, proxies);
}
