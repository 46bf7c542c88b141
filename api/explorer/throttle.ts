// Page work that events ask for often but that need run only now and then, and not in a hidden tab.

/** What a Throttle reads of its surroundings: the clock, timers and whether the page is hidden (a test gives its own). */
export interface ThrottleHost {
  now(): number;
  hidden(): boolean;
  setTimeout(fn: () => void, ms: number): unknown;
}

const pageHost: ThrottleHost = {
  now: () => Date.now(),
  hidden: () => document.hidden,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
};

/** Runs `fn` at most every `ms` after `schedule()` calls, and only while the page is visible. */
export class Throttle {
  /** When `fn` last ran (ms); a caller may set it to hold off the first run. */
  at = 0;
  private timer: unknown = null;
  private owed = false;
  private readonly ms: number;
  private readonly fn: () => Promise<unknown>;
  private readonly host: ThrottleHost;

  constructor(ms: number, fn: () => Promise<unknown>, host: ThrottleHost = pageHost) {
    this.ms = ms;
    this.fn = fn;
    this.host = host;
  }

  schedule(): void {
    if (this.host.hidden()) {
      this.owed = true;
      return;
    }
    if (this.timer !== null) return;
    this.timer = this.host.setTimeout(() => this.run(), Math.max(0, this.at + this.ms - this.host.now()));
  }

  run(): void {
    this.timer = null;
    this.owed = false;
    this.at = this.host.now();
    this.fn().catch(() => undefined);
  }

  /** The page is shown again: run now if something was skipped meanwhile. */
  shown(): void {
    if (this.owed) this.schedule();
  }
}
