/**
 * Every transaction of the chain numbered in chain order (0 = the first ever confirmed), as
 * runs of one block each: the explorer's all-transactions list pages through the whole history
 * newest first, and a page at any depth is one short range read (queries/allTxsPage.ts), the
 * way an address's history is (projections/chainIndex.ts).
 */
import type { BlockEvent, ChainInfo } from './events.ts';
import type { Projection } from './projection.ts';
import { listNumber, rowGroup } from './rows.ts';

/**
 * One block's transactions in the global numbering: `[seq, blockIndex, txCount, blockTime]`, the
 * block's first transaction being number `seq` (its others follow in block order).
 */
export type TxRun = [seq: number, blockIndex: number, txCount: number, blockTime: number];

/** `r!<seq>` -> the run of the block whose first transaction is number `seq` (blocks without transactions have none). */
export const txRunRows = rowGroup<TxRun, void, number>(() => 'r!', listNumber);

/** How many transactions the chain has confirmed so far (the next one's number). */
export interface AllTxsState {
  count: number;
}

/** The global transaction numbering; a block's undo is its transaction count. */
export const allTxsProjection: Projection<AllTxsState, number, number> = {
  name: 'allTxs',
  version: 1,
  init: (_info: ChainInfo) => ({ count: 0 }),
  apply(s, ev: BlockEvent) {
    const n = ev.block.transactions.length;
    if (n === 0) return { state: s, undo: 0 };
    const run: TxRun = [s.count, ev.block.index, n, ev.block.timestamp];
    // The number was just counted: the row cannot exist yet.
    const ops = [txRunRows.put(undefined, s.count, run, true)];
    s.count += n;
    return { state: s, ops, undo: n };
  },
  save: (s) => s.count,
  load: (count) => ({ count }),
  revert(s, n) {
    s.count -= n;
    return s;
  },
};
