/**
 * Rate limits (spec part 8): a per-minute quota and a concurrency cap per caller, where the
 * caller is the API key (X-API-Key) or else the client IP. Every response carries
 * X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix seconds, end of the
 * current window); past the quota or the concurrency cap the answer is 429 RATE_LIMITED with
 * Retry-After. Streaming connections (SSE, WebSocket, full-block ranges) count toward concurrency
 * for as long as they stay open, and each tier has a cap on open streams (tier 1: 10 per key);
 * any other answer a route streams (api/streamedAnswer.ts) takes a stream slot when it is
 * answered (`asStream`), so slow readers of ranges and files are capped the same way.
 *
 * The operator ban list (api/banList.ts) answers 403 IP_BANNED, with limits on or off
 * (`enforceLimits: false` keeps only the bans). A presented key that is malformed or unknown is 401 UNAUTHORIZED, and
 * an IP that presents `badKeyLimit` invalid keys within a window is answered 429 for
 * `badKeyBlockMs`, whatever it sends.
 *
 * Windows are fixed, one minute from a caller's first request; state is in memory (a restart
 * forgives everyone) and idle callers are swept once per window.
 */
import { BanList } from './banList.ts';
import { quotaBucketOf } from '../node/cidr.ts';
import { defaultRateLimitOptions, type RateLimitOptions, type TierLimit } from './rateLimitOptions.ts';
import { trustedProxies, type TrustedProxies } from './clientIp.ts';
import type { ApiKeyRecord } from '../services/apiKeyFormat.ts';
import type { ApiKeyStore } from '../services/apiKeys.ts';
import type { Component } from '../node/ports.ts';

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

/** True when `path` is one of `paths` or below it. */
function isStreamPath(paths: readonly string[], path: string): boolean {
  for (const p of paths) {
    if (path.startsWith(p) && (path.length === p.length || path[p.length] === '/' || path[p.length] === '?')) return true;
  }
  return false;
}

/** True when `path` is one of `paths` (an entry ending in `/`: or below it). */
function isFreePath(paths: readonly string[], path: string): boolean {
  for (const p of paths) if (p.endsWith('/') && p.length > 1 ? path.startsWith(p) : path === p) return true;
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
  | {
      ok: true;
      bucket: Bucket;
      limit: TierLimit;
      stream: boolean;
      release: () => void;
      /**
       * The answer turned out streamed (api/streamedAnswer.ts): it takes a stream slot too, held
       * until `release`; null when it did, else the refusal (the caller's streams are all open).
       */
      asStream: () => Admission | null;
    }
  /** Let through by a limiter that only bans (`enforceLimits: false`): no quota, no headers. */
  | { ok: true; bucket: null; limit: null; stream: false; release: () => void; asStream: () => null }
  | { ok: false; status: 401 | 403 | 429; code: string; error: string; bucket: Bucket | null; limit: TierLimit; retryAfterMs?: number };

const UNLIMITED: Admission = { ok: true, bucket: null, limit: null, stream: false, release: () => {}, asStream: () => null };

/** The limiter's state and middleware. */
export class RateLimiter implements Component {
  readonly opts: RateLimitOptions;
  private readonly keys: ApiKeyStore;
  private readonly buckets = new Map<string, Bucket>();
  private readonly badKeys = new Map<string, BadKeys>();
  /** Open anonymous and tier-1 streams by client IP (IPv6 by /64). */
  private readonly ipStreams = new Map<string, number>();
  private readonly bans: BanList;
  /** The trusted proxies the one client-IP rule believes. */
  readonly proxies: TrustedProxies;
  private lastSweep = 0;

  constructor(keys: ApiKeyStore, options: Partial<RateLimitOptions> = {}) {
    this.keys = keys;
    this.opts = { ...defaultRateLimitOptions, ...options, tiers: { ...defaultRateLimitOptions.tiers, ...options.tiers } };
    this.proxies = trustedProxies(this.opts.trustedProxies, this.opts.trustedProxyToken ?? null);
    this.bans = new BanList(this.opts.banned, this.opts.banFile, this.opts.banFilePollMs);
  }

  /** Lifecycle: follows the ban file (re-read when it changes). */
  async start(): Promise<void> {
    this.bans.follow();
  }

  /** Lifecycle: stops following the ban file. */
  async stop(): Promise<void> {
    this.bans.unfollow();
  }

  /** Re-reads the ban file; a missing file bans nobody, a bad line keeps the previous list. */
  reloadBanFile(): void {
    this.bans.reloadFile();
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
  admit(ip: string, presented: string | undefined, path: string, now = this.opts.now(), proxySelf = false): Admission {
    const o = this.opts;
    const anon = o.tiers.anonymous;
    // Quotas and bad-key counts are per IPv4 address and per IPv6 /64 (node/cidr.ts).
    const client = quotaBucketOf(ip);
    if (this.bans.isBanned(ip))
      return no(403, 'IP_BANNED', 'this IP address is banned by the node operator', this.buckets.get(`ip:${client}`) ?? null, anon);
    if (!o.enforceLimits || proxySelf || isFreePath(o.freePaths, path)) return UNLIMITED;
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
    // Anonymous and self-service (tier 1) streams also share a cap per IP: free keys are many.
    const perIp = !payer || payer.tier <= 1;
    const tooManyStreams = (): Admission | null => {
      if (b.streams >= limit.streams)
        return no(429, 'RATE_LIMITED', `too many open streams: at most ${limit.streams} for ${who}`, b, limit, 1000);
      if (perIp && (this.ipStreams.get(client) ?? 0) >= o.streamsPerIp)
        return no(429, 'RATE_LIMITED', `too many open streams: at most ${o.streamsPerIp} from this IP`, b, limit, 1000);
      return null;
    };
    const takeStream = (d: number) => {
      b.streams += d;
      if (!perIp) return;
      const n = (this.ipStreams.get(client) ?? 0) + d;
      if (n > 0) this.ipStreams.set(client, n);
      else this.ipStreams.delete(client);
    };
    let stream = isStreamPath(o.streamPaths, path);
    const refused = stream ? tooManyStreams() : null;
    if (refused) return refused;
    b.count++;
    b.inflight++;
    if (stream) takeStream(1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      b.inflight--;
      if (stream) takeStream(-1);
    };
    const asStream = () => {
      if (stream || released) return null;
      const full = tooManyStreams();
      if (full) return full;
      takeStream(1);
      stream = true;
      return null;
    };
    return { ok: true, bucket: b, limit, stream, release, asStream };
  }
}
