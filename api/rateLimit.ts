/**
 * Rate limits (spec part 8): a per-minute quota and a concurrency cap per caller, where the
 * caller is the API key (X-API-Key) or else the client IP. Every response carries
 * X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix seconds, end of the
 * current window); past the quota or the concurrency cap the answer is 429 RATE_LIMITED with
 * Retry-After. Streaming connections (SSE, WebSocket) count toward concurrency for as long as
 * they stay open, and each tier has a cap on open streams (tier 1: 10 per key).
 *
 * An operator ban list (IPs and CIDRs, from options and from a file re-read when it changes)
 * answers 403 IP_BANNED, with limits on or off (`enforceLimits: false` keeps only the bans). A presented key that is malformed or unknown is 401 UNAUTHORIZED, and
 * an IP that presents `badKeyLimit` invalid keys within a window is answered 429 for
 * `badKeyBlockMs`, whatever it sends.
 *
 * Windows are fixed, one minute from a caller's first request; state is in memory (a restart
 * forgives everyone) and idle callers are swept once per window.
 */
import { BlockList, isIP } from 'node:net';
import { quotaBucketOf } from './cidr.ts';
import { trustedProxies, type TrustedProxies } from './clientIp.ts';
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import type { ApiKeyRecord } from '../services/apiKeyFormat.ts';
import type { ApiKeyStore } from '../services/apiKeys.ts';
import type { Component } from '../node/ports.ts';

/** One tier's limits. */
export interface TierLimit {
  /** Requests per window. */
  perMinute: number;
  /** Requests (streams included) open at once. */
  concurrent: number;
  /** Streaming connections open at once. */
  streams: number;
}

/** Rate limiter options (defaults: the spec's current tier table). */
export interface RateLimitOptions {
  /** `anonymous`, then one entry per key tier ('1', '2', ...). */
  tiers: Record<string, TierLimit>;
  windowMs: number;
  /** Path prefixes of streaming endpoints. */
  streamPaths: string[];
  /** Banned IPs and CIDRs (e.g. `203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`). */
  banned: string[];
  /** A file of banned IPs/CIDRs, one per line (`#` comments); re-read when it changes. */
  banFile?: string;
  /** How often the ban file is checked for changes (ms). */
  banFilePollMs: number;
  /** Invalid keys an IP may present per window before it is blocked. */
  badKeyLimit: number;
  /** How long such an IP is answered 429. */
  badKeyBlockMs: number;
  /** Proxies (CIDRs) whose X-Forwarded-For is believed: see api/clientIp.ts. */
  trustedProxies: string[];
  /**
   * Quotas, concurrency caps and key checks on (`--rate-limits on`). Off, only the ban list
   * applies: a ban is a ban whatever the limits.
   */
  enforceLimits: boolean;
  now: () => number;
}

const defaultRateLimitOptions: RateLimitOptions = {
  tiers: {
    anonymous: { perMinute: 60, concurrent: 10, streams: 10 },
    '1': { perMinute: 600, concurrent: 50, streams: 10 },
    '2': { perMinute: 6000, concurrent: 200, streams: 200 },
  },
  windowMs: 60_000,
  streamPaths: ['/api/chain/events', '/api/mempool/events', '/api/ws', '/ws'],
  banned: [],
  banFilePollMs: 2000,
  badKeyLimit: 10,
  badKeyBlockMs: 5 * 60_000,
  trustedProxies: [],
  enforceLimits: true,
  now: Date.now,
};

interface Bucket {
  limit: TierLimit;
  count: number;
  reset: number;
  inflight: number;
  streams: number;
}

interface BadKeys {
  count: number;
  reset: number;
  blockedUntil: number;
}

