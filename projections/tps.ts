/**
 * Transactions per second. `average`: the transactions of the last 100 blocks divided by the
 * seconds from the parent of the first of them to the last; `peak`: over every block so far,
 * the highest txCount / seconds since its parent, with the block it happened in. Block
 * timestamps only (projections have no clock). Figures are rounded to 3 decimals.
 */
import type { BlockEvent, ChainInfo } from './events.ts';
import { heightKey } from '../core/encoding.ts';
import type { KvOp, Projection } from './projection.ts';

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

/** A block's row: `b!<height>` -> [timestamp, transactions, parent's timestamp]. */
type TpsRow = [number, number, number];
const blockKey = (index: number) => `b!${heightKey(index)}`;
const PEAK_KEY = 'peak';

/**
 * Transactions per second over block timestamps. Each block is one row, and the row leaving the
 * window is deleted; the peak is one row written when it moves. A block costs two or three row
 * writes however long the window, and the state is rebuilt from the rows on restore.
 */
export const tpsProjection: Projection<TpsState> = {
  name: 'tps',
  // v2: the window as one row a block instead of a saved state.
  version: 2,
  init: (info: ChainInfo) => ({ timestamps: [info.genesisBlock.timestamp], counts: [], peak: 0, peakBlock: null }),
  apply(s, ev: BlockEvent) {
    const { block } = ev;
    const parentTs = s.timestamps[s.timestamps.length - 1];
    const n = block.transactions.length;
    const seconds = (block.timestamp - parentTs) / 1000;
    const rate = n === 0 ? 0 : n / Math.max(seconds, 0.001);
    const row: TpsRow = [block.timestamp, n, parentTs];
    const ops: KvOp[] = [{ type: 'put', key: blockKey(block.index), value: row, fresh: true }];
    if (rate > s.peak) {
      s.peak = rate;
      s.peakBlock = block.index;
      ops.push({ type: 'put', key: PEAK_KEY, value: [rate, block.index] });
    }
    s.timestamps.push(block.timestamp);
    s.counts.push(n);
    if (s.counts.length > TPS_WINDOW) {
      // Blocks are consecutive: the one leaving is index - WINDOW, its row what the window held.
      const prev: TpsRow = [s.timestamps[1], s.counts[0], s.timestamps[0]];
      ops.push({ type: 'del', key: blockKey(block.index - TPS_WINDOW), prev });
      s.counts.shift();
      s.timestamps.shift();
    }
    return { state: s, ops };
  },
  async restore(rows, info) {
    const s = tpsProjection.init(info);
    for await (const [key, value] of rows) {
      if (key === PEAK_KEY) [s.peak, s.peakBlock] = value as [number, number];
      else {
        const [ts, n, parentTs] = value as TpsRow;
        // The oldest row names the window's parent.
        if (s.counts.length === 0) s.timestamps = [parentTs];
        s.timestamps.push(ts);
        s.counts.push(n);
      }
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
