/**
 * Assume-valid for synced blocks (`ombra start --assume-valid HASH`): the signatures of the
 * ancestors of block HASH (and its own) are not checked; everything else (hashes, links, Merkle
 * roots, every state transition, the state root) is, and a block off the chain leading to HASH is
 * checked in full (Bitcoin Core's rule).
 *
 * How a synced block is known to be an ancestor: sync fetches ranges in order from the common
 * ancestor up, each answer a hash chain (p2p/answerCheck.ts: every block's header hashes to its
 * hash and links to the one before). A block is taken as an ancestor only once HASH is in hand:
 * in the answer that holds block HASH, the blocks up to it are linked to it by hashes, so they
 * are its ancestors. Blocks of earlier answers, before HASH was seen, are checked in full: a peer
 * claiming a chain that leads to HASH proves nothing until HASH is served. Without headers-first
 * sync, that limits the skip to the answer holding HASH (at most `syncBatch` blocks a sync); once
 * the log holds HASH, no later block is its ancestor.
 */
import type { Block } from '../core/block.ts';
import type { PipelineItem } from '../node/verification/blockPipeline.ts';

/** The blocks of a hash-chained answer up to and including block `hash`; none when it lacks it. */
export function ancestorsIn(answer: readonly Block[], hash: string): readonly Block[] {
  const at = answer.findIndex((b) => b.hash === hash);
  return at < 0 ? [] : answer.slice(0, at + 1);
}

/** Fetched blocks as pipeline items, marked `assumed` when they are in `assumed`. */
export async function* assumedItems(blocks: AsyncIterable<Block>, assumed: WeakSet<Block>): AsyncGenerator<PipelineItem<undefined>> {
  for await (const block of blocks) yield { block, meta: undefined, assumed: assumed.has(block) };
}
