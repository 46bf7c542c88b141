/**
 * The node's own stalls: a process paused (SIGSTOP, a suspended VM, swap) or an event loop held by
 * long work reads, when it resumes, everything its peers sent meanwhile in one burst. Copies of
 * one message among it are the node's own lateness, not its peers' replays: gossipsub's
 * retransmissions and the peers' re-announcements of pending transactions piled up unread. The
 * gossip guards (p2p/replayGuard.ts, p2p/staleGossip.ts) forgive them while `forgiving` says so,
 * else an honest peer is banned for the node's own pause (an authority back from a 5 s pause
 * banned a follower for 10 minutes in the soak of 2026-11-28).
 *
 * A tick every `tickMs` notes the time; a gap between ticks longer than `stallMs` is a stall, and
 * the node forgives for as long again (at least `minGraceMs`, at most `maxGraceMs`) once it
 * resumes. The I/O a resumed loop reads first comes before its first late tick, so a gap still
 * open (no tick for longer than `stallMs`) counts too.
 */

/** StallWatch options. */
export interface StallWatchOptions {
  tickMs: number;
  /** A gap between ticks longer than this is a stall. */
  stallMs: number;
  minGraceMs: number;
  maxGraceMs: number;
}

const defaultStallWatchOptions: StallWatchOptions = { tickMs: 250, stallMs: 1_500, minGraceMs: 5_000, maxGraceMs: 60_000 };

/** Watches the event loop for stalls of its own process. */
export class StallWatch {
  private readonly opts: StallWatchOptions;
  private readonly now: () => number;
  private last: number;
  private forgiveUntil = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Stalls seen since start, and the longest (ms): operators' figures. */
  readonly seen = { stalls: 0, longestMs: 0 };

  /** Hears each stall (its length in ms) once it is seen. */
  onStall: (ms: number) => void = () => {};

  constructor(options: Partial<StallWatchOptions> = {}, now: () => number = () => performance.now()) {
    this.opts = { ...defaultStallWatchOptions, ...options };
    this.now = now;
    this.last = now();
  }

  /** Starts ticking (never what keeps the process alive). */
  start(): void {
    if (this.timer) return;
    this.last = this.now();
    this.timer = setInterval(() => this.tick(), this.opts.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Notes a tick at `t`: a gap since the last one beyond `stallMs` was a stall, forgiven for as long again from now. */
  tick(t = this.now()): void {
    const gap = t - this.last;
    this.last = t;
    if (gap <= this.opts.stallMs) return;
    this.seen.stalls++;
    this.seen.longestMs = Math.max(this.seen.longestMs, gap);
    const grace = Math.min(this.opts.maxGraceMs, Math.max(this.opts.minGraceMs, gap));
    this.forgiveUntil = Math.max(this.forgiveUntil, t + grace);
    this.onStall(gap);
  }

  /** True while what peers sent is read late through this node's own stall: just after one, or in one not yet ticked. */
  forgiving(t = this.now()): boolean {
    return t < this.forgiveUntil || t - this.last > this.opts.stallMs;
  }
}
