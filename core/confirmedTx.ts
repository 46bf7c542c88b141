/** A confirmed transaction as served: the signed transaction untouched, plus where it landed. */
import type { Block } from './block.ts';
import type { SignedTx } from './tx/handler.ts';

/** Where a transaction landed. `blockHeight` always names the including block's height. */
export interface Placement {
  blockIndex: number;
  blockHeight: number;
  blockHash: string;
  position: number;
}

/**
 * A confirmed transaction as served. The signed fields are never overwritten, so it re-hashes
 * to its `hash`: where a placement name is also a field of the type (BURN's `blockIndex`), the
 * signed value stays and the placement is read from the name that never collides
 * (`blockHeight`).
 */
export type ConfirmedTx = SignedTx & Placement;

/** The placement names, in the order they are served. */
export const PLACEMENT_FIELDS = ['blockIndex', 'blockHeight', 'blockHash', 'position'] as const satisfies readonly (keyof Placement)[];

/** The served form of the transaction at `position` of block `b`. */
export function confirmedTx(tx: SignedTx, b: Pick<Block, 'index' | 'hash'>, position: number): ConfirmedTx {
  const placement: Placement = { blockIndex: b.index, blockHeight: b.index, blockHash: b.hash, position };
  const out: Record<string, unknown> = { ...tx };
  for (const k of PLACEMENT_FIELDS) if (!Object.hasOwn(tx, k)) out[k] = placement[k];
  return out as ConfirmedTx;
}

/** A confirmed transaction as lists serve it: with the time its block recorded (`blockTime`, epoch ms). */
export type ListedTx = ConfirmedTx & { blockTime: number };

/** The listed form of the transaction at `position` of block `b`. */
export function listedTx(tx: SignedTx, b: Pick<Block, 'index' | 'hash' | 'timestamp'>, position: number): ListedTx {
  return { ...confirmedTx(tx, b, position), blockTime: b.timestamp };
}
