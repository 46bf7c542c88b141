/**
 * Fee estimate: the fees of the last 100 TASK_SUBMIT transactions in blocks, and their 25th,
 * 50th and 90th percentiles (nearest rank: the smallest fee with at least p% of the sample at or
 * below it). With no submission yet every figure is MIN_TASK_FEE and `sample` is 0.
 */
import { MIN_TASK_FEE } from '../core/economics.ts';
import { isTx } from '../core/tx/handler.ts';
import { TASK_SUBMIT } from '../core/tx/task/task.ts';
import type { BlockEvent } from './events.ts';
import type { Projection } from './projection.ts';

/** How many recent task submissions the estimate uses. */
const FEE_SAMPLE_SIZE = 100;

/** The last fees, oldest first (decimal strings). */
export interface FeeEstimateState {
  fees: string[];
}

/** The fee estimate record. */
export interface FeeEstimate {
  low: string;
  medium: string;
  high: string;
  sample: number;
}

/** Recent task submission fees. */
export const feeEstimateProjection: Projection<FeeEstimateState, FeeEstimateState> = {
  name: 'feeEstimate',
  version: 1,
  init: () => ({ fees: [] }),
  apply(s, ev: BlockEvent) {
    for (const tx of ev.txs) if (isTx(tx, TASK_SUBMIT)) s.fees.push(tx.fee);
    if (s.fees.length > FEE_SAMPLE_SIZE) s.fees.splice(0, s.fees.length - FEE_SAMPLE_SIZE);
    return { state: s };
  },
  save: (s) => s,
  load: (saved) => saved,
};

/** The nearest-rank percentile `p` (1..100) of ascending values. */
function percentile(sorted: readonly bigint[], p: number): bigint {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The fee estimate record of a state. */
export function feeEstimate(s: FeeEstimateState): FeeEstimate {
  if (s.fees.length === 0) {
    const min = MIN_TASK_FEE.toString();
    return { low: min, medium: min, high: min, sample: 0 };
  }
  const sorted = s.fees.map(BigInt).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    low: percentile(sorted, 25).toString(),
    medium: percentile(sorted, 50).toString(),
    high: percentile(sorted, 90).toString(),
    sample: sorted.length,
  };
}
