/**
 * Memory against history: chains of N finished tasks (TASK_SUBMITs that time out a block later),
 * the node restarted on each with the bounded record cache (the default, core/recordCache.ts) and
 * with every record in memory (`recordCache: Infinity`, how nodes held them before). The goal is
 * memory flat in history: RSS after a restart on the largest chain at most 1.1 x the smallest's.
 * A restart reads the live rows only (accounts, open records, live tasks and runs), so what may
 * still grow with history is outside the JS heap: LevelDB's open table files and their index and
 * filter blocks (a few MiB at 200k tasks) and allocator noise; 10% of the smallest node's RSS
 * (~20 MiB) bounds them with room, while any per-task structure left in memory would exceed it
 * (the tasks index alone held 39 MiB at 200k, all records 110 MiB).
 */
import { buildTaskChain } from './fixtureChain.ts';
import { child, explain } from './replay.ts';
import { addRow } from './table.ts';
import { tempDir } from '../helpers/testChain.ts';

/** The goal: RSS at the largest history over RSS at the smallest. */
const FLAT = 1.1;

/** RSS and heap after a restart on `sizes` finished tasks, bounded cache and unbounded. */
export async function recordsBench(sizes: readonly number[]): Promise<void> {
  const rows: { n: number; rss: number; heap: number; openS: number; allRss: number; allHeap: number }[] = [];
  for (const n of sizes) {
    const tmp = tempDir('ombra-bench-records-');
    try {
      console.log(`records, ${n} finished tasks:`);
      const t0 = performance.now();
      await buildTaskChain(tmp.dir, { blocks: Math.ceil(n / 500), perBlock: 500 });
      console.log(`  built in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      // The first open after the build settles LevelDB's compactions; the measured one follows.
      const settle = await child(tmp.dir, 'restart');
      console.log(`  first open after the build: opened in ${settle.openSeconds.toFixed(2)} s; ${explain(settle)}`);
      const bounded = await child(tmp.dir, 'restart');
      console.log(`  bounded cache (default): opened in ${bounded.openSeconds.toFixed(2)} s; ${explain(bounded)}`);
      const all = await child(tmp.dir, 'restart', 'all');
      console.log(`  every record in memory: opened in ${all.openSeconds.toFixed(2)} s; ${explain(all)}`);
      rows.push({ n, rss: bounded.rssMiB, heap: bounded.heapUsedMiB, openS: bounded.openSeconds, allRss: all.rssMiB, allHeap: all.heapUsedMiB });
    } finally {
      tmp.cleanup();
    }
  }
  const k = (n: number) => `${(n / 1000).toLocaleString('en')}k`;
  const first = rows[0];
  const last = rows[rows.length - 1];
  const ratio = last.rss / first.rss;
  console.log(
    `  RSS ${k(last.n)} / ${k(first.n)}: ${ratio.toFixed(2)} (heap ${(last.heap / first.heap).toFixed(2)}); ` +
      `every record in memory: ${(last.allRss / first.allRss).toFixed(2)} (heap ${(last.allHeap / first.allHeap).toFixed(2)})`,
  );
  addRow({
    measure: `node RSS after restart, ${k(last.n)} finished tasks (flat in history)`,
    node: `${last.rss} MiB (heap ${last.heap}, opened in ${last.openS.toFixed(1)} s); every record in memory: ${last.allRss} MiB (heap ${last.allHeap})`,
    baseline: `the same node on ${k(first.n)} finished tasks: ${first.rss} MiB (heap ${first.heap}, opened in ${first.openS.toFixed(1)} s)`,
    ratio,
    atMost: FLAT,
  });
}
