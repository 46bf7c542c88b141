/**
 * The mempool's admission policy for unfunded senders, uploads and claims (node-local, not
 * consensus; docs/economy.md "Claims and uploads"):
 * - a sender with no balance sends nothing: every transaction grows the chain for good, so the
 *   allowance of an unfunded key is nothing at all (fee-0 posts from fresh keys were a free flood);
 * - pending upload bytes (transactions carrying a chunk) are bounded per sender and overall, so
 *   the heap the pool holds in chunks does not grow with the number of senders;
 * - an id or a name claimed by one sender's pending transaction cannot be claimed by another's
 *   while it is pending, whatever fee it offers: a claim seen in the pool cannot be front-run here.
 */
import { isTx, type SignedTx } from '../../core/tx/handler.ts';
import { SOCIAL_BLOB, SOCIAL_BLOB_INIT } from '../../core/tx/social/socialBlob.ts';
import { WEB_ALIAS_SET, WEB_SITE_REGISTER } from '../../core/tx/web/storage.ts';

/** Types whose transactions carry a chunk of an upload. */
const CHUNK_TYPES: ReadonlySet<string> = new Set(['SOCIAL_BLOB', 'SOCIAL_BLOB_CHUNK', 'WEB_FILE_CHUNK']);

/** Bytes of `tx` (its size in the pool) that count against the upload budgets: all of a chunk, nothing else. */
export function uploadBytesOf(tx: SignedTx, bytes: number): number {
  return CHUNK_TYPES.has(tx.type) ? bytes : 0;
}

/** The ids and names `tx` claims, as `kind:value` keys (a blob id, a site id, an alias). */
function claimKeysOf(tx: SignedTx): string[] {
  if (isTx(tx, SOCIAL_BLOB) || isTx(tx, SOCIAL_BLOB_INIT)) return [`blob:${tx.blobId}`];
  if (isTx(tx, WEB_SITE_REGISTER)) return [`site:${tx.siteId}`];
  if (isTx(tx, WEB_ALIAS_SET)) return [`alias:${tx.alias}`];
  return [];
}

/** Which sender's pending transactions claim each key (counted: one sender may send several chunks of one blob). */
export class ClaimIndex {
  private readonly holders = new Map<string, { sender: string; count: number }>();

  /** The sender whose pending transaction claims `key`, if any. */
  holder(key: string): string | undefined {
    return this.holders.get(key)?.sender;
  }

  /** The first key of `tx` another sender's pending transaction claims, with that sender. */
  conflict(tx: SignedTx): { key: string; sender: string } | undefined {
    for (const key of claimKeysOf(tx)) {
      const sender = this.holder(key);
      if (sender !== undefined && sender !== tx.from) return { key, sender };
    }
    return undefined;
  }

  add(tx: SignedTx): void {
    for (const key of claimKeysOf(tx)) {
      const h = this.holders.get(key);
      if (h) h.count++;
      else this.holders.set(key, { sender: tx.from, count: 1 });
    }
  }

  remove(tx: SignedTx): void {
    for (const key of claimKeysOf(tx)) {
      const h = this.holders.get(key);
      if (h && --h.count === 0) this.holders.delete(key);
    }
  }

  clear(): void {
    this.holders.clear();
  }
}
