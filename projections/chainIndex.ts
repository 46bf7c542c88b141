/**
 * Lookup indexes over the block log: block hash -> height, transaction hash -> position,
 * and each address's history. Rows only; the blocks themselves stay in the log.
 */
import { heightKey } from '../core/encoding.ts';
import { partiesOf } from '../core/tx/registry.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';

/** Where a transaction sits in the chain. */
export interface TxLocation {
  blockIndex: number;
  position: number;
}

/** Row key of an address's transaction count. */
export const countKey = (address: string): string => `c!${address}`;

/** Row key of an address's `seq`-th transaction (0 = its first; newest last in key order). */
export function historyKey(address: string, seq: number): string {
  return `h!${address}!${heightKey(seq)}`;
}

/** An address history row: the transaction and where it sits (no second lookup to serve it). */
export interface HistoryRow extends TxLocation {
  hash: string;
}

/** Block hash -> height. */
export const blockHashProjection: Projection<null> = {
  name: 'blockHash',
  version: 1,
  init: () => null,
  apply: (state, ev: BlockEvent) => {
    const ops: KvOp[] = [{ type: 'put', key: ev.block.hash, value: ev.block.index }];
    if (ev.block.index === 1) ops.push({ type: 'put', key: ev.block.previousHash, value: 0 });
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
    ops: ev.block.transactions.map(
      (tx, position): KvOp => ({ type: 'put', key: tx.hash, value: { blockIndex: ev.block.index, position } satisfies TxLocation }),
    ),
  }),
};

/**
 * Every address's transactions (those it sends or is named in: `partiesOf`), numbered per address in chain order,
 * with the address's count: the page at any offset is a range read (`count - 1 - offset`
 * downwards), so deep pages cost what shallow ones do. The state is the counts, restored from
 * their rows (which sort before the history rows).
 */
export const addressHistoryProjection: Projection<Map<string, number>> = {
  name: 'addressHistory',
  // v3: every party of a transaction (a DM's recipient, a like's author, a mint's owner), not only `to`.
  version: 3,
  init: () => new Map(),
  apply(state, ev: BlockEvent) {
    const ops: KvOp[] = [];
    const touched = new Set<string>();
    const add = (address: string, row: HistoryRow) => {
      const n = state.get(address) ?? 0;
      ops.push({ type: 'put', key: historyKey(address, n), value: row });
      state.set(address, n + 1);
      touched.add(address);
    };
    ev.block.transactions.forEach((tx, position) => {
      const row: HistoryRow = { hash: tx.hash, blockIndex: ev.block.index, position };
      for (const party of partiesOf(tx)) add(party, row);
    });
    for (const a of touched) ops.push({ type: 'put', key: countKey(a), value: state.get(a) });
    return { state, ops };
  },
  async restore(rows) {
    const state = new Map<string, number>();
    for await (const [key, value] of rows) {
      if (!key.startsWith('c!')) break;
      state.set(key.slice(2), value as number);
    }
    return state;
  },
};
