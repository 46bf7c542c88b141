/**
 * The one place live streams meet the node: a single shared subscription to `node.events$`
 * fanned out to every SSE and WebSocket subscriber, plus the shared heartbeat and mempool ticks.
 */
import type { Subscription } from 'rxjs';
import { ChainError } from '../../core/errors.ts';
import type { StreamPorts } from '../../node/ports.ts';
import type { ChainEvent } from '../../projections/events.ts';
import { defaultStreamOptions, type StreamOptions } from './streamOptions.ts';

/** A mempool size snapshot (SSE `snapshot`, WebSocket `mempool` channel). */
export interface MempoolSnapshot {
  total: number;
  ts: number;
}

/** What a subscriber wants to hear; every handler is optional. */
export interface StreamHandlers {
  event?: (e: ChainEvent) => void;
  /** SSE heartbeat tick, every `ssePingMs`. */
  ping?: (tick: { ts: number }) => void;
  /** Mempool snapshot tick, every `mempoolSnapshotMs`. */
  snapshot?: (s: MempoolSnapshot) => void;
  /** The node's feed ended (the node is closing). */
  end?: () => void;
}

/** A periodic tick shared by every subscriber that wants it: one timer, running while any does. */
class Ticker<T> {
  readonly listeners = new Set<(v: T) => void>();
  private timer: NodeJS.Timeout | null = null;
  private readonly ms: number;
  private readonly make: () => T;
  private readonly deliver: (fn: (v: T) => void, v: T) => void;
  constructor(ms: number, make: () => T, deliver: (fn: (v: T) => void, v: T) => void) {
    this.ms = ms;
    this.make = make;
    this.deliver = deliver;
  }
  add(fn: (v: T) => void): void {
    this.listeners.add(fn);
    if (!this.timer) {
      this.timer = setInterval(() => {
        const v = this.make();
        for (const l of [...this.listeners]) this.deliver(l, v);
      }, this.ms);
    }
  }
  delete(fn: (v: T) => void): void {
    this.listeners.delete(fn);
    if (this.listeners.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}

/**
 * Fans the node's event feed out to live subscribers, encoding each event once for all of them.
 * Subscribers are plain entries in sets: one subscription to the feed and one timer per tick
 * kind serve them all, so a subscriber costs its handlers and nothing of RxJS.
 */
export class StreamHub {
  readonly ports: StreamPorts;
  readonly options: StreamOptions;
  /** Subscribers disconnected for not keeping up, since start (for tests and operators). */
  slowConsumerDrops = 0;
  private readonly feedHandlers = new Set<StreamHandlers>();
  private feedSub: Subscription | null = null;
  private readonly pings: Ticker<{ ts: number }>;
  private readonly snapshots: Ticker<MempoolSnapshot>;
  private count = 0;
  // Encoded forms of an event (SSE frame, WebSocket messages) computed once, shared by all.
  private readonly memos = new WeakMap<object, Map<string, unknown>>();

  constructor(ports: StreamPorts, options: Partial<StreamOptions> = {}) {
    this.ports = ports;
    this.options = { ...defaultStreamOptions, ...options };
    const call = <T>(fn: (v: T) => void, v: T) => this.safely(() => fn(v));
    this.pings = new Ticker(this.options.ssePingMs, () => ({ ts: Date.now() }), call);
    this.snapshots = new Ticker(this.options.mempoolSnapshotMs, () => this.mempoolSnapshot(), call);
  }

  /** Live subscribers (SSE and WebSocket) attached to the feed right now. */
  get subscriberCount(): number {
    return this.count;
  }

  /** The mempool's size now. */
  mempoolSnapshot(): MempoolSnapshot {
    return { total: this.ports.mempool.size, ts: Date.now() };
  }

  /** Refuses a new subscriber when the node is at `maxSubscribers`. */
  checkCapacity(): void {
    if (this.count >= this.options.maxSubscribers)
      throw new ChainError('RATE_LIMITED', `this node serves at most ${this.options.maxSubscribers} live subscribers`);
  }

  // A throwing handler must not stop the others (or reach RxJS, which would rethrow it
  // asynchronously and crash the process); it only ever concerns its own subscriber.
  private safely(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.ports.log.warn('stream subscriber failed', { error: (e as Error).message });
    }
  }

  /** The one subscription to the node's feed, taken while anyone listens to it. */
  private followFeed(): void {
    if (this.feedSub) return;
    const sub = this.ports.feed.events$.subscribe({
      // Handlers added while an event is delivered hear the next one, not this one.
      next: (e) => {
        for (const h of [...this.feedHandlers]) {
          const event = h.event;
          if (event) this.safely(() => event(e));
        }
      },
      complete: () => {
        const all = [...this.feedHandlers];
        this.feedHandlers.clear();
        this.feedSub = null;
        for (const h of all) {
          const end = h.end;
          if (end) this.safely(() => end());
        }
      },
    });
    // A feed that already ended completes inside subscribe: nothing is left to follow.
    if (this.feedHandlers.size > 0) this.feedSub = sub;
    else sub.unsubscribe();
  }

  /** Attaches a subscriber; the returned function detaches it (idempotent). */
  subscribe(h: StreamHandlers): () => void {
    this.checkCapacity();
    this.count++;
    let done = false;
    const ping = h.ping;
    const snapshot = h.snapshot;
    if (ping) this.pings.add(ping);
    if (snapshot) this.snapshots.add(snapshot);
    if (h.event || h.end) {
      this.feedHandlers.add(h);
      this.followFeed();
    }
    return () => {
      if (done) return;
      done = true;
      this.count--;
      if (ping) this.pings.delete(ping);
      if (snapshot) this.snapshots.delete(snapshot);
      if (this.feedHandlers.delete(h) && this.feedHandlers.size === 0 && this.feedSub) {
        this.feedSub.unsubscribe();
        this.feedSub = null;
      }
    };
  }

  /** `compute()` once per (event, key); every subscriber gets the same encoded value. */
  memo<T>(event: object, key: string, compute: () => T): T {
    let m = this.memos.get(event);
    if (!m) {
      m = new Map();
      this.memos.set(event, m);
    }
    if (!m.has(key)) m.set(key, compute());
    return m.get(key) as T;
  }
}
