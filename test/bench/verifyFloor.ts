/**
 * The floor under replay and import: the same blocks batched and their signatures checked by the
 * node's own pipeline and verify pool (node/verification/blockPipeline.ts, node/verification/verifyPool.ts), with nothing
 * applied, folded or written. A node that checks every signature with this verifier on these
 * cores cannot go faster than this; the replay and import rows print it beside their own figures,
 * so what the node's own work costs is plain from what the signatures cost.
 */
import type { Block } from '../../core/block.ts';
import { batchesOf, blockItems, runPipeline } from '../../node/verification/blockPipeline.ts';
import { VerifyPool } from '../../node/verification/verifyPool.ts';
import { threadCpu } from './threadCpu.ts';

/** Seconds of wall and CPU time (every thread of the process, and by kind of thread). */
export interface FloorRun {
  seconds: number;
  cpuSeconds: number;
  threads: Record<string, number>;
}

/**
 * Batches `blocks` as the caller's pipeline does (`maxBlocks` a batch; `lookahead`: two batches
 * verified ahead, as sync and the local import run it) and verifies every signature on a fresh
 * pool. Throws when a block fails: a floor measured over refused signatures would be no floor.
 */
export async function verifyFloor(
  blocks: AsyncIterable<Block> | Iterable<Block>,
  opts: { maxBlocks: number; lookahead?: boolean },
): Promise<FloorRun> {
  const threads0 = threadCpu();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const pool = new VerifyPool();
  let failed = 0;
  try {
    await runPipeline(
      batchesOf(blockItems(blocks), { maxBlocks: opts.maxBlocks }),
      pool,
      (_item, verified) => {
        if (!verified) failed++;
      },
      // As the import's group commit: it waits for the next batch's verdicts after each batch.
      opts.lookahead ? async () => undefined : undefined,
      { lookahead: opts.lookahead },
    );
  } finally {
    await pool.close();
  }
  if (failed) throw new Error(`${failed} blocks failed verification: no floor`);
  const seconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(cpu0);
  const cpuSeconds = (c.user + c.system) / 1e6;
  return { seconds, cpuSeconds, threads: threadCpu(threads0, cpuSeconds) };
}
