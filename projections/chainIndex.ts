/**
 * Lookup indexes over the block log: block hash -> height, transaction hash -> position,
 * and each address's history. Rows only; the blocks themselves stay in the log.
 */
import { heightKey } from '../core/encoding.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';

/** Where a transaction sits in the chain. */
export interface TxLocation {
  blockIndex: number;
  position: number;
}

/** Row key of an address history entry: newest last in key order. */
export function historyKey(address: string, blockIndex: number, position: number): string {
  return `${address}!${heightKey(blockIndex)}!${position.toString().padStart(5, '0')}`;
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

/** Every address's transactions (as sender or recipient), ordered by height. */
export const addressHistoryProjection: Projection<null> = {
  name: 'addressHistory',
  version: 1,
  init: () => null,
  apply(state, ev: BlockEvent) {
    const ops: KvOp[] = [];
    ev.block.transactions.forEach((tx, position) => {
      const value = tx.hash;
      ops.push({ type: 'put', key: historyKey(tx.from, ev.block.index, position), value });
      const to = tx.to;
      if (typeof to === 'string' && to !== tx.from) ops.push({ type: 'put', key: historyKey(to, ev.block.index, position), value });
    });
    return { state, ops };
  },
};
