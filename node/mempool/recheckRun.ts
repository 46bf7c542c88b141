/**
 * One sender's pending run re-checked against the state after a block: what the block already
 * mined, what still applies, and what no longer does (with the rest of the run after it).
 */
import { ChainError } from '../../core/errors.ts';
import type { ChainState } from '../../core/state.ts';
import { StateOverlay } from '../../core/stateOverlay.ts';
import type { SignedTx, TxContext } from '../../core/tx/handler.ts';
import { handlerOf } from '../../core/tx/registry.ts';
import { stateTx } from '../../core/txCodec.ts';
import { checkTxState } from '../../core/validateTx.ts';
import type { MempoolEntry } from './mempoolOptions.ts';

/** A pending transaction that no longer applies, with why. */
export interface DroppedTx {
  tx: SignedTx;
  error: ChainError;
}

/** The verdict on one run; when `missing` is not empty the state's cache could not answer and the verdict stands for nothing. */
export interface RunRecheck {
  /** Entries that still apply, in nonce order. */
  keep: MempoolEntry[];
  /** Transactions whose nonce the state already passed (mined or replaced on chain). */
  gone: SignedTx[];
  /** Transactions that no longer apply, with why. */
  failed: DroppedTx[];
  /** Row keys the state's cache missed while judging the run. */
  missing: ReadonlySet<string>;
}

/** Applies `run` of `sender` in order on an overlay of `state`, stopping at the first that fails. */
export function recheckRun(run: readonly MempoolEntry[], sender: string, state: ChainState, ctx: TxContext): RunRecheck {
  const keep: MempoolEntry[] = [];
  const overlay = new StateOverlay(state);
  const gone: SignedTx[] = [];
  const failed: DroppedTx[] = [];
  let broken = false;
  for (const e of run) {
    if (broken) {
      failed.push({ tx: e.tx, error: new ChainError('NONCE_GAP', 'an earlier transaction of the sender was dropped') });
      continue;
    }
    if (e.tx.nonce < overlay.peek(sender).nonce) {
      gone.push(e.tx);
      continue;
    }
    try {
      checkTxState(e.tx, { ...ctx, state: overlay, signatureVerified: true });
      const c = handlerOf(e.tx).cost(stateTx(e.tx), overlay);
      const a = overlay.account(sender);
      a.balance -= c.balance;
      a.storageUsed += c.storage;
      a.nonce += 1;
      keep.push(e);
    } catch (err) {
      if (!(err instanceof ChainError) && overlay.missing().size === 0) throw err;
      failed.push({ tx: e.tx, error: err as ChainError });
      broken = true;
    }
  }
  return { keep, gone, failed, missing: overlay.missing() };
}
