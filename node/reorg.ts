/**
 * Validating a competing branch: the state at the common ancestor is rebuilt from the log (the
 * event-sourced design makes this a replay), then every branch block is applied as if gossiped.
 */
import { applyBlock, genesisState } from '../core/applyBlock.ts';
import { slotOf, type Block } from '../core/block.ts';
import { ChainError } from '../core/errors.ts';
import type { Genesis } from '../core/genesis.ts';
import { commitDiff, type ChainState } from '../core/state.ts';
import type { ChainStore } from './chainStore.ts';

/** True when a chain with tip `a` beats one with tip `b`: longer wins, then the lower slot, then the lower hash. */
export function betterTip(a: Pick<Block, 'index' | 'timestamp' | 'hash'>, b: Pick<Block, 'index' | 'timestamp' | 'hash'>, blockTimeMs: number): boolean {
  if (a.index !== b.index) return a.index > b.index;
  const sa = slotOf(a.timestamp, blockTimeMs);
  const sb = slotOf(b.timestamp, blockTimeMs);
  if (sa !== sb) return sa < sb;
  return a.hash < b.hash;
}

/** The consensus state after block `height` of the stored chain. */
export async function stateAt(store: ChainStore, g: Genesis, height: number): Promise<{ state: ChainState; parent: Block }> {
  const { state } = genesisState(g);
  let parent = (await store.block(0))!;
  for await (const b of store.range(1, height)) {
    commitDiff(state, applyBlock(state, parent, b, g, { signaturesVerified: true }).diff);
    parent = b;
  }
  return { state, parent };
}

/** Checks `branch` extends the stored chain's block `ancestor`; throws INVALID_BLOCK naming the fault. */
export async function validateBranch(store: ChainStore, g: Genesis, ancestor: number, branch: Block[], now: number): Promise<void> {
  const { state, parent: start } = await stateAt(store, g, ancestor);
  let parent = start;
  for (const b of branch) {
    if (typeof b !== 'object' || b === null) throw new ChainError('INVALID_BLOCK', 'branch holds a non-block');
    commitDiff(state, applyBlock(state, parent, b, g, { now }).diff);
    parent = b;
  }
}
