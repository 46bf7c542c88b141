/** The rate limiter's options (api/rateLimit.ts) and their defaults: the spec's current tier table. */

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
  /**
   * Streams open at once from one client IP (IPv6: its /64) for anonymous and tier-1 callers
   * together: self-service keys are free, so they must not multiply an IP's streams.
   */
  streamsPerIp: number;
  /**
   * Paths the quota and the concurrency cap do not count (bans still apply): the node's own
   * static files, kept in memory and cached by browsers (api/staticFiles.ts). An entry ending in
   * `/` covers the paths below it, any other only itself.
   */
  freePaths: string[];
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
   * The token those proxies must also show in X-Ombra-Proxy-Token (absent: their address
   * suffices). A proxy's own request (the token, no X-Forwarded-For: its health checks) is not
   * metered: a balancer asks GET /api/health every second from one address.
   */
  trustedProxyToken?: string;
  /**
   * Quotas, concurrency caps and key checks on (`--rate-limits on`). Off, only the ban list
   * applies: a ban is a ban whatever the limits.
   */
  enforceLimits: boolean;
  now: () => number;
}

/** The spec's tier table (anonymous 60 a minute, tier 1 600, tier 2 6000), the stream paths, no bans. */
export const defaultRateLimitOptions: RateLimitOptions = {
  tiers: {
    anonymous: { perMinute: 60, concurrent: 10, streams: 10 },
    '1': { perMinute: 600, concurrent: 50, streams: 10 },
    '2': { perMinute: 6000, concurrent: 200, streams: 200 },
  },
  windowMs: 60_000,
  // Streamed answers elsewhere (ranges off this list, stored content, checkpoint files) count as
  // streams when they are answered (api/streamedAnswer.ts); these are refused before any work.
  streamPaths: ['/api/chain/events', '/api/mempool/events', '/api/ws', '/ws', '/api/chain/blocks-full'],
  streamsPerIp: 20,
  // The explorer page and its files, the docs page, its files and the document it renders.
  freePaths: ['/', '/explorer/', '/docs', '/docs/', '/api/openapi.json'],
  banned: [],
  banFilePollMs: 2000,
  badKeyLimit: 10,
  badKeyBlockMs: 5 * 60_000,
  trustedProxies: [],
  enforceLimits: true,
  now: Date.now,
};
