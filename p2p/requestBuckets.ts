/**
 * Token buckets per peer for sync requests: the server refuses a request when its asker's bucket
 * is empty, and a client waits for a token in its own copy of the same bucket before asking, so
 * an honest node never trips a server's limit however small the server's answers are.
 */
import { makeRoom } from '../core/recency.ts';

/** Sync requests a peer may make per second (burst: twice as many). */
export const SYNC_REQUESTS_PER_SECOND = 20;

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets for at most `maxPeers` peers (the oldest is forgotten first). */
export class RequestBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perSecond: number;
  private readonly maxPeers: number;
  private readonly burst: number;

  /** `perSecond` tokens a peer, at most `burst` saved up (twice the rate unless told). */
  constructor(perSecond = SYNC_REQUESTS_PER_SECOND, maxPeers = 1024, burst = 2 * perSecond) {
    this.perSecond = perSecond;
    this.maxPeers = maxPeers;
    this.burst = burst;
  }

  /** Milliseconds until `peer` has a token (0: now); takes it when there is one. */
  take(peer: string, now: number): number {
    const b = this.refill(peer, now);
    if (b.tokens < 1) return Math.ceil(((1 - b.tokens) * 1000) / this.perSecond);
    b.tokens--;
    return 0;
  }

  /** Gives `peer` one token back (never beyond the burst). */
  give(peer: string, now: number): void {
    const b = this.refill(peer, now);
    b.tokens = Math.min(this.burst, b.tokens + 1);
  }

  /** True when `peer` has a token now (none is taken). */
  has(peer: string, now: number): boolean {
    const b = this.buckets.get(peer);
    return !b || Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond) >= 1;
  }

  /** `peer`'s bucket, topped up to `now`. */
  private refill(peer: string, now: number): Bucket {
    let b = this.buckets.get(peer);
    if (!b) {
      makeRoom(this.buckets, this.maxPeers);
      b = { tokens: this.burst, at: now };
      this.buckets.set(peer, b);
    }
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    return b;
  }

  /** Waits until `peer` has a token and takes it (a client pacing itself). */
  async wait(peer: string): Promise<void> {
    for (let ms = this.take(peer, Date.now()); ms > 0; ms = this.take(peer, Date.now())) await new Promise((r) => setTimeout(r, ms));
  }
}
