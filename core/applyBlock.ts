/**
 * The state transition: `applyBlock(state, parent, block)` checks a block against its parent
 * and the PoA rules and returns its state diff without touching `state`; `buildBlock`
 * (core/buildBlock.ts) is the proposer's side of the same rules, on the steps exported here.
 * Pure: no I/O, no clock (time is an argument).
 */
import { nextStateRoot } from './stateRoot.ts';
import { blockHash, checkAttestations, checkBlockShape, genesisBlock, slotOf, slotOwner, txRootOf, type Block } from './block.ts';
import { ChainError } from './errors.ts';
import { blockRewardAt, genesisIdentity, MAX_BLOCK_TX_BYTES, MAX_BLOCK_TXS, STORAGE_QUOTA_PER_BLOCK, type Genesis } from './genesis.ts';
import { utf8Length } from './encoding.ts';
import { RecordsNotLoaded } from './recordCache.ts';
import { commitDiff, emptyState, type ChainState, type StateDiff } from './state.ts';
import { StateOverlay } from './stateOverlay.ts';
import type { SignedTx, TxContext } from './tx/handler.ts';
import { beginBlock, handlerOf, tokensConsumedBy } from './tx/registry.ts';
import { stateTx } from './txCodec.ts';
import { checkStateTx, verifyTx } from './validateTx.ts';

/** What the chain needs to know of a parent block. */
export interface ParentRef {
  index: number;
  hash: string;
  timestamp: number;
  stateRoot: string;
}

/** Options of block application. */
export interface ApplyOptions {
  /** The receiver's clock (ms) for the "not ahead by more than one slot" rule; omit for replay. */
  now?: number;
  /**
   * Every signature in the block (its transactions' and its attestation's over the claimed hash)
   * was already verified: catch-up, replay, audit and sync verify them ahead in worker threads.
   * Everything else is still checked, the claimed hash against the header included.
   */
  signaturesVerified?: boolean;
  /**
   * `txBytes(block.transactions)`, when the caller measured it already (the catch-up pipeline
   * measures every block to size its batches); omitted, it is measured here.
   */
  txBytes?: number;
  /**
   * Every transaction's shape and hash and the txRoot were checked over the very bytes this block
   * was parsed from (core/blockTxChecks.ts, in catch-up's workers; `txBytes` comes with it).
   */
  txsChecked?: boolean;
}

/** A block's outcome. */
export interface Applied {
  diff: StateDiff;
  stateRoot: string;
  tokensBurned: bigint;
  tokensConsumed: bigint;
  /** The block's transactions in their state form (`stateTx`), when application computed them. */
  txs?: SignedTx[];
}

/** The state and genesis block a genesis file defines. */
export function genesisState(g: Genesis): { state: ChainState; block: Block } {
  const state = emptyState();
  const s = new StateOverlay(state);
  let emitted = 0n;
  for (const [addr, amount] of Object.entries(g.allocations)) {
    s.account(addr).balance += BigInt(amount);
    emitted += BigInt(amount);
  }
  s.supply.emitted = emitted;
  const diff = s.diff();
  const block = genesisBlock(g, nextStateRoot(genesisIdentity(g), diff));
  commitDiff(state, diff);
  return { state, block };
}

/**
 * Applies one already-verified transaction (its state form: addresses lower-cased) to the
 * overlay: checks state, effects, nonce. Returns that state form.
 */
export function applyTx(signed: SignedTx, s: StateOverlay, ctx: TxContext): SignedTx {
  const tx = stateTx(signed);
  checkStateTx(tx, { ...ctx, state: s });
  handlerOf(tx).apply(tx, s, ctx);
  s.account(tx.from).nonce += 1;
  return tx;
}

/** The bytes transactions take in a block: the UTF-8 length of each one's JSON, summed (consensus). */
export function txBytes(txs: readonly unknown[]): number {
  let n = 0;
  for (const tx of txs) n += utf8Length(JSON.stringify(tx));
  return n;
}

/** Block-level effects after the transactions: pre-fork-2 reward and storage quota. */
export function finishBlock(
  s: StateOverlay,
  g: Genesis,
  height: number,
  proposer: string,
  burnedBefore: bigint,
  txs: readonly SignedTx[],
): Applied {
  const reward = blockRewardAt(g, height);
  const p = s.account(proposer);
  p.balance += reward;
  p.storageCapacity += STORAGE_QUOTA_PER_BLOCK;
  s.supply.emitted += reward;
  return { diff: s.diff(), stateRoot: '', tokensBurned: s.supply.burned - burnedBefore, tokensConsumed: tokensConsumedBy(txs) };
}

