/**
 * SSRF guard for webhook targets: which IP addresses a node may connect to on a subscriber's
 * behalf. Loopback, private (RFC 1918), CGNAT, ULA, link-local, cloud metadata, multicast,
 * unspecified, documentation and other reserved ranges are refused; IPv4-mapped and NAT64
 * IPv6 addresses are judged by the IPv4 address they carry.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local / metadata'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const V6: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::ffff:0:0', 96, 'IPv4-mapped (non-canonical)'],
  ['64:ff9b::', 96, 'NAT64 (non-canonical)'],
  ['100::', 64, 'discard'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

const lists = [
  ...V4.map(([a, n, why]) => ({ t: 'ipv4', list: one(a, n, 'ipv4'), why })),
  ...V6.map(([a, n, why]) => ({ t: 'ipv6', list: one(a, n, 'ipv6'), why })),
];

function one(a: string, n: number, t: 'ipv4' | 'ipv6'): { check(ip: string): boolean } {
  const b = new BlockList();
  b.addSubnet(a, n, t);
  return { check: (ip) => b.check(ip, t) };
}

/** The IPv4 address an IPv6 address embeds (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`), if any. */
function embeddedV4(ip: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2], 16);
  const lo = parseInt(m[3], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Why `ip` must not be a webhook target, or null when it is a public unicast address. */
export function forbiddenAddress(ip: string): string | null {
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const v4 = embeddedV4(ip.toLowerCase());
    if (v4) return forbiddenAddress(v4);
  }
  const t = family === 4 ? 'ipv4' : 'ipv6';
  for (const l of lists) if (l.t === t && l.list.check(ip)) return l.why;
  return null;
}

/** A DNS lookup in `net.connect`'s shape that refuses forbidden addresses (used at connect time). */
export type Lookup = (
  hostname: string,
  options: object,
  callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** Error for a refused target. */
export class ForbiddenTarget extends Error {
  readonly code = 'FORBIDDEN_TARGET';
}

/** Resolves `host` and refuses it when any address it resolves to is forbidden. */
export async function resolvePublic(host: string): Promise<LookupAddress[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const addrs: LookupAddress[] = isIP(bare)
    ? [{ address: bare, family: isIP(bare) }]
    : await new Promise((resolve, reject) => dnsLookup(bare, { all: true, verbatim: true }, (err, a) => (err ? reject(err) : resolve(a))));
  if (addrs.length === 0) throw new ForbiddenTarget(`${host} does not resolve`);
  for (const a of addrs) {
    const why = forbiddenAddress(a.address);
    if (why) throw new ForbiddenTarget(`${host} resolves to ${a.address} (${why}), which webhooks may not reach`);
  }
  return addrs;
}

/** A `lookup` for sockets: resolves, checks every address, and connects only to a checked one. */
export function guardedLookup(allowPrivate: boolean): Lookup {
  return (hostname, options, callback) => {
    const all = (options as { all?: boolean }).all === true;
    const run = allowPrivate
      ? new Promise<LookupAddress[]>((resolve, reject) =>
          dnsLookup(hostname, { all: true, verbatim: true }, (err, a) => (err ? reject(err) : resolve(a))),
        )
      : resolvePublic(hostname);
    run.then(
      (addrs) => (all ? callback(null, addrs) : callback(null, addrs[0].address, addrs[0].family)),
      (e: Error) => callback(e, all ? [] : ''),
    );
  };
}
