/**
 * The one client-IP rule, for HTTP requests and WebSocket upgrades alike: the socket's remote
 * address, unless that address is a trusted proxy (`--trusted-proxy CIDR`); then the rightmost
 * X-Forwarded-For hop that is not itself a trusted proxy (hops to its left are whatever the
 * client wrote, so they cannot be believed). A hop may carry a port (`1.2.3.4:5678`,
 * `[2001:db8::1]:443`) or quotes. A hop that is no address at all is still one client of the
 * proxy that wrote it: it answers `<proxy>#<the hop's text>` (at most 64 safe characters), its
 * own bucket, so a proxy's junk never merges its clients into the proxy's bucket.
 *
 * An address is not proof of being the proxy: any process on the proxy's host (or anything sharing
 * its address) can connect and write X-Forwarded-For. With a proxy token (`--trusted-proxy-token-
 * file`) the header is believed only on requests that carry the token in `X-Ombra-Proxy-Token`,
 * which the proxy sets on every request it forwards (deploy/haproxy.cfg.template); a request
 * without it is judged by its socket's address like any other client.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { Context } from 'hono';
import { CidrSet, quotaBucketOf } from '../node/cidr.ts';

/** `::ffff:1.2.3.4` is 1.2.3.4. */
export function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/** The address of one X-Forwarded-For hop (port, brackets and quotes removed), or null when it is none. */
function hopAddress(raw: string): string | null {
  let hop = raw.trim();
  if (hop.length > 2 && hop.startsWith('"') && hop.endsWith('"')) hop = hop.slice(1, -1);
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(hop);
  if (bracketed) hop = bracketed[1];
  else if (/^[0-9.]+:\d{1,5}$/.test(hop)) hop = hop.slice(0, hop.indexOf(':'));
  return isIP(hop) === 0 ? null : normalizeIp(hop);
}

/** The client a proxy names with a hop that is no address: its own bucket, labelled by the hop's text. */
function unparsedClient(proxy: string, hop: string): string {
  return `${proxy}#${hop
    .trim()
    .replace(/[^0-9A-Za-z:._-]/g, '_')
    .slice(0, 64)}`;
}

/** The header a trusted proxy proves itself with when a proxy token is set. */
export const PROXY_TOKEN_HEADER = 'x-ombra-proxy-token';

/**
 * The trusted proxies: CIDRs (or single addresses) whose X-Forwarded-For is believed, and the
 * token they must also show (null: their address suffices).
 */
export type TrustedProxies = { cidrs: CidrSet; token: Buffer | null } | null;

/** Parses `--trusted-proxy` values (and the proxy token, if any); throws naming the first bad one. */
export function trustedProxies(cidrs: readonly string[], token: string | null = null): TrustedProxies {
  return cidrs.length === 0 ? null : { cidrs: new CidrSet(cidrs), token: token === null ? null : Buffer.from(token) };
}

/** True when `proxies` needs no token, or `shown` is it. */
function proves(proxies: NonNullable<TrustedProxies>, shown: string | string[] | undefined): boolean {
  if (proxies.token === null) return true;
  if (typeof shown !== 'string') return false;
  const b = Buffer.from(shown);
  return b.length === proxies.token.length && timingSafeEqual(b, proxies.token);
}

/**
 * The client IP from a forwarded-for header and the socket's remote address; `proof` is the
 * request's X-Ombra-Proxy-Token (checked when the proxies have a token).
 */
export function clientIpFrom(
  forwardedFor: string | string[] | undefined,
  remote: string | undefined,
  proxies: TrustedProxies,
  proof?: string | string[],
): string {
  const peer = normalizeIp(remote || 'unknown');
  if (!proxies?.cidrs.has(peer) || !proves(proxies, proof)) return peer;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  // No header: the proxy's own request.
  if (header.trim() === '') return peer;
  const hops = header.split(',');
  let leftmost = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hopAddress(hops[i]);
    // A malformed hop ends what can be believed; it still names one client of the proxy that wrote it.
    if (hop === null) return unparsedClient(leftmost, hops[i]);
    if (!proxies.cidrs.has(hop)) return hop;
    leftmost = hop;
  }
  return leftmost;
}

/**
 * True for a trusted proxy's own request: from its address, with its token (only a proxy with a
 * token can be told from other processes at its address) and no X-Forwarded-For.
 */
export function proxyItself(
  forwardedFor: string | string[] | undefined,
  remote: string | undefined,
  proxies: TrustedProxies,
  proof: string | string[] | undefined,
): boolean {
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  return !!proxies?.token && header.trim() === '' && proxies.cidrs.has(normalizeIp(remote || 'unknown')) && proves(proxies, proof);
}

/** The client IP of a Hono request served by @hono/node-server. */
function clientIp(c: Context, proxies: TrustedProxies = null): string {
  const incoming = (c.env as { incoming?: Partial<IncomingMessage> } | undefined)?.incoming;
  // Node's parsed headers when served by @hono/node-server (cheaper than building a Request's).
  const xff = incoming?.headers ? incoming.headers['x-forwarded-for'] : c.req.header('x-forwarded-for');
  const proof = incoming?.headers ? incoming.headers[PROXY_TOKEN_HEADER] : c.req.header(PROXY_TOKEN_HEADER);
  return clientIpFrom(xff, incoming?.socket?.remoteAddress, proxies, proof);
}

/** The per-IP quota bucket of a Hono request's client: its IP, or its IPv6 /64 (node/cidr.ts). */
export function clientBucket(c: Context, proxies: TrustedProxies = null): string {
  return quotaBucketOf(clientIp(c, proxies));
}

/** The client IP of an HTTP upgrade request. */
export function upgradeIp(req: IncomingMessage, proxies: TrustedProxies): string {
  return clientIpFrom(req.headers['x-forwarded-for'], req.socket.remoteAddress, proxies, req.headers[PROXY_TOKEN_HEADER]);
}
