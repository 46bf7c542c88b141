/**
 * The policy checks a transaction passes before it joins the pool (node/mempool/mempool.ts), in
 * the order the pool makes them: the per-type fee floor, a sender with a balance, no claim another
 * sender's pending transaction holds, the byte floor, the sender's upload budget, then either a
 * large enough fee bump over the pending transaction of its nonce or room in the sender's run.
 * Pure: it judges against the sender's run and the claims as they are, changing nothing; making
 * room in a full pool is the pool's (node/mempool/evictionPlan.ts).
 */
import { txBytes } from '../../core/applyBlock.ts';
import { feeOf, type SignedTx } from '../../core/tx/handler.ts';
import { canonicalTx, stateTx } from '../../core/txCodec.ts';
import { type MempoolEntry, MempoolPolicyError, type MempoolOptions } from './mempoolOptions.ts';
import { type ClaimIndex, uploadBytesOf } from './uploadPolicy.ts';

/** What the pool counts of an admitted transaction, and which pending one it replaces. */
export interface Admission {
  fee: bigint;
  /** Its size in the pool (canonical JSON). */
  bytes: number;
  /** Bytes counted against the upload budgets. */
  upload: number;
  /** The index in the sender's run of the pending transaction of its nonce it replaces; -1 when none. */
  at: number;
}

/**
 * Judges `tx` (passed validateTx) against its sender's pending `run` and the pool's `claims`;
 * `balance` is the sender's balance at the head. Throws MempoolPolicyError with the first rule it
 * breaks; otherwise says what the pool counts of it.
 */
export function checkAdmission(
  tx: SignedTx,
  balance: bigint | undefined,
  run: readonly MempoolEntry[],
  claims: Pick<ClaimIndex, 'conflict'>,
  opts: MempoolOptions,
): Admission {
  const fee = feeOf(tx);
  const floor = opts.minFee[tx.type] ?? 0n;
  if (typeof tx.fee === 'string' && fee < floor)
    throw new MempoolPolicyError('VALIDATION_FAILED', `fee ${fee} is below this node's minimum of ${floor} for ${tx.type}`);
  // Every transaction is stored for good: a key with nothing to lose sends nothing (uploads were
  // refused so before; fee-0 posts from fresh keys grew the chain by 300 MB a minute).
  if (balance === 0n)
    throw new MempoolPolicyError(
      'INSUFFICIENT_BALANCE',
      `${tx.from} has no balance: this node admits transactions only from a sender with a balance (fund the key first)`,
    );
  const conflict = claims.conflict(stateTx(tx));
  if (conflict)
    throw new MempoolPolicyError('VALIDATION_FAILED', `${conflict.key} is claimed by a pending transaction of ${conflict.sender}`);
  const bytes = txBytes([canonicalTx(tx)]);
  const upload = uploadBytesOf(tx, bytes);
  const byteFloor = (BigInt(bytes) * opts.minFeePerKB + 999n) / 1000n;
  if (typeof tx.fee === 'string' && upload === 0 && fee < byteFloor)
    throw new MempoolPolicyError(
      'VALIDATION_FAILED',
      `fee ${fee} is below this node's minimum of ${byteFloor} for ${bytes} bytes (${opts.minFeePerKB} per 1,000 bytes)`,
    );
  const at = run.findIndex((x) => x.tx.nonce === tx.nonce);
  const senderUpload = run.reduce((n, x) => n + (x.tx.nonce === tx.nonce ? 0 : x.upload), 0);
  if (upload > 0 && senderUpload + upload > opts.maxUploadBytesPerSender)
    throw new MempoolPolicyError(
      'MEMPOOL_FULL',
      `sender already has ${senderUpload} bytes of chunks pending: at most ${opts.maxUploadBytesPerSender}`,
    );
  if (at >= 0) {
    const old = run[at];
    const bump = (old.fee * BigInt(opts.replaceBumpPercent) + 99n) / 100n;
    const need = old.fee + (bump > 1n ? bump : 1n);
    if (fee < need)
      throw new MempoolPolicyError(
        'DUPLICATE_TX',
        `nonce ${tx.nonce} is pending with fee ${old.fee}: a replacement needs a fee of at least ${need}`,
      );
  } else if (run.length >= opts.maxPerSender) {
    throw new MempoolPolicyError('MEMPOOL_FULL', `sender already has ${opts.maxPerSender} pending transactions`);
  }
  return { fee, bytes, upload, at };
}
