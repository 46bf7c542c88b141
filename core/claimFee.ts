/**
 * The claim fee (fork 7, docs/economy.md "Claims"): a transaction that takes an id or a name for
 * its sender pays at least CLAIM_MIN_FEE_V7 from the fork's height on. Before it, such claims may
 * pay nothing (the chain's history stays valid); the mempool's admission policy already refuses
 * them from senders with no balance (node/mempool/uploadPolicy.ts).
 */
import { CLAIM_MIN_FEE_V7 } from './economics.ts';
import { ChainError } from './errors.ts';
import { forkActive } from './genesis.ts';
import { feeOf, type SignedTx, type TxContext } from './tx/handler.ts';

/**
 * Types whose every transaction claims: a site id, an alias, a blob id (three-step form), a drive
 * file. A SOCIAL_BLOB chunk claims only when it starts its blob (core/tx/social/socialBlob.ts asks itself).
 */
export const CLAIM_TYPES: ReadonlySet<string> = new Set(['WEB_SITE_REGISTER', 'WEB_ALIAS_SET', 'SOCIAL_BLOB_INIT', 'WEB_FILE_INIT']);

/** The least fee a claim pays at `ctx.height`: 0 before fork 7. */
function claimMinFee(ctx: Pick<TxContext, 'genesis' | 'height'>): bigint {
  return forkActive(ctx.genesis.forks, 7, ctx.height) ? CLAIM_MIN_FEE_V7 : 0n;
}

/** Refuses a claiming transaction whose fee is below the claim fee at its height. */
export function checkClaimFee(tx: SignedTx, ctx: Pick<TxContext, 'genesis' | 'height'>): void {
  const min = claimMinFee(ctx);
  const fee = feeOf(tx);
  if (fee < min)
    throw new ChainError('VALIDATION_FAILED', `${tx.type} claims an id or a name: its fee must be at least ${min} from fork 7, not ${fee}`);
}
