/**
 * SSRF guard for webhook targets: which IP addresses a node may connect to on a subscriber's
 * behalf. Only global unicast is allowed: IPv6 inside 2000::/3, IPv4 outside multicast and the
 * reserved 240/4, and in both families nothing the IANA special-purpose address registries mark
 * as not globally reachable (loopback, private, CGNAT, ULA, link-local, cloud metadata,
 * documentation, benchmarking, ORCHID, SRv6 SIDs, discard, NAT64 local use, ...). IPv6 addresses
 * that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) are judged by
 * it.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

// IANA IPv4 Special-Purpose Address Registry: the blocks not globally reachable, plus multicast.
const V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local / metadata'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'deprecated 6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
// IANA IPv6 Special-Purpose Address Registry, inside global unicast 2000::/3 (everything outside
// it is refused as not global unicast: ::/8, 100::/64, 64:ff9b:1::/48, 5f00::/16, fc00::/7, ...).
// 2001::/23 is refused whole: its few anycast services (PCP, TURN, AMT, AS112) are no webhook
// host, and ORCHIDv2 and DRIP identifiers are not locators; Teredo (2001::/32) is judged by the
// IPv4 addresses it carries before this list is read.
const V6: [string, number, string][] = [
  ['2001::', 23, 'IETF protocol assignments (benchmarking, ORCHID, ...)'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
];

/** Global unicast IPv6. */
const GLOBAL_V6 = one('2000::', 3, 'ipv6');

const lists = [
  ...V4.map(([a, n, why]) => ({ t: 'ipv4', list: one(a, n, 'ipv4'), why })),
  ...V6.map(([a, n, why]) => ({ t: 'ipv6', list: one(a, n, 'ipv6'), why })),
];

function one(a: string, n: number, t: 'ipv4' | 'ipv6'): { check(ip: string): boolean } {
  const b = new BlockList();
  b.addSubnet(a, n, t);
  return { check: (ip) => b.check(ip, t) };
}

/** The 16 bytes of a valid IPv6 address (any textual form, a dotted IPv4 tail included). */
function ipv6Bytes(ip: string): number[] {
  let s = ip.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const words: number[] = [];
  const push = (part: string) => {
    if (part.includes('.')) {
      const o = part.split('.').map(Number);
      words.push((o[0] << 8) | o[1], (o[2] << 8) | o[3]);
    } else words.push(parseInt(part, 16));
  };
  const [head, tail] = s.split('::');
  const left: number[] = [];
  const right: number[] = [];
  for (const p of head ? head.split(':') : []) push(p);
  left.push(...words.splice(0));
  if (tail !== undefined) for (const p of tail ? tail.split(':') : []) push(p);
  right.push(...words.splice(0));
  const all = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((w) => [w >> 8, w & 255]);
}

const v4At = (b: number[], i: number, xor = 0) => [b[i] ^ xor, b[i + 1] ^ xor, b[i + 2] ^ xor, b[i + 3] ^ xor].join('.');

/**
 * The IPv4 addresses an IPv6 address carries: IPv4-mapped `::ffff:0:0/96`, IPv4-compatible
 * `::/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, and Teredo `2001::/32` (its server, and its
 * client, stored inverted).
 */
function embeddedV4(ip: string): string[] {
  const b = ipv6Bytes(ip);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return [v4At(b, 12)];
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && b[15] === 1)) return [v4At(b, 12)];
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return [v4At(b, 12)];
  if (b[0] === 0x20 && b[1] === 0x02) return [v4At(b, 2)];
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) return [v4At(b, 4), v4At(b, 12, 0xff)];
  return [];
}

/** Why an IPv6 address outside 2000::/3 is refused (the registry's name where it has one). */
function ipv6Outside(ip: string): string {
  const b = ipv6Bytes(ip);
  if (b.every((x) => x === 0)) return 'unspecified';
  if (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) return 'loopback';
  if (b[0] === 0xff) return 'multicast';
  if (b[0] === 0xfe && b[1] >= 0x80) return b[1] >= 0xc0 ? 'site-local' : 'link-local';
  if ((b[0] & 0xfe) === 0xfc) return 'unique local (private)';
  return 'not global unicast';
}

/** Why `ip` must not be a webhook target, or null when it is a public unicast address. */
export function forbiddenAddress(ip: string): string | null {
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    // An address that carries IPv4 is judged by what it carries (that is where it leads).
    const carried = embeddedV4(ip);
    for (const v4 of carried) {
      const why = forbiddenAddress(v4);
      if (why) return `${why} (carried in ${ip})`;
    }
    if (carried.length) return null;
  }
  const t = family === 4 ? 'ipv4' : 'ipv6';
  if (t === 'ipv6' && !GLOBAL_V6.check(ip)) return ipv6Outside(ip);
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
