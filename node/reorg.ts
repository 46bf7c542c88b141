/**
 * Fork choice, and validating a competing branch from the common ancestor's state: every branch
 * block is applied as if gossiped.
 */
import { applyBlock } from '../core/applyBlock.ts';
import { slotOf, type Block } from '../core/block.ts';
import { ChainError } from '../core/errors.ts';
import type { Genesis } from '../core/genesis.ts';
import { commitDiff, type ChainState } from '../core/state.ts';

/** True when a chain with tip `a` beats one with tip `b`: longer wins, then the lower slot, then the lower hash. */
export function betterTip(
  a: Pick<Block, 'index' | 'timestamp' | 'hash'>,
  b: Pick<Block, 'index' | 'timestamp' | 'hash'>,
  blockTimeMs: number,
): boolean {
  if (a.index !== b.index) return a.index > b.index;
  const sa = slotOf(a.timestamp, blockTimeMs);
  const sb = slotOf(b.timestamp, blockTimeMs);
  if (sa !== sb) return sa < sb;
  return a.hash < b.hash;
}

/**
 * Checks `branch` extends `parent` on `state` (the state after `parent`, which is consumed);
 * throws INVALID_BLOCK naming the fault. `loading` runs each block's application, loading the
 * records `state`'s cache lacks (node/recordLoader.ts).
 */
export async function validateBranch(
  state: ChainState,
  parent: Block,
  g: Genesis,
  branch: Block[],
  now: number,
  loading: <T>(step: () => T) => Promise<T>,
): Promise<void> {
  for (const b of branch) {
    if (typeof b !== 'object' || b === null) throw new ChainError('INVALID_BLOCK', 'branch holds a non-block');
    const p = parent;
    commitDiff(state, (await loading(() => applyBlock(state, p, b, g, { now }))).diff);
    parent = b;
  }
}

/**
 * The head moved while a peer's blocks were fetched (gossip imported a block meanwhile): the
 * blocks no longer fit our chain, through no fault of the peer. Not a ChainError, so the sender is
 * never banned for it; the next sync round looks again.
 */
export class HeadMovedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HeadMovedError';
  }
}
