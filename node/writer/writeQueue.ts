/**
 * The writer's one queue: write-side work runs one task at a time, in arrival order. Block work
 * is timed for the `onBlockWork` observer (the wait for its turn is not counted) and its outcome
 * recorded for health.
 */
import type { HealthMonitor } from '../healthMonitor.ts';

/** What kind of block work a task is (other write-side work is neither timed nor counted). */
export type BlockWork = 'import' | 'produce';

/** Observer of block work: seconds each import or production took, or its error. */
export type BlockWorkObserver = (kind: BlockWork, seconds: number, error?: unknown) => void;

/** Runs write-side work one at a time. */
export class WriteQueue {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly health: HealthMonitor;
  private readonly observe: BlockWorkObserver | undefined;

  constructor(health: HealthMonitor, observe?: BlockWorkObserver) {
    this.health = health;
    this.observe = observe;
  }

  /** Runs `fn` after every task queued before it; a failed task does not stop the queue. */
  run<T>(fn: () => Promise<T>, work?: BlockWork): Promise<T> {
    const observe = this.observe;
    const timed = work
      ? async () => {
          const started = performance.now();
          const kind = work === 'produce' ? 'production' : 'import';
          try {
            const out = await fn();
            observe?.(work, (performance.now() - started) / 1000);
            this.health.record(kind);
            return out;
          } catch (e) {
            observe?.(work, (performance.now() - started) / 1000, e);
            this.health.record(kind, e);
            throw e;
          }
        }
      : fn;
    const run = this.queue.then(timed, timed);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
