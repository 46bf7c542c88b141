/**
 * The mempool's node-local policy: its limits and their defaults, the error for a policy refusal,
 * and the pending entry with the order blocks take entries in.
 * The pool is bounded in transactions and bytes: when full, a new transaction evicts strictly
 * lower-fee ones, always from the tail of a sender's run so no pending transaction loses the one
 * its nonce depends on. A pending nonce can be replaced by a fee at least `replaceBumpPercent` higher.
 */
import { ChainError } from '../../core/errors.ts';
import type { SignedTx } from '../../core/tx/handler.ts';

/** Mempool limits and admission policy (node-local, not consensus). */
export interface MempoolOptions {
  /** Most transactions held. */
  maxSize: number;
  /** Most pending transactions of one sender. */
  maxPerSender: number;
  /** Most bytes held (canonical JSON, the measure of the block byte limit). */
  maxBytes: number;
  /** Lowest `fee` admitted, per transaction type (micro-units; absent = 0). Types without a `fee` field are exempt. */
  minFee: Readonly<Record<string, bigint>>;
  /**
   * Lowest fee per 1,000 bytes of the transaction (canonical JSON, the block byte limit's measure),
   * rounded up, for every type with a `fee` field except chunk-carrying ones (their bytes are
   * priced by the sender's storage and the upload budgets). Micro-units; 0 = no byte floor.
   */
  minFeePerKB: bigint;
  /** A replacement (same sender and nonce) must pay at least this many percent more, and at least 1 micro more. */
  replaceBumpPercent: number;
  /** Most bytes of chunk-carrying transactions held (within `maxBytes`). */
  maxUploadBytes: number;
  /** Most bytes of chunk-carrying transactions one sender has pending. */
  maxUploadBytesPerSender: number;
}

/**
 * Defaults: 10,000 transactions, 64 per sender, 64 MiB, no fee floor by type or by byte
 * (`ombra start --min-fee-per-kb` sets one), replacement +10%; chunks
 * 24 MiB in all and 4 MiB a sender (seven 400 KB chunks, more than a block of 3 MiB takes).
 */
export const defaultMempoolOptions: MempoolOptions = {
  maxSize: 10_000,
  maxPerSender: 64,
  maxBytes: 64 * 1024 * 1024,
  minFee: {},
  minFeePerKB: 0n,
  replaceBumpPercent: 10,
  maxUploadBytes: 24 * 1024 * 1024,
  maxUploadBytesPerSender: 4 * 1024 * 1024,
};

/**
 * A refusal by this node's mempool policy (fee floor, underpriced replacement, full pool), not a
 * fault of the transaction: gossip ignores these rather than penalising the peer that relayed it.
 */
export class MempoolPolicyError extends ChainError {}

/** A pending transaction with what the pool counts of it. */
export interface MempoolEntry {
  tx: SignedTx;
  seq: number;
  fee: bigint;
  bytes: number;
  /** Bytes counted against the upload budgets (the whole transaction when it carries a chunk). */
  upload: number;
}

/** True when `a` goes into a block before `b`: higher fee, then earlier arrival. */
export const better = (a: MempoolEntry, b: MempoolEntry) => (a.fee === b.fee ? a.seq < b.seq : a.fee > b.fee);
