/**
 * The consensus state as a transaction's rules see it: the port core/tx/ families, their
 * begin-block hooks and core/chunks.ts are written against. core/stateOverlay.ts's StateOverlay
 * implements it. Nothing here knows a family, so the registry (which lists the families) and the
 * state (which makes one map per record kind the registry declares) both sit above the families
 * without an import circle.
 */
import type { RecordDef } from './record.ts';

/** One account's consensus state. */
export interface Account {
  balance: bigint;
  /** The nonce the account's next confirmed transaction must carry. */
  nonce: number;
  /** Storage bytes earned by winning blocks or received by STORAGE_TRANSFER. */
  storageCapacity: bigint;
  storageUsed: bigint;
  /** Set once the account registered a miner. */
  minerId?: string;
}

/** Where every micro-unit is: totalEmitted = Σ balances + escrow + burned. */
export interface Supply {
  emitted: bigint;
  burned: bigint;
  escrow: bigint;
  /** Fees paid to proposers so far (informational; fees stay inside Σ balances). */
  feesPaid: bigint;
}

/** Read access to consensus state, as validation needs it. */
export interface StateReader {
  peek(address: string): Readonly<Account>;
  get<T>(rec: RecordDef<string, T>, id: string): Readonly<T> | undefined;
}

/** Read and write access to consensus state, as a transaction's effects and a begin-block hook need it. */
export interface TxState extends StateReader {
  /** The running supply (replaced, never mutated in place, by the state that commits it). */
  supply: Supply;
  /** A mutable copy of an account, recorded in the block's diff. */
  account(address: string): Account;
  /** Records a new or changed record (a fresh object: stored values are never mutated). */
  put<T>(rec: RecordDef<string, T>, id: string, value: T): void;
  /** Removes a record from the state and its root. */
  remove(rec: RecordDef, id: string): void;
  /** Ids of the open records of a kind (read-only). */
  openIds(rec: RecordDef): ReadonlySet<string>;
}
