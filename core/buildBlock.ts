/**
 * The proposer's side of the state transition: `buildBlock` makes the next block from candidate
 * transactions under the rules `applyBlock` (core/applyBlock.ts) checks, with its steps. Pure: no
 * I/O, no clock (time is an argument).
 */
import { applyTx, finishBlock, needLoaded, txBytes, type Applied, type ParentRef } from './applyBlock.ts';
import { attest, blockHash, txRootOf, type Block } from './block.ts';
import { nextStateRoot } from './stateRoot.ts';
import { ChainError } from './errors.ts';
import { MAX_BLOCK_TX_BYTES, MAX_BLOCK_TXS, type Genesis } from './genesis.ts';
import type { KeyPair } from './keys.ts';
import type { ChainState } from './state.ts';
import { StateOverlay } from './stateOverlay.ts';
import type { SignedTx, TxContext } from './tx/handler.ts';
import { beginBlock } from './tx/registry.ts';
import { canonicalTx } from './txCodec.ts';

/**
 * Builds and signs the next block from candidate transactions (already verified, in priority
 * order). Candidates that no longer apply are skipped and returned as `dropped`. Throws
 * RecordsNotLoaded like applyBlock.
 */
export function buildBlock(
  state: ChainState,
  parent: ParentRef,
  candidates: readonly SignedTx[],
  key: KeyPair,
  timestamp: number,
  g: Genesis,
): { block: Block; applied: Applied; dropped: { tx: SignedTx; error: ChainError }[] } {
  const built = buildUnsignedBlock(state, parent, candidates, key.address, timestamp, g);
  return { ...built, block: { ...built.block, attestations: [attest(built.block.hash, key)] } };
}

/**
 * `buildBlock` without the attestation (its `attestations` empty): the block `proposer` signs
 * next, for builders that sign elsewhere (the bench's chain builders sign in worker threads).
 */
export function buildUnsignedBlock(
  state: ChainState,
  parent: ParentRef,
  candidates: readonly SignedTx[],
  proposer: string,
  timestamp: number,
  g: Genesis,
): { block: Block; applied: Applied; dropped: { tx: SignedTx; error: ChainError }[] } {
  const s = new StateOverlay(state);
  s.forgetMisses();
  const height = parent.index + 1;
  const ctx: TxContext = { height, timestamp, proposer, genesis: g };
  const included: SignedTx[] = [];
  const dropped: { tx: SignedTx; error: ChainError }[] = [];
  const burnedBefore = s.supply.burned;
  try {
    beginBlock(s, ctx);
  } catch (e) {
    needLoaded(s);
    throw e;
  }
  let bytes = 0;
  for (const tx of candidates) {
    if (included.length >= MAX_BLOCK_TXS) break;
    const canonical = canonicalTx(tx);
    const size = txBytes([canonical]);
    // Full: the rest waits for the next block (skipping would break senders' nonce runs).
    if (bytes + size > MAX_BLOCK_TX_BYTES) break;
    // Try on a nested overlay so a failing candidate leaves no trace.
    const trial = new StateOverlay(s);
    try {
      applyTx(tx, trial, ctx);
      trial.mergeIntoParent();
      included.push(canonical);
      bytes += size;
    } catch (e) {
      if (e instanceof ChainError) dropped.push({ tx, error: e });
      else {
        needLoaded(s);
        throw e;
      }
    }
  }
  const applied = finishBlock(s, g, height, proposer, burnedBefore, included);
  // A candidate judged on a read the cache could not answer may have been wrongly kept or dropped.
  needLoaded(s);
  applied.stateRoot = nextStateRoot(parent.stateRoot, applied.diff);
  const header = {
    index: height,
    previousHash: parent.hash,
    timestamp,
    proposer,
    txRoot: txRootOf(included),
    stateRoot: applied.stateRoot,
    tokensBurned: applied.tokensBurned.toString(),
    tokensConsumed: applied.tokensConsumed.toString(),
  };
  const hash = blockHash(header);
  return { block: { ...header, hash, transactions: included, attestations: [] }, applied, dropped };
}