/** Parses ban entries into a BlockList; throws on a malformed entry. */
export function parseBanList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const raw of entries) {
    const e = raw.trim();
    if (!e || e.startsWith('#')) continue;
    const [addr, bits] = e.split('/');
    const family = isIP(addr);
    if (!family) throw new Error(`ban list: ${e.slice(0, 80)} is not an IP address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(addr, type);
    else {
      const n = /^[0-9]{1,3}$/.test(bits) ? Number(bits) : -1;
      if (n < 0 || n > (family === 4 ? 32 : 128)) throw new Error(`ban list: bad prefix length in ${e.slice(0, 80)}`);
      list.addSubnet(addr, n, type);
    }
  }
  return list;
}

/** True when `path` is one of `paths` or below it. */
function isStreamPath(paths: readonly string[], path: string): boolean {
  for (const p of paths) {
    if (path.startsWith(p) && (path.length === p.length || path[p.length] === '/' || path[p.length] === '?')) return true;
  }
  return false;
}

/** A refusal. */
function no(
  status: 401 | 403 | 429,
  code: string,
  error: string,
  bucket: Bucket | null,
  limit: TierLimit,
  retryAfterMs?: number,
): Admission {
  return { ok: false, status, code, error, bucket, limit, retryAfterMs };
}

/** An admission decision. */
export type Admission =
  | { ok: true; bucket: Bucket; limit: TierLimit; stream: boolean; release: () => void }
  /** Let through by a limiter that only bans (`enforceLimits: false`): no quota, no headers. */
  | { ok: true; bucket: null; limit: null; stream: false; release: () => void }
  | { ok: false; status: 401 | 403 | 429; code: string; error: string; bucket: Bucket | null; limit: TierLimit; retryAfterMs?: number };

const UNLIMITED: Admission = { ok: true, bucket: null, limit: null, stream: false, release: () => {} };

/** The limiter's state and middleware. */
export class RateLimiter implements Component {
  readonly opts: RateLimitOptions;
  private readonly keys: ApiKeyStore;
  private readonly buckets = new Map<string, Bucket>();
  private readonly badKeys = new Map<string, BadKeys>();
  private banned: BlockList;
  private fileBanned: BlockList = new BlockList();
  /** Entries on both lists (0 skips the check on the hot path). */
  private banEntries = 0;
  private fileBanEntries = 0;
  /** The trusted proxies the one client-IP rule believes. */
  readonly proxies: TrustedProxies;
  private lastSweep = 0;

  constructor(keys: ApiKeyStore, options: Partial<RateLimitOptions> = {}) {
    this.keys = keys;
    this.opts = { ...defaultRateLimitOptions, ...options, tiers: { ...defaultRateLimitOptions.tiers, ...options.tiers } };
    this.proxies = trustedProxies(this.opts.trustedProxies);
    this.banned = parseBanList(this.opts.banned);
    this.banEntries = this.opts.banned.filter((e) => e.trim() && !e.trim().startsWith('#')).length;
    this.reloadBanFile();
  }

  /** Lifecycle: follows the ban file (re-read when it changes). */
  async start(): Promise<void> {
    if (this.opts.banFile)
      watchFile(this.opts.banFile, { interval: this.opts.banFilePollMs, persistent: false }, () => this.reloadBanFile());
  }

  /** Lifecycle: stops following the ban file. */
  async stop(): Promise<void> {
    if (this.opts.banFile) unwatchFile(this.opts.banFile);
  }

  /** Re-reads the ban file; a missing file bans nobody, a bad line keeps the previous list. */
  reloadBanFile(): void {
    if (!this.opts.banFile) return;
    let text: string;
    try {
      text = readFileSync(this.opts.banFile, 'utf8');
    } catch {
      this.fileBanned = new BlockList();
      this.fileBanEntries = 0;
      return;
    }
    try {
      const lines = text.split('\n');
      this.fileBanned = parseBanList(lines);
      this.fileBanEntries = lines.filter((e) => e.trim() && !e.trim().startsWith('#')).length;
    } catch {
      // keep the previous list: an operator's typo must not unban everyone
    }
  }

  /** True when `ip` is on the ban list. */
  isBanned(ip: string): boolean {
    if (this.banEntries + this.fileBanEntries === 0) return false;
    const family = isIP(ip);
    if (!family) return false;
    const type = family === 6 ? 'ipv6' : 'ipv4';
    return (this.banEntries > 0 && this.banned.check(ip, type)) || (this.fileBanEntries > 0 && this.fileBanned.check(ip, type));
  }

  private tierOf(record: ApiKeyRecord | null): TierLimit {
    if (!record) return this.opts.tiers.anonymous;
    return this.opts.tiers[String(record.tier)] ?? this.opts.tiers['1'];
  }

  private bucket(id: string, limit: TierLimit, now: number): Bucket {
    if (now - this.lastSweep >= this.opts.windowMs) this.sweep(now);
    let b = this.buckets.get(id);
    if (!b) {
      b = { limit, count: 0, reset: now + this.opts.windowMs, inflight: 0, streams: 0 };
      this.buckets.set(id, b);
    } else if (now >= b.reset) {
      b.count = 0;
      b.reset = now + this.opts.windowMs;
    }
    b.limit = limit;
    return b;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [id, b] of this.buckets) if (b.reset <= now && b.inflight === 0 && b.streams === 0) this.buckets.delete(id);
    for (const [ip, k] of this.badKeys) if (k.reset <= now && k.blockedUntil <= now) this.badKeys.delete(ip);
  }

  /** Counts an invalid key from `ip`; true once the IP is blocked. */
  private noteBadKey(ip: string, now: number): void {
    let k = this.badKeys.get(ip);
    if (!k || (now >= k.reset && now >= k.blockedUntil)) {
      k = { count: 0, reset: now + this.opts.windowMs, blockedUntil: 0 };
      this.badKeys.set(ip, k);
    }
    k.count++;
    if (k.count >= this.opts.badKeyLimit) k.blockedUntil = now + this.opts.badKeyBlockMs;
  }

  private blockedFor(ip: string, now: number): number {
    const k = this.badKeys.get(ip);
    return k && k.blockedUntil > now ? k.blockedUntil - now : 0;
  }

  /** Tracked callers (tests, metrics). */
  size(): number {
    return this.buckets.size;
  }

  /**
   * The one admission decision, for HTTP requests and WebSocket upgrades alike: ban list, key,
   * per-minute quota, concurrency and (on stream paths) the open-stream cap. On success the
   * caller holds a slot until it calls `release`.
   */
  admit(ip: string, presented: string | undefined, path: string, now = this.opts.now()): Admission {
    const o = this.opts;
    const anon = o.tiers.anonymous;
    // Quotas and bad-key counts are per IPv4 address and per IPv6 /64 (api/cidr.ts).
    const client = quotaBucketOf(ip);
    if (this.isBanned(ip))
      return no(403, 'IP_BANNED', 'this IP address is banned by the node operator', this.buckets.get(`ip:${client}`) ?? null, anon);
    if (!o.enforceLimits) return UNLIMITED;
    let record: ApiKeyRecord | null = null;
    if (presented !== undefined) {
      const blocked = this.blockedFor(client, now);
      if (blocked > 0) return no(429, 'RATE_LIMITED', 'too many invalid API keys from this IP; try again later', null, anon, blocked);
      const check = this.keys.check(presented);
      if (!check.ok) {
        this.noteBadKey(client, now);
        return no(
          401,
          'UNAUTHORIZED',
          check.why === 'malformed'
            ? 'invalid API key: not a well-formed key (bad format or checksum)'
            : 'invalid API key: unknown or revoked',
          null,
          anon,
        );
      }
      record = check.record;
      this.keys.touch(record);
    }
    // Keys registered with a key draw from the quota of the key at the top of their chain.
    const payer = record && this.keys.rootOf(record);
    const limit = this.tierOf(payer);
    const b = this.bucket(payer ? `key:${payer.id}` : `ip:${client}`, limit, now);
    const who = record ? 'this API key' : 'anonymous callers from this IP';
    if (b.count >= limit.perMinute)
      return no(429, 'RATE_LIMITED', `rate limit exceeded: ${limit.perMinute} requests per minute for ${who}`, b, limit, b.reset - now);
    if (b.inflight >= limit.concurrent)
      return no(429, 'RATE_LIMITED', `too many concurrent requests: at most ${limit.concurrent} for ${who}`, b, limit, 1000);
    const stream = isStreamPath(o.streamPaths, path);
    if (stream && b.streams >= limit.streams)
      return no(429, 'RATE_LIMITED', `too many open streams: at most ${limit.streams} for ${who}`, b, limit, 1000);
    b.count++;
    b.inflight++;
    if (stream) b.streams++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      b.inflight--;
      if (stream) b.streams--;
    };
    return { ok: true, bucket: b, limit, stream, release };
  }
}
