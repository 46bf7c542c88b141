/**
 * The one transaction validator, shared by the REST API, gossip, the mempool and block
 * application. Checks run in the order docs/protocol.md gives ("Validation order") so every path answers the same code.
 */
import { CLAIM_TYPES, checkClaimFee } from './claimFee.ts';
import { ChainError } from './errors.ts';
import { forkActive, MAX_TX_FUTURE_MS } from './genesis.ts';
import { ombraWithMicro } from './ombraAmount.ts';
import { verifySignature } from './signature.ts';
import type { SignedTx, StateReader, TxContext } from './tx/handler.ts';
import { handlerOf } from './tx/registry.ts';
import { checkTxHash, checkTxShape, stateTx } from './txCodec.ts';

/** What a sender already has waiting in the mempool. */
export interface PendingRun {
  count: number;
  balance: bigint;
  storage: bigint;
}

/** Everything validation may consult. */
export interface ValidationEnv extends TxContext {
  state: StateReader;
  /** The sender's pending run (mempool admission only). */
  pending?: (address: string) => PendingRun;
  /** True when a transaction hash is already pending. */
  inMempool?: (hash: string) => boolean;
  /** Skip signature verification: the caller verified it already (e.g. in a worker pool). */
  signatureVerified?: boolean;
  /** Skip the shape and hash checks: the caller ran them on the same bytes (core/blockTxChecks.ts). */
  txChecked?: boolean;
}

const NO_PENDING: PendingRun = { count: 0, balance: 0n, storage: 0n };

/** Stateless checks: shape, fork, hash, sender derivation, signature. Returns the typed tx. */
export function verifyTx(raw: unknown, env: Pick<ValidationEnv, 'height' | 'genesis' | 'signatureVerified' | 'txChecked'>): SignedTx {
  const tx = env.txChecked ? (raw as SignedTx) : checkTxShape(raw);
  const handler = handlerOf(tx);
  if (!forkActive(env.genesis.forks, handler.schema.fork, env.height)) {
    throw new ChainError(
      'FORK_NOT_ACTIVE',
      `fork not active: ${tx.type} needs fork ${handler.schema.fork} (height ${env.genesis.forks[handler.schema.fork as 2]}), next block is ${env.height}`,
    );
  }
  if (!env.txChecked) checkTxHash(tx);
  if (!env.signatureVerified && !verifySignature(tx.publicKey, tx.hash, tx.signature)) {
    throw new ChainError('INVALID_SIGNATURE', 'signature invalid');
  }
  return tx;
}

/** Full validation of a transaction against state (and the mempool, when given). */
export function validateTx(raw: unknown, env: ValidationEnv): SignedTx {
  const tx = verifyTx(raw, env);
  checkTxState(tx, env);
  return tx;
}

/**
 * The stateful half of validation, for a tx whose shape, hash and signature are known good. It
 * judges the tx's state form (addresses lower-cased: core/txCodec.ts `stateTx`).
 */
export function checkTxState(signed: SignedTx, env: ValidationEnv): void {
  checkStateTx(stateTx(signed), env);
}

/** `checkTxState` for a transaction already in its state form (block application computes it once). */
export function checkStateTx(tx: SignedTx, env: ValidationEnv): void {
  const handler = handlerOf(tx);
  if (env.inMempool?.(tx.hash)) throw new ChainError('DUPLICATE_TX', 'Tx already in mempool');
  const account = env.state.peek(tx.from);
  const pending = env.pending?.(tx.from) ?? NO_PENDING;
  if (tx.nonce < account.nonce) throw new ChainError('STALE_NONCE', `nonce stale: tx=${tx.nonce}, state=${account.nonce}`);
  const expected = account.nonce + pending.count;
  if (tx.nonce < expected) throw new ChainError('DUPLICATE_TX', `a pending transaction already uses nonce ${tx.nonce}`);
  if (tx.nonce > expected) throw new ChainError('NONCE_GAP', `nonce gap: tx=${tx.nonce}, expected=${expected}`);
  const cost = handler.cost(tx, env.state);
  if (account.balance - pending.balance < cost.balance) {
    throw new ChainError(
      'INSUFFICIENT_BALANCE',
      `Insufficient balance: need ${ombraWithMicro(cost.balance)}, available ${ombraWithMicro(account.balance - pending.balance)}`,
    );
  }
  const free = account.storageCapacity - account.storageUsed - pending.storage;
  if (free < cost.storage) throw new ChainError('INSUFFICIENT_STORAGE', `insufficient storage: need ${cost.storage} bytes, free ${free}`);
  if (tx.timestamp > env.timestamp + MAX_TX_FUTURE_MS) {
    throw new ChainError('VALIDATION_FAILED', `timestamp ${tx.timestamp} is more than ${MAX_TX_FUTURE_MS} ms ahead`);
  }
  if (CLAIM_TYPES.has(tx.type)) checkClaimFee(tx, env);
  handler.check?.(tx, env.state, env);
}
