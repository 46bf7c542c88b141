/**
 * Blocks onto the log: validated as children of the head (from a peer, a snapshot, or built here
 * from the mempool), appended in one synced batch, announced in order, and the mempool
 * revalidated against the new head.
 */
import { applyBlock, type Applied } from '../../core/applyBlock.ts';
import { buildBlock } from '../../core/buildBlock.ts';
import type { Block } from '../../core/block.ts';
import type { ChainError } from '../../core/errors.ts';
import type { KeyPair } from '../../core/keys.ts';
import { RecordsNotLoaded } from '../../core/recordCache.ts';
import { StateOverlay } from '../../core/stateOverlay.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import { HeadMovedError } from './reorg.ts';
import { refOf, type Writer } from './writer.ts';
import type { ImportOptions } from '../ports.ts';
import { fieldOf } from '../../core/encoding.ts';

/** Validates a block from elsewhere (a peer, a snapshot) as the child of the head and appends it. */
export function importBlock(
  w: Writer,
  raw: unknown,
  source: 'peer' | 'local' = 'peer',
  opts: { signaturesVerified?: boolean } = {},
): Promise<Block> {
  return w.exclusive(async () => {
    await w.prefetch(raw);
    const applied = await w.loading(() =>
      applyBlock(w.state(), refOf(w.tip), raw, w.genesis, {
        now: w.clock(),
        signaturesVerified: opts.signaturesVerified,
      }),
    );
    const block = raw as Block;
    await append(w, [{ block, applied }], source);
    return block;
  }, 'import');
}

/**
 * Imports consecutive blocks from elsewhere with one synced write (group commit, for catch-up):
 * each is validated on the state its predecessors leave, all are appended in one batch, and only
 * then announced. Blocks before the first invalid one are kept; the fault is then rethrown.
 */
export function importBlocks(
  w: Writer,
  raws: readonly unknown[],
  verified: readonly boolean[] = [],
  txBytes: readonly (number | undefined)[] = [],
  opts: ImportOptions = {},
): Promise<Block[]> {
  return w.exclusive(async () => {
    // Blocks gossip brought in while these were fetched are ours already: skipped, not invalid.
    let first = 0;
    while (first < raws.length && (await holds(w, raws[first]))) first++;
    const next = fieldOf(raws[first], 'index');
    if (typeof next === 'number' && next <= w.tip.index)
      throw new HeadMovedError(`the chain holds another block at ${next} (head ${w.tip.index}) than the one fetched`);
    const pending = new StateOverlay(w.state());
    const done: { block: Block; applied: Applied; trusted?: boolean }[] = [];
    let parent = w.tip;
    let failure: unknown = null;
    for (let i = first; i < raws.length; i++) {
      try {
        // Each step awaits only what it has to read (most near-empty blocks: nothing).
        const prefetching = w.prefetch(raws[i]);
        if (prefetching) await prefetching;
        let applied = w.loadingNow(() =>
          applyBlock(pending, refOf(parent), raws[i], w.genesis, {
            now: w.clock(),
            signaturesVerified: verified[i],
            txBytes: txBytes[i],
          }),
        );
        if (applied instanceof Promise) applied = await applied;
        pending.absorb(applied.diff);
        parent = raws[i] as Block;
        done.push({ block: parent, applied, trusted: opts.trusted?.[i] });
      } catch (e) {
        failure = e;
        break;
      }
    }
    if (done.length) {
      // Only blocks that all went in move the horizon: after a fault the head stops short of it.
      w.runner.undoHorizon = failure ? 0 : (opts.horizon ?? 0);
      try {
        await append(w, done, 'peer');
      } finally {
        w.runner.undoHorizon = 0;
      }
    }
    if (failure) throw failure;
    return done.map((d) => d.block);
  }, 'import');
}

/** Builds, signs and appends a block from the mempool at `timestamp`. */
export function produceBlock(w: Writer, key: KeyPair, timestamp: number): Promise<Block> {
  return w.exclusive(async () => {
    const candidates = w.mempool.candidates();
    const { block, applied, dropped } = await w.loading(() => buildBlock(w.state(), refOf(w.tip), candidates, key, timestamp, w.genesis));
    for (const d of dropped) w.log.warn('dropped pending transaction', { hash: d.tx.hash, code: d.error.code, why: d.error.message });
    await append(w, [{ block, applied }], 'local');
    return block;
  }, 'produce');
}

/** True when `raw` is the block this chain already holds at its height. */
async function holds(w: Writer, raw: unknown): Promise<boolean> {
  const index = fieldOf(raw, 'index');
  const hash = fieldOf(raw, 'hash');
  if (typeof index !== 'number' || index > w.tip.index || typeof hash !== 'string') return false;
  return (await w.store.block(index))?.hash === hash;
}

async function append(
  w: Writer,
  blocks: readonly { block: Block; applied: Applied; trusted?: boolean }[],
  source: 'local' | 'peer',
): Promise<void> {
  if (w.closed) throw new Error('node is closed');
  await w.store.appendMany(
    blocks.map((b) => b.block),
    { trusted: blocks.map((b) => b.trusted === true) },
  );
  // Each event's balances are read off the state the previous one leaves, before any is
  // committed (a commit may evict accounts a later block changed).
  const before = new StateOverlay(w.state());
  const events = blocks.map(({ block, applied }) => {
    const ev = w.blockEvent(block, applied, false, before);
    before.absorb(applied.diff);
    return ev;
  });
  // Durable first, then announced in order; the group's rows go out as one batch.
  await w.runner.group(async () => {
    for (const [i, ev] of events.entries()) {
      w.tip = blocks[i].block;
      const announcing = w.announce({ ...ev, source });
      if (announcing) await announcing;
    }
  });
  const block = w.tip;
  const ctx = { height: block.index + 1, timestamp: w.clock(), genesis: w.genesis };
  const removed: SignedTx[] = [];
  const dropped: { tx: SignedTx; error: ChainError }[] = [];
  // Runs judged on records the cache lacked stay as they were until those are loaded.
  await w.loading(() => {
    const r = w.mempool.revalidate(w.state(), ctx);
    removed.push(...r.removed);
    dropped.push(...r.dropped);
    if (r.misses.size > 0) throw new RecordsNotLoaded(r.misses);
  });
  for (const d of dropped) w.log.warn('dropped pending transaction', { hash: d.tx.hash, code: d.error.code, why: d.error.message });
  const gone = [...removed, ...dropped.map((d) => d.tx)];
  await w.pendingLog.drop(gone.map((t) => t.hash));
  w.events$.next({ type: 'mempool', total: w.mempool.size });
}
