/**
 * Transactions per second. `average`: the transactions of the last 100 blocks divided by the
 * seconds from the parent of the first of them to the last; `peak`: over every block so far,
 * the highest txCount / seconds since its parent, with the block it happened in. Block
 * timestamps only (projections have no clock). Figures are rounded to 3 decimals.
 */
import type { BlockEvent, ChainInfo } from './events.ts';
import type { Projection } from './projection.ts';

/** Blocks in the average's window. */
export const TPS_WINDOW = 100;

/** The window (timestamps of the last 101 blocks and tx counts of the last 100) and the peak. */
export interface TpsState {
  timestamps: number[];
  counts: number[];
  peak: number;
  peakBlock: number | null;
}

/** The TPS record. */
export interface TpsRecord {
  average: number;
  peak: number;
  peakBlock: number | null;
  blocks: number;
  transactions: number;
  seconds: number;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** A block's undo: the peak and its block before the block, and the count and timestamp it pushed out. */
type TpsUndo = [number, number | null, number | null, number | null];

/** Transactions per second over block timestamps (a block's undo is a few numbers, not the window). */
export const tpsProjection: Projection<TpsState, TpsState, TpsUndo> = {
  name: 'tps',
  version: 1,
  init: (info: ChainInfo) => ({ timestamps: [info.genesisBlock.timestamp], counts: [], peak: 0, peakBlock: null }),
  apply(s, ev: BlockEvent) {
    const { block } = ev;
    // What reverting the block takes: the peak before it, and the window entries it pushed out.
    const undo: TpsUndo = [s.peak, s.peakBlock, null, null];
    const parentTs = s.timestamps[s.timestamps.length - 1];
    const n = block.transactions.length;
    const seconds = (block.timestamp - parentTs) / 1000;
    const rate = n === 0 ? 0 : n / Math.max(seconds, 0.001);
    if (rate > s.peak) {
      s.peak = rate;
      s.peakBlock = block.index;
    }
    s.timestamps.push(block.timestamp);
    s.counts.push(n);
    if (s.counts.length > TPS_WINDOW) {
      undo[2] = s.counts.shift() ?? null;
      undo[3] = s.timestamps.shift() ?? null;
    }
    return { state: s, undo };
  },
  save: (s) => s,
  load: (saved) => saved,
  revert(s, undo) {
    const [peak, peakBlock, count, timestamp] = undo;
    s.peak = peak;
    s.peakBlock = peakBlock;
    s.counts.pop();
    s.timestamps.pop();
    if (count !== null && timestamp !== null) {
      s.counts.unshift(count);
      s.timestamps.unshift(timestamp);
    }
    return s;
  },
};

/** The served record. */
export function tpsRecord(s: TpsState): TpsRecord {
  const transactions = s.counts.reduce((a, b) => a + b, 0);
  const seconds = (s.timestamps[s.timestamps.length - 1] - s.timestamps[0]) / 1000;
  return {
    average: seconds > 0 ? round(transactions / seconds) : 0,
    peak: round(s.peak),
    peakBlock: s.peakBlock,
    blocks: s.counts.length,
    transactions,
    seconds,
  };
}
