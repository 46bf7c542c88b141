/**
 * Integrity of the stored block log: the head pointer must name the last block of the log, and
 * the last blocks must form a hash chain (each stored under its height, its hash the hash of its
 * header, its previousHash the hash of the block before, its txRoot and every transaction hash
 * those of its transactions). Run on every open over the last
 * `DEFAULT_VERIFY_DEPTH` blocks (all with `--verify-all`); `repairLog` truncates the log to the
 * last block that verifies from genesis.
 */
import { blockHash, txRootOf, type Block } from '../core/block.ts';
import { txHash } from '../core/txCodec.ts';
import { heightKey } from '../core/encoding.ts';
import type { ChainStore } from './chainStore.ts';
import { isCorruption, type LogFault } from './storeDamage.ts';

/** Blocks back from the head that startup walks (all of them with `--verify-all`). */
export const DEFAULT_VERIFY_DEPTH = 1000;

export type { LogFault } from './storeDamage.ts';

/** Why stored block `b`, expected at `height` after `parentHash`, is not a valid link; null if it is. */
function linkFault(b: Block | undefined, height: number, parentHash: string | null): string | null {
  if (!b) return `block ${height} is missing from the log`;
  if (b.index !== height) return `the block stored at height ${height} says index ${b.index}`;
  if (blockHash(b) !== b.hash) return `block ${height} does not hash to its stored hash ${String(b.hash).slice(0, 16)}…`;
  if (parentHash !== null && b.previousHash !== parentHash) return `block ${height} does not link to block ${height - 1}`;
  if (!Array.isArray(b.transactions) || txRootOf(b.transactions) !== b.txRoot)
    return `block ${height}'s transactions do not match its txRoot`;
  for (const tx of b.transactions) {
    let hash: string;
    try {
      hash = txHash(tx);
    } catch {
      hash = '';
    }
    if (hash !== tx.hash) return `transaction ${String(tx.hash).slice(0, 16)}… in block ${height} does not hash to its stored hash`;
  }
  return null;
}

const NO_FILL = { fillCache: false } as object;

/**
 * Checks the head pointer and the hash chain of the last `depth` blocks; the lowest fault, or
 * null. One block at a time, each let go once checked; the table pages LevelDB maps to read
 * them stay resident until the database closes (node/openChain.ts reopens it after the check).
 */
export async function verifyLog(store: ChainStore, depth = DEFAULT_VERIFY_DEPTH): Promise<LogFault | null> {
  const head = store.head();
  if (!head) return null;
  // A block stored past the head pointer means the pointer is behind the log.
  for await (const key of store.blocks.keys({ gt: heightKey(head.index), limit: 1 }))
    return { height: head.index + 1, message: `the head pointer says ${head.index} but the log holds block at key ${key}` };
  // A log started from a checkpoint holds no blocks between 0 and its first: the walk starts there.
  const floor = store.logFrom > 1 ? store.logFrom : 0;
  const from = Math.max(floor, head.index - Math.max(1, depth) + 1);
  let parentHash: string | null =
    from > floor ? (((await store.blocks.get(heightKey(from - 1), NO_FILL)) as Block | undefined)?.hash ?? null) : null;
  for (let h = from; h <= head.index; h++) {
    let b: Block | undefined;
    try {
      // Read past LevelDB's block cache: the window would only push out what the node reads.
      b = (await store.blocks.get(heightKey(h), NO_FILL)) as Block | undefined;
    } catch (e) {
      if (isCorruption(e)) return { height: h, message: `block ${h} cannot be read (LevelDB: ${(e as Error).message})`, corrupt: true };
      throw e;
    }
    const why = linkFault(b, h, parentHash);
    if (why !== null || b === undefined) return { height: h, message: why ?? `block ${h} is missing from the log` };
    parentHash = b.hash;
  }
  if (parentHash !== head.hash) return { height: head.index, message: `the head pointer's hash differs from block ${head.index}'s hash` };
  return null;
}

/** The highest block that verifies from block 0 up (hash chain only; consensus re-execution is `replay`'s). */
export async function lastVerifiedBlock(store: ChainStore): Promise<Block> {
  let last: Block | undefined;
  let h = 0;
  for await (const [key, value] of store.blocks.iterator()) {
    const b = value as Block;
    // A log started from a checkpoint goes on from its first block after block 0.
    const gap = h === 1 && store.logFrom > 1;
    if (gap) h = store.logFrom;
    if (key !== heightKey(h) || linkFault(b, h, last && !gap ? last.hash : null)) break;
    last = b;
    h++;
  }
  if (!last) throw new Error('block 0 is missing or damaged: this data dir cannot be repaired, sync it again from genesis');
  return last;
}
