// Page work that events ask for often but that need run only now and then, and not in a hidden tab.

/** Runs `fn` at most every `ms` after `schedule()` calls, and only while the page is visible. */
export class Throttle {
  constructor(ms, fn) {
    this.ms = ms;
    this.fn = fn;
    this.at = 0;
    this.timer = null;
    this.owed = false;
  }

  schedule() {
    if (document.hidden) {
      this.owed = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => this.run(), Math.max(0, this.at + this.ms - Date.now()));
  }

  run() {
    this.timer = null;
    this.owed = false;
    this.at = Date.now();
    this.fn().catch(() => undefined);
  }

  /** The page is shown again: run now if something was skipped meanwhile. */
  shown() {
    if (this.owed) this.schedule();
  }
}
