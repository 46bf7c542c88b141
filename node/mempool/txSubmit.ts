/**
 * Transactions in: validation against the head and the mempool, admission, the durable pending
 * log written before the acknowledgement, and the pending transactions restored after a restart.
 */
import { ChainError, errorMessage } from '../../core/errors.ts';
import { RecordsNotLoaded } from '../../core/recordCache.ts';
import { StateOverlay } from '../../core/stateOverlay.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import { stateTx } from '../../core/txCodec.ts';
import { validateTx } from '../../core/validateTx.ts';
import { txIndexProjection } from '../../projections/chainIndex.ts';
import { MempoolPolicyError } from './mempoolOptions.ts';
import type { Writer } from '../writer/writer.ts';
import { fieldOf } from '../../core/encoding.ts';

/** Validates and admits a transaction to the mempool (the API's and gossip's entry point). */
export function submitTx(w: Writer, raw: unknown, source: 'api' | 'gossip' = 'api'): Promise<SignedTx> {
  return w
    .exclusive(async () => {
      // Refused before admission while writes are stopped: the mempool is left as it was.
      w.store.fence.check();
      const { tx, left } = await w.loading(() => admit(w, raw));
      // Durable before acknowledged (a restart re-admits it); replaced and evicted ones leave in the same batch.
      await w.pendingLog.put(
        tx,
        left.map((t) => t.hash),
      );
      w.events$.next({ type: 'tx', tx, source });
      w.events$.next({ type: 'mempool', total: w.mempool.size });
      return tx;
    })
    .catch(async (e: unknown) => {
      // A stale nonce may be a transaction already in the chain: that is a duplicate.
      if (e instanceof ChainError && e.code === 'STALE_NONCE' && typeof (raw as SignedTx).hash === 'string') {
        if ((await (await w.runner.readable(txIndexProjection)).get((raw as SignedTx).hash)) !== undefined)
          throw new ChainError('DUPLICATE_TX', 'transaction already in the chain');
      }
      throw e;
    });
}

/**
 * Validates a transaction against the head and the mempool and adds it (no I/O). Returns it
 * with the transactions that left the pool for it (replaced by fee, or evicted).
 */
export function admit(w: Writer, raw: unknown): { tx: SignedTx; left: SignedTx[] } {
  // A replacement is validated against the sender's run before its nonce.
  const nonce = fieldOf(raw, 'nonce');
  const before = typeof nonce === 'number' ? nonce : Number.POSITIVE_INFINITY;
  // A read-only view: validation never writes, the overlay stays empty.
  const state = new StateOverlay(w.state());
  let tx: SignedTx;
  try {
    tx = validateTx(raw, {
      height: w.tip.index + 1,
      timestamp: w.clock(),
      genesis: w.genesis,
      state,
      pending: (a) => w.mempool.pending(a, before),
      inMempool: (h) => w.mempool.has(h),
      uploadHashes: w.uploadHashes,
    });
  } catch (e) {
    // A refusal judged on a record the cache could not answer is no refusal: load, then judge.
    if (state.missing().size > 0) throw new RecordsNotLoaded(state.missing());
    // The upload hashes' bound on a sender's refused completions is this node's policy (gossip ignores it).
    if (e instanceof ChainError && e.code === 'RATE_LIMITED') throw new MempoolPolicyError(e.code, e.message);
    throw e;
  }
  if (state.missing().size > 0) throw new RecordsNotLoaded(state.missing());
  // The account is the sender's state form (lower case): `from` may be signed in any case.
  return { tx, left: w.mempool.add(tx, state.peek(stateTx(tx).from).balance) };
}

/** Re-admits the transactions that were pending when the node last stopped, in arrival order. */
export async function restorePending(w: Writer): Promise<void> {
  const rows = await w.pendingLog.load();
  let kept = 0;
  for (const tx of rows) {
    try {
      await submitTx(w, tx);
      kept++;
    } catch (e) {
      await w.pendingLog.drop([tx.hash]);
      w.log.info('pending transaction no longer valid after restart', { hash: tx.hash, why: errorMessage(e) });
    }
  }
  if (rows.length) w.log.info('restored pending transactions', { kept, of: rows.length });
}
