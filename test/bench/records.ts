/**
 * Memory against history: chains of N finished tasks (TASK_SUBMITs that time out a block later),
 * the node restarted on each with the bounded record cache (the default, core/recordCache.ts) and
 * with every record in memory (`recordCache: Infinity`, how nodes held them before). The first
 * stays flat as N grows; the second grows with it.
 */
import { buildTaskChain } from './fixtureChain.ts';
import { child, explain } from './replay.ts';
import { addRow } from './table.ts';
import { tempDir } from '../helpers/testChain.ts';

/** RSS after a restart on `sizes` finished tasks, bounded cache and unbounded. */
export async function recordsBench(sizes: readonly number[]): Promise<void> {
  const rows: { n: number; bounded: number; all: number; heapBounded: number; heapAll: number }[] = [];
  for (const n of sizes) {
    const tmp = tempDir('ombra-bench-records-');
    try {
      console.log(`records, ${n} finished tasks:`);
      const t0 = performance.now();
      await buildTaskChain(tmp.dir, { blocks: Math.ceil(n / 500), perBlock: 500 });
      console.log(`  built in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      const bounded = await child(tmp.dir, 'restart');
      console.log(`  bounded cache (default): ${explain(bounded)}`);
      const all = await child(tmp.dir, 'restart', 'all');
      console.log(`  every record in memory: ${explain(all)}`);
      rows.push({ n, bounded: bounded.rssMiB, all: all.rssMiB, heapBounded: bounded.heapUsedMiB, heapAll: all.heapUsedMiB });
    } finally {
      tmp.cleanup();
    }
  }
  const label = (r: (typeof rows)[number]) => `${r.n.toLocaleString('en')}: ${r.bounded} MiB (heap ${r.heapBounded})`;
  const first = rows[0];
  const last = rows[rows.length - 1];
  addRow({
    measure: `node RSS after restart, ${sizes.map((n) => n.toLocaleString('en')).join(' / ')} finished tasks`,
    node: `bounded record cache: ${rows.map(label).join('; ')}`,
    baseline: `every record in memory: ${rows.map((r) => `${r.all} MiB (heap ${r.heapAll})`).join('; ')}`,
    // Growth of the bounded node over the history, against the growth with every record held.
    ratio: (last.bounded - first.bounded) / Math.max(1, last.all - first.all),
    atMost: 0.25,
  });
}