/** Throws RecordsNotLoaded when `s` read records its base state could not answer from memory. */
export function needLoaded(s: StateOverlay): void {
  const misses = s.missing();
  if (misses.size > 0) throw new RecordsNotLoaded(misses);
}

/**
 * Validates `raw` as the child of `parent` and computes its diff. Throws ChainError INVALID_BLOCK,
 * or RecordsNotLoaded (never a fault: load the rows it names and apply again) when `state`'s
 * record cache could not answer a read.
 */
export function applyBlock(
  state: ChainState | StateOverlay,
  parent: ParentRef,
  raw: unknown,
  g: Genesis,
  opts: ApplyOptions = {},
): Applied {
  const b = checkBlockShape(raw);
  const bad = (why: string): never => {
    throw new ChainError('INVALID_BLOCK', `block ${b.index}: ${why}`);
  };
  if (b.index !== parent.index + 1) bad(`index does not follow parent ${parent.index}`);
  if (b.previousHash !== parent.hash) bad('previousHash does not match the parent');
  const slot = slotOf(b.timestamp, g.blockTimeMs);
  if (slot <= slotOf(parent.timestamp, g.blockTimeMs)) bad(`slot ${slot} is not after the parent's slot`);
  if (slotOwner(g, slot) !== b.proposer) bad(`slot ${slot} belongs to ${slotOwner(g, slot)}, not ${b.proposer}`);
  if (opts.now !== undefined && b.timestamp > opts.now + g.blockTimeMs) bad('timestamp is more than one slot ahead of the local clock');
  if (b.transactions.length > MAX_BLOCK_TXS) bad(`more than ${MAX_BLOCK_TXS} transactions`);
  const bytes = opts.txBytes ?? txBytes(b.transactions);
  if (bytes > MAX_BLOCK_TX_BYTES) bad(`transactions take ${bytes} bytes, more than ${MAX_BLOCK_TX_BYTES}`);
  if (blockHash(b) !== b.hash) bad('hash does not match the header');
  checkAttestations(b, opts.signaturesVerified);
  if (!opts.txsChecked && txRootOf(b.transactions) !== b.txRoot) bad('txRoot does not match the transactions');
  const s = new StateOverlay(state);
  s.forgetMisses();
  const ctx: TxContext = { height: b.index, timestamp: b.timestamp, proposer: b.proposer, genesis: g };
  const burnedBefore = s.supply.burned;
  const stateTxs: SignedTx[] = [];
  let out: Applied;
  try {
    beginBlock(s, ctx);
    const seen = new Set<string>();
    const verify = { height: b.index, genesis: g, signatureVerified: opts.signaturesVerified, txChecked: opts.txsChecked };
    for (const raw of b.transactions) {
      try {
        const tx = verifyTx(raw, verify);
        if (seen.has(tx.hash)) bad(`transaction ${tx.hash} appears twice`);
        seen.add(tx.hash);
        stateTxs.push(applyTx(tx, s, ctx));
      } catch (e) {
        if (e instanceof ChainError && e.code !== 'INVALID_BLOCK') bad(`invalid transaction: ${e.code}: ${e.message}`);
        throw e;
      }
    }
    out = finishBlock(s, g, b.index, b.proposer, burnedBefore, b.transactions);
  } catch (e) {
    // Whatever went wrong after a read the cache could not answer says nothing about the block.
    needLoaded(s);
    throw e;
  }
  needLoaded(s);
  if (out.tokensBurned.toString() !== b.tokensBurned) bad(`tokensBurned ${b.tokensBurned}, expected ${out.tokensBurned}`);
  if (out.tokensConsumed.toString() !== b.tokensConsumed) bad(`tokensConsumed ${b.tokensConsumed}, expected ${out.tokensConsumed}`);
  out.stateRoot = nextStateRoot(parent.stateRoot, out.diff);
  if (out.stateRoot !== b.stateRoot) bad('stateRoot does not match the state after the block');
  out.txs = stateTxs;
  return out;
}
