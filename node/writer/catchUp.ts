/**
 * Catch-up: the log replayed into the read models behind the head (all of them after a reset),
 * the consensus state re-executing each block to produce the diffs the other models fold.
 */
import { availableParallelism } from 'node:os';
import { present } from '../../core/errors.ts';
import { applyBlock } from '../../core/applyBlock.ts';
import type { Block } from '../../core/block.ts';
import { accountsProjection } from '../../projections/accounts.ts';
import { DigestedLog } from '../verification/assumeValid.ts';
import { batchesOf, blockItems, defaultBatchLimits, runPipeline } from '../verification/blockPipeline.ts';
import { VerifyPool } from '../verification/verifyPool.ts';
import { refOf, type Writer } from './writer.ts';

/** Blocks per verification batch during catch-up. */
export const CATCH_UP_CHUNK = 50;

/** What a catch-up checks and how far it goes. */
export interface CatchUpOptions {
  /** Check every block's signatures again (workers check batch k+1 while batch k is applied). */
  verifySignatures?: boolean;
  /** Stop at this height instead of the head. */
  to?: number;
  /**
   * With `verifySignatures`, on a rebuild from genesis: skip the signatures at or below the
   * height through which this node verified them itself, checking the stored bytes' digest
   * instead (node/verification/assumeValid.ts); false checks them all. Either way a full rebuild records the
   * head as verified.
   */
  assumeValid?: boolean;
  /**
   * On a verified rebuild from genesis, the workers also parse the stored blocks and check their
   * transactions' shape, hashes and txRoot, which this thread then skips: less of this thread's
   * time a block (the serial part), a little more CPU in all (each block is parsed twice). Default:
   * with 4 cores or more; on fewer the workers have no core to spare for it.
   */
  checksInWorkers?: boolean;
}

/** Cores from which a rebuild's workers take the transactions' stateless checks by default. */
const CHECKS_IN_WORKERS_FROM = 4;

/** Replays the log into projections behind the head (all of them after `resetAll`). */
export async function catchUp(w: Writer, onProgress?: (height: number, head: number) => void, opts: CatchUpOptions = {}): Promise<void> {
  await w.runner.load();
  // Diffs come from re-executing blocks on the consensus state, so it must start no later
  // than the lowest projection.
  if (w.runner.minHeight() < w.runner.height(accountsProjection)) await w.runner.resetOne(accountsProjection);
  const from = w.runner.minHeight();
  // A node started from a checkpoint cannot refold blocks it does not hold yet (checkpoint/checkpointRecord.ts).
  if (from + 1 < w.store.logFrom)
    throw new Error(
      `the read models must be refolded from block ${from + 1}, but this node started from a checkpoint and holds blocks from ${w.store.logFrom} only: wait for its background verification to fetch the history, or start it from a newer checkpoint`,
    );
  const head = Math.min(present(w.store.head(), 'the head of the log').index, opts.to ?? Infinity);
  let parent = await w.store.storedBlock(from);
  // With verification, workers check batch k+1's signatures while batch k is applied; without
  // it the node's own log is trusted (every block in it was validated before it was appended).
  // A verified rebuild from genesis reads the log's bytes into the verified digest (and skips the
  // signatures the node verified itself, under assume-valid).
  const offload = opts.checksInWorkers ?? availableParallelism() >= CHECKS_IN_WORKERS_FROM;
  const digested =
    opts.verifySignatures && from === 0 && opts.to === undefined
      ? new DigestedLog(w.store, head, { assumeValid: opts.assumeValid === true, withBytes: offload })
      : null;
  // With the checks in the workers, a rebuild starts them even when every signature is assumed valid.
  const pool = opts.verifySignatures && (!digested || digested.through < head || offload) ? new VerifyPool() : null;
  try {
    const items = digested ? digested.items() : blockItems(w.store.range(from + 1, head));
    const batches = batchesOf(items, { ...defaultBatchLimits, maxBlocks: CATCH_UP_CHUNK });
    // Writes held between the writes started every 1,000 blocks (and whenever 50,000 row
    // operations are queued: projections/prepareFold.ts): one batch and one saved position of
    // each model (~45 KB of JSON cloned and encoded) a thousand blocks, not one every ~26 blocks
    // as the writes in flight allowed (76 batches for 2,000 empty blocks before).
    await w.runner.group(() =>
      runPipeline(batches, pool, async ({ block: raw, txBytes, txsChecked }, verified) => {
        const block = raw as Block;
        // Each step answers at once when it has nothing to read (most blocks): a turn awaited a
        // block each would cost more than a near-empty block's own work.
        const prefetching = w.prefetch(block);
        if (prefetching) await prefetching;
        let applied = w.loadingNow(() =>
          applyBlock(w.state(), refOf(parent), block, w.genesis, { signaturesVerified: pool ? verified : true, txBytes, txsChecked }),
        );
        if (applied instanceof Promise) applied = await applied;
        const ev = w.blockEvent(block, applied, true);
        const preparing = w.runner.prepare(ev);
        if (preparing) await preparing;
        w.runner.fold(ev);
        parent = block;
        if (block.index % 1000 === 0) await w.runner.writeBehind();
        if (block.index % CATCH_UP_CHUNK === 0) onProgress?.(block.index, head);
      }),
    );
  } finally {
    await pool?.close();
  }
  await w.runner.flush();
  // Every block is checked now, its signatures by this node or under its own earlier mark.
  if (digested) await w.store.recordVerified(digested.mark(), digested.kept);
  w.lastCatchUp = { from, to: head, blocks: head - from };
  onProgress?.(head, head);
  if (head > from) w.log.info('projections caught up', { from, head });
}
