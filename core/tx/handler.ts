/**
 * The contract every transaction type implements, and helpers they share. How to add a type or a
 * family, step by step: core/tx/registry.ts.
 */
import { present } from '../errors.ts';
import type { UploadHashes } from '../uploadHashes.ts';
import type { Genesis } from '../genesis.ts';
import type { PayloadOf, TxSchema } from '../schema.ts';
import type { StateReader, TxState } from '../txState.ts';

export type { StateReader } from '../txState.ts';

/** Where and when a transaction is being validated or applied (and a block begun). */
export interface TxContext {
  /** Height of the block the transaction is (or would be) included in. */
  height: number;
  /** That block's timestamp, or the node's clock for admission. */
  timestamp: number;
  /** That block's proposer; absent for mempool admission. */
  proposer?: string;
  genesis: Genesis;
  /** Mempool admission only: incremental hashes of pending uploads (never set for a block). */
  uploadHashes?: UploadHashes;
}

/** What a transaction takes from its sender, for balance checks and mempool accounting. */
interface TxCost {
  balance: bigint;
  storage: bigint;
}

/** A fully signed transaction of any type, as it travels and is stored. */
export interface SignedTx {
  type: string;
  from: string;
  nonce: number;
  timestamp: number;
  publicKey: string;
  hash: string;
  signature: string;
  [field: string]: unknown;
}

/** A signed transaction of the type `S` describes, with its fields typed. */
export type SignedTxOf<S> = PayloadOf<S> & { publicKey: string; hash: string; signature: string };

/** The rules of one type, over its typed payload. */
export interface TxRules<S extends TxSchema> {
  /**
   * What it takes from the sender; by default its `fee` and no storage. `state` is given when
   * validating against a state (admission, block application); without it (the mempool's pending
   * sums) the cost must not be lower.
   */
  cost?(tx: SignedTxOf<S>, state?: StateReader): TxCost;
  /** Type-specific checks against state; throws ChainError VALIDATION_FAILED (or a sharper code). */
  check?(tx: SignedTxOf<S>, state: StateReader, ctx: TxContext): void;
  /** Effects beyond the nonce bump; runs only after `check` passed on the same overlay. */
  apply(tx: SignedTxOf<S>, s: TxState, ctx: TxContext): void;
  /** Inference tokens the transaction reports, counted into its block's `tokensConsumed`. */
  tokensConsumed?(tx: SignedTxOf<S>): bigint;
}

/** Validation and effects of one transaction type, as the dispatcher sees it (any type). */
export interface TxHandler {
  schema: TxSchema;
  cost(tx: SignedTx, state?: StateReader): TxCost;
  check?(tx: SignedTx, state: StateReader, ctx: TxContext): void;
  apply(tx: SignedTx, s: TxState, ctx: TxContext): void;
  tokensConsumed?(tx: SignedTx): bigint;
}

/** The handler of an executed type: its schema and its rules over the typed payload. */
export function txHandler<S extends TxSchema>(schema: S, rules: TxRules<S>): TxHandler {
  // The one place the payload type is trusted: the dispatcher calls a handler only with a
  // transaction that passed checkTxShape against this same schema.
  return { schema, cost: feeOnly, ...(rules as unknown as TxRules<TxSchema>) } as TxHandler;
}

/**
 * True when `tx` (a transaction from a block or the mempool, so shape-checked) is of the type
 * `schema` describes; narrows its fields for readers such as projections: `if (isTx(tx, TASK_SUBMIT)) tx.prompt`.
 */
export function isTx<S extends TxSchema>(tx: SignedTx, schema: S): tx is SignedTx & SignedTxOf<S> {
  return tx.type === schema.type;
}

// `refuse` lives in core/errors.ts (beside refuseUnless and present); the families' rules import it from here.
export { refuse } from '../errors.ts';

/** Moves a fee from the sender to the block's proposer (the live network's rule). */
export function payFee(s: TxState, from: string, fee: bigint, ctx: TxContext): void {
  if (fee === 0n) return;
  s.account(from).balance -= fee;
  s.account(present(ctx.proposer, 'the block proposer')).balance += fee;
  s.supply.feesPaid += fee;
}

/** The default cost: the transaction's `fee`, no storage. */
function feeOnly(tx: Readonly<Record<string, unknown>>): TxCost {
  return { balance: feeOf(tx), storage: 0n };
}

/** The `fee` field of a transaction as a bigint (0 when the type has none). */
export function feeOf(tx: Readonly<Record<string, unknown>>): bigint {
  return typeof tx.fee === 'string' ? BigInt(tx.fee) : 0n;
}
