/**
 * CIDR sets for the trusted-proxy rule and the per-IP exemptions (Node's BlockList), and the
 * per-IP bucket of a client that the HTTP quotas (api/) and the p2p connection guard
 * (p2p/connectionGuard.ts) both count by. It lives here, below both. `10.0.0.1` and
 * `::ffff:10.0.0.1`, and the CIDRs `10.0.0.0/8` and `::ffff:10.0.0.0/104`, mean the same thing.
 */
import { BlockList, isIP } from 'node:net';

const MAPPED = 0xffffn << 32n;

function v4Bits(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** The address as a 128-bit number (IPv4 mapped into ::ffff:0:0/96), or null when it is not an IP. */
export function ipBits(ip: string): bigint | null {
  const family = isIP(ip);
  if (family === 4) return MAPPED | v4Bits(ip);
  // Zone ids (fe80::1%eth0) name an interface, not an address anyone can be trusted by.
  if (family !== 6 || ip.includes('%')) return null;
  let text = ip.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    // A dotted IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is the last two groups.
    const v4 = v4Bits(text.slice(lastColon + 1));
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => BigInt(`0x${g}`)) : []);
  const left = groups(head);
  const right = groups(rest);
  const fill = rest === undefined ? [] : new Array<bigint>(8 - left.length - right.length).fill(0n);
  return [...left, ...fill, ...right].reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** A parsed CIDR: its address as written, the prefix length and the address family. */
export interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** Parses `ADDR` or `ADDR/BITS` (IPv4 or IPv6); throws naming the bad entry. */
export function parseCidr(raw: string): Cidr {
  const [address, bits, extra] = raw.trim().split('/');
  if (ipBits(address) === null || extra !== undefined) throw new Error(`trusted proxy ${raw.slice(0, 80)} is not an IP address or CIDR`);
  const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  const width = family === 'ipv4' ? 32 : 128;
  const prefix = bits === undefined ? width : /^[0-9]{1,3}$/.test(bits) ? Number(bits) : -1;
  if (prefix < 0 || prefix > width) throw new Error(`trusted proxy ${raw.slice(0, 80)} has a bad prefix length`);
  return { address, prefix, family };
}

/**
 * A set of CIDRs to test addresses against: Node's `BlockList`, which already treats an IPv4
 * address and its IPv4-mapped IPv6 form as one; the entries are checked here first, so a bad
 * one is named the way an operator wrote it.
 */
export class CidrSet {
  private readonly list = new BlockList();

  /** Parses every entry; throws on the first bad one. */
  constructor(entries: readonly string[]) {
    for (const c of entries.map(parseCidr)) this.list.addSubnet(c.address, c.prefix, c.family);
  }

  /** Whether `ip` is inside any of the CIDRs (false for anything that is not an IP). */
  has(ip: string): boolean {
    // Zone ids (fe80::1%eth0) name an interface, not an address anyone can be trusted by.
    const family = ip.includes('%') ? 0 : isIP(ip);
    return family !== 0 && this.list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/**
 * The quota bucket of a client address: an IPv6 address stands for its /64 (one subscriber's
 * network: a host picks any of its 2^64 addresses at will), written `2001:db8:0:7::/64`; IPv4
 * (mapped or not) and anything that is not an IP stand for themselves.
 */
export function quotaBucketOf(ip: string): string {
  const bits = isIP(ip) === 6 ? ipBits(ip) : null;
  if (bits === null || bits >> 32n === 0xffffn) return ip;
  const net = bits >> 64n;
  const groups = [48n, 32n, 16n, 0n].map((s) => ((net >> s) & 0xffffn).toString(16));
  return `${groups.join(':')}::/64`;
}
