/**
 * Concurrency by target: at most `max` jobs run at once, and at most `maxPerTarget` of them for
 * one target, so a target that never answers holds its own few slots and no one else's. Jobs
 * over either bound wait in arrival order; when a job ends, the first waiting job whose target
 * has room starts.
 */

/** The target of an alert: a webhook's host (with its port) or an e-mail's domain. */
export function targetHost(target: string): string {
  if (/^https?:\/\//i.test(target)) {
    try {
      return new URL(target).host;
    } catch {
      return target;
    }
  }
  return target.slice(target.lastIndexOf('@') + 1).toLowerCase();
}

/** Runs jobs under a global and a per-target concurrency bound. */
export class TargetGate<T> {
  private readonly max: number;
  private readonly maxPerTarget: number;
  private readonly targetOf: (job: T) => string;
  private readonly run: (job: T) => Promise<void>;
  private readonly inflight = new Set<Promise<void>>();
  private readonly perTarget = new Map<string, number>();
  private readonly waiting: T[] = [];

  constructor(opts: { max: number; maxPerTarget: number; targetOf: (job: T) => string; run: (job: T) => Promise<void> }) {
    this.max = opts.max;
    this.maxPerTarget = opts.maxPerTarget;
    this.targetOf = opts.targetOf;
    this.run = opts.run;
  }

  /** Jobs running. */
  get running(): number {
    return this.inflight.size;
  }

  /** Jobs waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Starts `job` now if both bounds allow, else queues it. */
  offer(job: T): void {
    const target = this.targetOf(job);
    if (this.inflight.size >= this.max || (this.perTarget.get(target) ?? 0) >= this.maxPerTarget) {
      this.waiting.push(job);
      return;
    }
    this.perTarget.set(target, (this.perTarget.get(target) ?? 0) + 1);
    const p = this.run(job)
      .catch(() => undefined)
      .finally(() => {
        this.inflight.delete(p);
        const left = (this.perTarget.get(target) ?? 1) - 1;
        if (left <= 0) this.perTarget.delete(target);
        else this.perTarget.set(target, left);
        this.next();
      });
    this.inflight.add(p);
  }

  /** Starts the first waiting job whose target has room. */
  private next(): void {
    if (this.inflight.size >= this.max) return;
    for (let i = 0; i < this.waiting.length; i++) {
      if ((this.perTarget.get(this.targetOf(this.waiting[i])) ?? 0) < this.maxPerTarget) {
        this.offer(this.waiting.splice(i, 1)[0]);
        return;
      }
    }
  }

  /** Drops the waiting jobs and resolves once the running ones have ended. */
  async drain(): Promise<void> {
    this.waiting.length = 0;
    await Promise.allSettled([...this.inflight]);
  }
}
