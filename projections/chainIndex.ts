/**
 * Lookup indexes over the block log: block hash -> height, transaction hash -> position,
 * and each address's history. Rows only; the blocks themselves stay in the log.
 */
import { heightKey } from '../core/encoding.ts';
import { partiesOf } from '../core/tx/registry.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { missingCounts, nextNumber, type RowCounters, rowCounters, takeCounts, trimCounts } from './rowCounters.ts';
import { row, rowGroup } from './rows.ts';

/** Where a transaction sits in the chain. */
export interface TxLocation {
  blockIndex: number;
  position: number;
}

/**
 * An address history row: the address's transactions in one block, numbered from `seq` on
 * (`[seq, blockIndex, position, position, ...]`, positions ascending). One row per address and
 * block, not per transaction: a busy address writes one row a block (docs/replay.md).
 */
export type HistoryRun = [seq: number, blockIndex: number, ...positions: number[]];

/** blockHash: `<block hash>` -> its height. */
export const blockHeightRow = row<number>('');
/** txIndex: `<transaction hash>` -> where it sits. */
export const txLocationRow = row<TxLocation>('');
/** addressHistory: `c!<address>` -> how many transactions the address has. */
export const historyCountRow = row<number>('c!');
/**
 * addressHistory: `h!<address>!<seq>`, the run of an address's transactions that starts at its
 * `seq`-th (0 = its first; newest last in key order).
 */
export const historyRows = rowGroup<HistoryRun, string, number>((address) => `h!${address}!`, heightKey);

/** Block hash -> height. */
export const blockHashProjection: Projection<null> = {
  name: 'blockHash',
  version: 1,
  init: () => null,
  apply: (state, ev: BlockEvent) => {
    const ops: KvOp[] = [blockHeightRow.put(ev.block.hash, ev.block.index)];
    if (ev.block.index === 1) ops.push(blockHeightRow.put(ev.block.previousHash, 0));
    return { state, ops };
  },
};

/** Transaction hash -> block height and position. */
export const txIndexProjection: Projection<null> = {
  name: 'txIndex',
  version: 1,
  init: () => null,
  apply: (state, ev: BlockEvent) => ({
    state,
    ops: ev.txs.map(
      // A transaction is in the chain once (its nonce), so its row is always new.
      (tx, position): KvOp => txLocationRow.put(tx.hash, { blockIndex: ev.block.index, position }, true),
    ),
  }),
};

/**
 * Every address's transactions (those it sends or is named in: `partiesOf`), numbered per address in chain order,
 * with the address's count: the page at any offset is a range read (`count - 1 - offset`
 * downwards, one row per block), so deep pages cost what shallow ones do. The counts are rows
 * (`c!<address>`, sorted before the history rows); memory holds a bounded cache of them
 * (ChainInfo.accountCache, projections/rowCounters.ts), and one the cache lost is read back before
 * the block that counts it is folded. A restart reads none.
 */
export const addressHistoryProjection: Projection<RowCounters, null> = {
  name: 'addressHistory',
  // v3: every party of a transaction (a DM's recipient, a like's author, a mint's owner), not only `to`.
  // v4: one row per address and block (HistoryRun), not one per transaction.
  version: 4,
  init: (info) => rowCounters(info.accountCache),
  apply(state, ev: BlockEvent) {
    const ops: KvOp[] = [];
    for (const [address, positions] of partyPositions(ev)) {
      const key = historyCountRow.key(address);
      const seq = nextNumber(state, key, 'addressHistory', positions.length);
      // Entry n of an address exists only once its count passed n: the run's key is new.
      ops.push(historyRows.put(address, seq, [seq, ev.block.index, ...positions], true));
      ops.push(historyCountRow.put(address, seq + positions.length));
    }
    trimCounts(state);
    return { state, ops };
  },
  // One count row a party, not one a transaction (a busy sender names itself in every one).
  needs: (state, ev) =>
    missingCounts(
      state,
      Array.from(partyPositions(ev).keys(), (a) => historyCountRow.key(a)),
    ),
  take: (state, rows) => takeCounts(state, rows),
  // The rows are the truth: a restart (or a rollback) starts with an empty cache and reads nothing.
  save: () => null,
  load: (_saved, info) => rowCounters(info.accountCache),
};

// Worked out once a block: the runner asks `needs` and then folds the same event (the last
// event's answer is kept, never mutated: a WeakMap entry a block would cost the GC more).
let last: { ev: BlockEvent; parties: Map<string, number[]> } | null = null;

/** Every party of `ev`'s transactions (first seen first) with the positions of its transactions, ascending. */
function partyPositions(ev: BlockEvent): Map<string, number[]> {
  if (last?.ev === ev) return last.parties;
  const parties = new Map<string, number[]>();
  const txs = ev.txs;
  for (let position = 0; position < txs.length; position++)
    for (const party of partiesOf(txs[position])) {
      const positions = parties.get(party);
      if (positions) positions.push(position);
      else parties.set(party, [position]);
    }
  last = { ev, parties };
  return parties;
}
