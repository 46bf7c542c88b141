/**
 * The stateless checks of a block's transactions that need nothing but the block itself: every
 * transaction's shape and hash (with `from` derived from its key), the block's txRoot over them,
 * and the bytes they take. Catch-up runs them in its verification workers on the very bytes the
 * main thread parses (node/verification/blockCheckJob.ts); applyBlock then skips them
 * (`ApplyOptions.txsChecked`) and checks everything else. A block that fails any of them is
 * applied with every check inline, so its fault is reported exactly as without the workers.
 */
import { txBytes } from './applyBlock.ts';
import { txRootOf } from './block.ts';
import { checkTxHash, checkTxShape } from './txCodec.ts';

/**
 * `txBytes` of `raw`'s transactions when every one has a valid shape and hash and the block's
 * txRoot matches them; null when anything fails (or `raw` is no block of transactions at all).
 */
export function checkedTxBytes(raw: unknown): number | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { transactions, txRoot } = raw as { transactions?: unknown; txRoot?: unknown };
  if (!Array.isArray(transactions)) return null;
  try {
    for (const tx of transactions) checkTxHash(checkTxShape(tx));
  } catch {
    return null;
  }
  return txRootOf(transactions) === txRoot ? txBytes(transactions) : null;
}
