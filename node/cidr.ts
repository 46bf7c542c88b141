/**
 * A pure CIDR matcher for the trusted-proxy rule, and the per-IP bucket of a client that the HTTP
 * quotas (api/) and the p2p connection guard (p2p/connectionGuard.ts) both count by. It lives
 * here, below both. Every address lives in the 128-bit IPv6 space,
 * IPv4 as its IPv4-mapped form (::ffff:a.b.c.d), so `10.0.0.1`, `::ffff:10.0.0.1` and the CIDRs
 * `10.0.0.0/8` and `::ffff:10.0.0.0/104` all mean the same thing.
 */
import { isIP } from 'node:net';

const MAPPED = 0xffffn << 32n;
const ALL = (1n << 128n) - 1n;

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

/** A parsed CIDR: the network's bits and the prefix length in the 128-bit space. */
export interface Cidr {
  base: bigint;
  prefix: number;
}

/** Parses `ADDR` or `ADDR/BITS` (IPv4 or IPv6); throws naming the bad entry. */
export function parseCidr(raw: string): Cidr {
  const [addr, bits, extra] = raw.trim().split('/');
  const base = ipBits(addr);
  if (base === null || extra !== undefined) throw new Error(`trusted proxy ${raw.slice(0, 80)} is not an IP address or CIDR`);
  const width = isIP(addr) === 4 ? 32 : 128;
  const n = bits === undefined ? width : /^[0-9]{1,3}$/.test(bits) ? Number(bits) : -1;
  if (n < 0 || n > width) throw new Error(`trusted proxy ${raw.slice(0, 80)} has a bad prefix length`);
  const prefix = n + (128 - width);
  return { base: base & maskOf(prefix), prefix };
}

function maskOf(prefix: number): bigint {
  return (ALL << BigInt(128 - prefix)) & ALL;
}

/** Whether the address (already as bits) is inside the CIDR. */
function inCidr(bits: bigint, cidr: Cidr): boolean {
  return (bits & maskOf(cidr.prefix)) === cidr.base;
}

/** A set of CIDRs to test addresses against. */
export class CidrSet {
  private readonly cidrs: readonly Cidr[];

  /** Parses every entry; throws on the first bad one. */
  constructor(entries: readonly string[]) {
    this.cidrs = entries.map(parseCidr);
  }

  /** Whether `ip` is inside any of the CIDRs (false for anything that is not an IP). */
  has(ip: string): boolean {
    const bits = ipBits(ip);
    return bits !== null && this.cidrs.some((c) => inCidr(bits, c));
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
