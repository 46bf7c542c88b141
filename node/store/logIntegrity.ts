/**
 * Integrity of the stored block log: the head pointer must name the last block of the log, and
 * the last blocks must form a hash chain (each stored under its height, its hash the hash of its
 * header, its previousHash the hash of the block before, its txRoot and every transaction hash
 * those of its transactions). Run on every open over the last `DEFAULT_VERIFY_DEPTH` blocks or
 * `DEFAULT_VERIFY_TXS` transactions, whichever ends first (all with `--verify-all`); `ombra
 * repair` truncates the log to the last block that verifies from genesis (`lastVerifiedBlock`).
 */
import { blockHash, txRootOf, type Block } from '../../core/block.ts';
import { txHash } from '../../core/txCodec.ts';
import { heightKey } from '../../core/encoding.ts';
import { errorMessage } from '../../core/errors.ts';
import type { ChainStore } from './chainStore.ts';
import { isCorruption, type LogFault } from './storeDamage.ts';

/** Blocks back from the head that startup walks at most (all of them with `--verify-all`). */
export const DEFAULT_VERIFY_DEPTH = 1000;

/**
 * Transactions whose hashes startup recomputes at most (all of them with `--verify-all`): the
 * walk stops below the block that reaches them, so 40 full blocks of 500 or 1,000 small ones.
 */
export const DEFAULT_VERIFY_TXS = 20_000;

export type { LogFault } from './storeDamage.ts';

/** Why stored block `b`, expected at `height` after `parentHash`, is not a valid link; null if it is. */
export function linkFault(b: Block | undefined, height: number, parentHash: string | null): string | null {
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

// LevelDB's `fillCache`, which level's get options do not name.
const NO_FILL: object = { fillCache: false };

/** How far back from the head the startup check goes. */
interface VerifyWindow {
  /** Blocks back from the head (Infinity: the whole log). */
  depth: number;
  /** Transactions whose hashes are recomputed: the window stops below the block that reaches them (Infinity: no limit). */
  txs: number;
}

/** The default window: 1,000 blocks or 20,000 transactions, whichever ends first (the head block always). */
const DEFAULT_VERIFY_WINDOW: VerifyWindow = { depth: DEFAULT_VERIFY_DEPTH, txs: DEFAULT_VERIFY_TXS };

/** One stored block as read: the block, or nothing (missing), or the read's corruption. */
type Read = { b: Block | undefined; corrupt?: unknown };

/** Reads a block past LevelDB's block cache: the window would only push out what the node reads. */
async function readBlock(store: ChainStore, h: number): Promise<Read> {
  try {
    return { b: (await store.blocks.get(heightKey(h), NO_FILL)) as Block | undefined };
  } catch (e) {
    if (isCorruption(e)) return { b: undefined, corrupt: e };
    throw e;
  }
}

/**
 * Checks the head pointer and the hash chain of the last blocks (`window`: so many blocks or so
 * many transactions, whichever ends first); the lowest fault, or null. The walk goes from the
 * head down, each block let go once checked against the link its child names: what a start costs
 * is bounded by the window, not by the chain's length or its blocks' size. The table pages LevelDB
 * maps to read them stay resident until the database closes (node/store/openChain.ts reopens it after
 * the check).
 */
export async function verifyLog(store: ChainStore, window: VerifyWindow = DEFAULT_VERIFY_WINDOW): Promise<LogFault | null> {
  const head = store.head();
  if (!head) return null;
  // A block stored past the head pointer means the pointer is behind the log.
  for await (const key of store.blocks.keys({ gt: heightKey(head.index), limit: 1 }))
    return { height: head.index + 1, message: `the head pointer says ${head.index} but the log holds block at key ${key}` };
  // A log started from a checkpoint holds no blocks between 0 and its first: the walk stops there.
  const floor = store.logFrom > 1 ? store.logFrom : 0;
  const lowest = Math.max(floor, head.index - Math.max(1, window.depth) + 1);
  // Going down, a later fault is a lower one: the last found is reported.
  let fault: LogFault | null = null;
  // The hash the block below must have: the head pointer's, then each block's previousHash.
  let expected: string | null = head.hash;
  let txs = 0;
  let h = head.index;
  for (; h >= lowest && (h === head.index || txs < window.txs); h--) {
    const { b, corrupt } = await readBlock(store, h);
    if (corrupt) fault = { height: h, message: `block ${h} cannot be read (LevelDB: ${errorMessage(corrupt)})`, corrupt: true };
    else if (expected !== null && b !== undefined && b.hash !== expected)
      fault = h === head.index ? headMismatch(h) : { height: h + 1, message: `block ${h + 1} does not link to block ${h}` };
    const why = corrupt ? null : linkFault(b, h, null);
    if (why !== null) fault = { height: h, message: why };
    expected = b && !corrupt ? b.previousHash : null;
    txs += Array.isArray(b?.transactions) ? b.transactions.length : 0;
  }
  // The lowest block checked links to the one below it, when that one is held.
  if (h >= floor && expected !== null) {
    const below = (await readBlock(store, h)).b;
    if (below && below.hash !== expected) fault = { height: h + 1, message: `block ${h + 1} does not link to block ${h}` };
  }
  return fault;
}

const headMismatch = (h: number): LogFault => ({ height: h, message: `the head pointer's hash differs from block ${h}'s hash` });

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
