/**
 * Fork choice; validating a competing branch from the common ancestor's state (every branch
 * block is applied as if gossiped); switching the log and the read models to a better branch;
 * and recording two blocks for one slot as equivocation evidence.
 */
import { applyBlock } from '../../core/applyBlock.ts';
import { equivocation, slotOf, type Block } from '../../core/block.ts';
import { ChainError } from '../../core/errors.ts';
import { finalityDepthOf, type Genesis } from '../../core/genesis.ts';
import { cloneState, commitDiff, type ChainState } from '../../core/state.ts';
import { accountsProjection, stateWithRows } from '../../projections/accounts.ts';
import { catchUp } from './catchUp.ts';
import { admit } from '../mempool/txSubmit.ts';
import { refOf, type Writer } from './writer.ts';
import { fieldOf } from '../../core/encoding.ts';

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
 * records `state`'s cache lacks (node/writer/recordLoader.ts).
 */
async function validateBranch(
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

/**
 * Switches to a better branch after block `ancestor`: validates it from the ancestor's state,
 * replaces the log's suffix in one batch, rebuilds the read models, returns the dropped blocks'
 * transactions to the mempool, and announces it on the feed (a reorg event, then the blocks).
 */
export function reorg(w: Writer, ancestor: number, branch: Block[], expectedHead?: string): Promise<void> {
  return w.exclusive(async () => {
    const oldTip = w.tip;
    // The caller judged the branch against a head that has since moved: its verdict is stale.
    if (expectedHead !== undefined && oldTip.hash !== expectedHead)
      throw new HeadMovedError(`the head moved to ${oldTip.index} while the branch was fetched`);
    if (branch.length === 0 || !betterTip(branch[branch.length - 1], oldTip, w.genesis.blockTimeMs)) {
      throw new ChainError('INVALID_BLOCK', 'the branch is not better than the current chain');
    }
    if (!Number.isSafeInteger(ancestor) || ancestor < 0 || ancestor >= oldTip.index + 1)
      throw new ChainError('INVALID_BLOCK', `no common ancestor at ${ancestor}`);
    // Final blocks are never reorganised away.
    const finality = finalityDepthOf(w.genesis);
    if (oldTip.index - ancestor > finality)
      throw new ChainError(
        'INVALID_BLOCK',
        `the branch leaves the chain at ${ancestor}, more than ${finality} blocks below the head (final)`,
      );
    // Blocks of the branch that equivocate against ours are recorded. The branch still wins when
    // it is better: refusing it would split the network by who saw which block first.
    for (const b of branch) if (b.index <= oldTip.index) await noteCompetingBlock(w, b);
    const ancestorBlock = await w.store.storedBlock(ancestor);
    // The branch is validated on a copy of the ancestor's state first: an invalid branch moves
    // no read model, so the API never serves the ancestor's state for it.
    const before = await consensusStateAt(w, ancestor);
    // The copy loads what its cache lacks from rows at the head: rows the branch's blocks change
    // since the ancestor are in the copy already (from the undo log), the others are the same.
    if (before) await validateBranch(before, ancestorBlock, w.genesis, branch, w.clock(), (step) => w.loading(step, before));
    // Read models (the consensus state among them) step back to the ancestor through the undo
    // log; only a reorganisation deeper than the log rebuilds them from genesis.
    if (!(await w.runner.rollbackTo(ancestor))) {
      w.log.warn('reorganisation deeper than the undo log: rebuilding read models from genesis', { ancestor });
      await w.runner.resetAll();
      await w.runner.rewindReactors(ancestor);
      await catchUp(w, undefined, { to: ancestor });
    }
    if (!before) {
      try {
        const copy = cloneState(w.state());
        await validateBranch(copy, ancestorBlock, w.genesis, branch, w.clock(), (step) => w.loading(step, copy));
      } catch (e) {
        // An invalid branch changes nothing: fold the old blocks back from the log.
        await catchUp(w);
        throw e;
      }
    }
    const dropped = await w.store.blocksIn(ancestor + 1, oldTip.index);
    const kept = new Set(branch.flatMap((b) => b.transactions.map((t) => t.hash)));
    const orphans = dropped.flatMap((b) => b.transactions).filter((t) => !kept.has(t.hash));
    const pending = [...orphans, ...w.mempool.list()];
    // The dropped blocks' transactions enter the pending log in the batch that drops the blocks:
    // a kill -9 at any moment finds each in a block or pending (a restart re-validates them).
    const tip = branch[branch.length - 1];
    // The switch is journalled in the same batch: a stream that sent a dropped block is told of
    // it on resume, whenever it resumes (node/writer/reorgJournal.ts).
    const journal = w.reorgJournal.recordOps({
      fromHeight: ancestor + 1,
      oldHead: { index: oldTip.index, hash: oldTip.hash },
      newHead: { index: tip.index, hash: tip.hash },
      dropped: dropped.map((b) => b.hash),
      ancestorHash: ancestorBlock.hash,
    });
    await w.store.replaceSuffix(ancestor, branch, [...(await w.pendingLog.rewriteOps(pending)), ...journal.ops]);
    w.reorgJournal.commit(journal.record);
    // The log holds the new branch and the head moves before the announcement (the streams'
    // contract), then the branch's blocks follow as ordinary block events.
    w.tip = tip;
    w.reorgs++;
    const { seq: _, ...switched } = journal.record;
    w.events$.next({ type: 'reorg', ...switched });
    let parent = ancestorBlock;
    for (const b of branch) {
      const applied = await w.loading(() => applyBlock(w.state(), refOf(parent), b, w.genesis, { signaturesVerified: true }));
      await w.announce({ ...w.blockEvent(b, applied, false), source: 'peer' });
      parent = b;
    }
    w.mempool.clear();
    // Chunks the hashed runs took in may be gone or different on the new branch.
    w.uploadHashes.clear();
    let returned = 0;
    for (const tx of pending) {
      try {
        await w.loading(() => admit(w, tx));
        returned++;
      } catch {
        // No longer valid on the new chain (spent, or already included): dropped.
      }
    }
    // Those no longer valid on the new chain leave the log, again in one batch.
    await w.pendingLog.rewrite(w.mempool.list());
    w.log.warn('reorganised to a better chain', {
      ancestor,
      from: oldTip.index,
      to: w.tip.index,
      dropped: dropped.length,
      returnedTxs: returned,
    });
    w.events$.next({ type: 'mempool', total: w.mempool.size });
  });
}

/**
 * A copy of the consensus state as it was at block `ancestor`, from the undo log, without
 * moving any read model; null when the log does not reach that far.
 */
async function consensusStateAt(w: Writer, ancestor: number): Promise<ChainState | null> {
  if (ancestor === 0) return cloneState(w.info.genesisState);
  const rows = await w.runner.rowsAt(accountsProjection, ancestor);
  return rows && stateWithRows(w.state(), rows);
}

/**
 * Looks at a block for a height this node already has: when it and ours are two blocks for one
 * slot attested by its authority, the pair is recorded as evidence (true). Never throws.
 */
export async function noteCompetingBlock(w: Writer, raw: unknown): Promise<boolean> {
  const index = fieldOf(raw, 'index');
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 1 || index > w.tip.index) return false;
  const ours = await w.store.block(index);
  if (!ours || !equivocation(ours, raw, w.genesis.blockTimeMs)) return false;
  const theirs = raw as Block;
  const fresh = await w.evidence.record(ours, theirs, slotOf(ours.timestamp, w.genesis.blockTimeMs), w.clock());
  if (fresh)
    w.log.warn('equivocation: two blocks for one slot', {
      proposer: ours.proposer,
      height: index,
      ours: ours.hash,
      theirs: theirs.hash,
    });
  return true;
}
