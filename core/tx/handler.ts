/** The contract every transaction family implements, and helpers they share. */
import type { Genesis } from '../genesis.ts';
import type { TxSchema } from '../schema.ts';
import type { Account, Miner, RecordKind, RecordTypes, StateOverlay } from '../state.ts';

/** Read access to consensus state, as validation needs it. */
export interface StateReader {
  peek(address: string): Readonly<Account>;
  miner(id: string): Readonly<Miner> | undefined;
  get<K extends RecordKind>(kind: K, id: string): Readonly<RecordTypes[K]> | undefined;
}

/** Where and when a transaction is being validated or applied. */
export interface TxContext {
  /** Height of the block the transaction is (or would be) included in. */
  height: number;
  /** That block's timestamp, or the node's clock for admission. */
  timestamp: number;
  /** That block's proposer; absent for mempool admission. */
  proposer?: string;
  genesis: Genesis;
}

/** What a transaction takes from its sender, for balance checks and mempool accounting. */
export interface TxCost {
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

/** Validation and effects of one transaction type. */
export interface TxHandler {
  schema: TxSchema;
  /** False while this node does not execute the type's effects: it is refused, never ignored. */
  executable: boolean;
  cost(tx: SignedTx): TxCost;
  /** Type-specific checks against state; throws ChainError VALIDATION_FAILED (or a sharper code). */
  check?(tx: SignedTx, state: StateReader, ctx: TxContext): void;
  /** Effects beyond the nonce bump; runs only after `check` passed on the same overlay. */
  apply(tx: SignedTx, s: StateOverlay, ctx: TxContext): void;
}

/** Moves a fee from the sender to the block's proposer (the live network's rule). */
export function payFee(s: StateOverlay, from: string, fee: bigint, ctx: TxContext): void {
  if (fee === 0n) return;
  s.account(from).balance -= fee;
  s.account(ctx.proposer as string).balance += fee;
  s.supply.feesPaid += fee;
}

/** The `fee` field of a transaction as a bigint (0 when the type has none). */
export function feeOf(tx: SignedTx): bigint {
  return typeof tx.fee === 'string' ? BigInt(tx.fee) : 0n;
}

/** Handler for a type whose effects this node does not execute yet. */
export function notExecuted(schema: TxSchema): TxHandler {
  return {
    schema,
    executable: false,
    cost: (tx) => ({ balance: feeOf(tx), storage: 0n }),
    apply() {
      throw new Error(`${schema.type} is not executable`);
    },
  };
}
