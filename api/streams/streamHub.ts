/**
 * The one place live streams meet the node: a single shared subscription to `node.events$`
 * fanned out to every SSE and WebSocket subscriber, plus the shared heartbeat and mempool ticks.
 */
import { interval, map, share, type Observable, type Subscription } from 'rxjs';
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

/** Fans the node's event feed out to live subscribers, encoding each event once for all of them. */
export class StreamHub {
  readonly ports: StreamPorts;
  readonly options: StreamOptions;
  /** Subscribers disconnected for not keeping up, since start (for tests and operators). */
  slowConsumerDrops = 0;
  private readonly feed$: Observable<ChainEvent>;
  private readonly pings$: Observable<{ ts: number }>;
  private readonly snapshots$: Observable<MempoolSnapshot>;
  private count = 0;
  // Encoded forms of an event (SSE frame, WebSocket messages) computed once, shared by all.
  private readonly memos = new WeakMap<object, Map<string, unknown>>();

  constructor(ports: StreamPorts, options: Partial<StreamOptions> = {}) {
    this.ports = ports;
    this.options = { ...defaultStreamOptions, ...options };
    // share(): one subscription to the node's feed and one timer per tick kind, however many
    // subscribers; each is dropped when the last subscriber leaves.
    this.feed$ = ports.feed.events$.pipe(share());
    this.pings$ = interval(this.options.ssePingMs).pipe(
      map(() => ({ ts: Date.now() })),
      share(),
    );
    this.snapshots$ = interval(this.options.mempoolSnapshotMs).pipe(
      map(() => this.mempoolSnapshot()),
      share(),
    );
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

  /** Attaches a subscriber; the returned function detaches it (idempotent). */
  subscribe(h: StreamHandlers): () => void {
    this.checkCapacity();
    const subs: Subscription[] = [];
    // A throwing handler must not reach RxJS, which would rethrow it asynchronously and crash
    // the process; it only ever concerns its own subscriber.
    const safe =
      <T>(fn: (v: T) => void) =>
      (v: T) => {
        try {
          fn(v);
        } catch (e) {
          this.ports.log.warn('stream subscriber failed', { error: (e as Error).message });
        }
      };
    if (h.event || h.end) {
      subs.push(
        this.feed$.subscribe({ next: h.event ? safe(h.event) : undefined, complete: h.end ? () => safe(h.end!)(undefined) : undefined }),
      );
    }
    if (h.ping) subs.push(this.pings$.subscribe(safe(h.ping)));
    if (h.snapshot) subs.push(this.snapshots$.subscribe(safe(h.snapshot)));
    this.count++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.count--;
      for (const s of subs) s.unsubscribe();
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
