/**
 * Whether the node's block work is succeeding: consecutive failures and the last success of block
 * production and of block import, read by GET /api/health. Only the node's own faults count: a
 * block a peer sent that fails validation (a ChainError) is the peer's fault and leaves import healthy.
 */
import { ChainError } from '../core/errors.ts';
import type { HealthView, NodeHealth } from './ports.ts';

/** Health settings. */
export interface HealthOptions {
  /** Consecutive failures of production, or of import, before the node reports itself degraded. */
  failuresBeforeDegraded: number;
}

/** Default: degraded after 3 failures in a row (3 missed own slots, or 3 failed imports). */
const defaultHealthOptions: HealthOptions = { failuresBeforeDegraded: 3 };

type Work = 'production' | 'import';

interface Record {
  streak: number;
  lastSuccess: number | null;
  lastError: string;
}

/** Counts block work outcomes. */
export class HealthMonitor implements HealthView {
  private readonly opts: HealthOptions;
  private readonly clock: () => number;
  private readonly work: { [K in Work]: Record } = {
    production: { streak: 0, lastSuccess: null, lastError: '' },
    import: { streak: 0, lastSuccess: null, lastError: '' },
  };

  constructor(clock: () => number, opts: Partial<HealthOptions> = {}) {
    this.clock = clock;
    this.opts = { ...defaultHealthOptions, ...opts };
  }

  /** Records one outcome of block production or import (`error` absent = success). */
  record(work: Work, error?: unknown): void {
    const r = this.work[work];
    if (error === undefined) {
      r.streak = 0;
      r.lastSuccess = this.clock();
      return;
    }
    // A block refused on its merits is the sender's fault; our own production has no such excuse.
    if (work === 'import' && error instanceof ChainError) return;
    r.streak++;
    r.lastError = error instanceof Error ? error.message : String(error);
  }

  health(): NodeHealth {
    for (const work of ['production', 'import'] as const) {
      const r = this.work[work];
      if (r.streak < this.opts.failuresBeforeDegraded) continue;
      const since = r.lastSuccess === null ? 'no success since start' : `last success ${new Date(r.lastSuccess).toISOString()}`;
      return { status: 'degraded', reason: `block ${work} failed ${r.streak} times in a row (${since}): ${r.lastError}` };
    }
    return { status: 'ok' };
  }
}
