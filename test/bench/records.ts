/**
 * Memory against history: chains of N finished tasks (TASK_SUBMITs that time out a block later),
 * the node restarted on each with the bounded record cache (the default, core/recordCache.ts) and
 * with every record in memory (`recordCache: Infinity`, how nodes held them before).
 *
 * The goal is memory flat in history: RSS after a restart on 200k finished tasks at most 1.1 x
 * the same on 20k, in blocks of 20 tasks (1,000 and 10,000 blocks). A restart reads the live rows
 * only (accounts, open records, live tasks and runs); what may still grow with history is outside
 * the JS heap: LevelDB's table files touched and their index blocks (a few MiB) and allocator
 * noise. 10% of the smaller node's RSS (~20 MiB) bounds them with room, while any per-task
 * structure left in memory exceeds it (the tasks index alone held 39 MiB at 200k, every record
 * 110 MiB). Both chains are longer than the 1,000 blocks the node's log check reads at open, so
 * that window holds the same bytes in both. The previous shape, 500 tasks a block (40 and 400
 * blocks), is measured too: there the window is the whole chain, so it grows with it (55 MiB of
 * block reads at 400 blocks of 500 before the node reopened its database after the check).
 * Chat history is measured the same way: chains of finished conversations (two turns each), the
 * chat read model a bounded cache of conversations read back as they turn (projections/chat.ts).
 */
import { buildChatChain, buildTaskChain } from './fixtureChain.ts';
import { child, explain } from './replay.ts';
import { addRow } from './table.ts';
import { tempDir } from '../helpers/testChain.ts';

/** The goal: RSS at the larger history over RSS at the smaller. */
const FLAT = 1.1;

interface Measured {
  n: number;
  rss: number;
  heap: number;
  openS: number;
  allRss: number;
  allHeap: number;
}

/** What a chain's history is made of. */
type History = 'finished tasks' | 'chat turns';

/** RSS and heap after restarts on `n` finished tasks (or chat turns), `perBlock` a block: bounded cache and every record. */
async function measure(n: number, perBlock: number, what: History): Promise<Measured> {
  const tmp = tempDir('ombra-bench-records-');
  try {
    console.log(`records, ${n} ${what}, ${perBlock} a block:`);
    const t0 = performance.now();
    await (what === 'chat turns' ? buildChatChain : buildTaskChain)(tmp.dir, { blocks: Math.ceil(n / perBlock), perBlock });
    console.log(`  built in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    // The first open after the build may still be compacting what the build wrote; a restarted
    // node is measured on the next one.
    const settle = await child(tmp.dir, 'restart');
    console.log(`  first open after the build: opened in ${settle.openSeconds.toFixed(2)} s; ${explain(settle)}`);
    const bounded = await child(tmp.dir, 'restart');
    console.log(`  bounded cache (default): opened in ${bounded.openSeconds.toFixed(2)} s; ${explain(bounded)}`);
    const all = await child(tmp.dir, 'restart', 'all');
    console.log(`  every record in memory: opened in ${all.openSeconds.toFixed(2)} s; ${explain(all)}`);
    return { n, rss: bounded.rssMiB, heap: bounded.heapUsedMiB, openS: bounded.openSeconds, allRss: all.rssMiB, allHeap: all.heapUsedMiB };
  } finally {
    tmp.cleanup();
  }
}

const k = (n: number) => `${(n / 1000).toLocaleString('en')}k`;

/** One shape's row: the larger history over the smaller. */
async function shape(small: number, large: number, perBlock: number, goal: boolean, what: History = 'finished tasks'): Promise<void> {
  const a = await measure(small, perBlock, what);
  const b = await measure(large, perBlock, what);
  const ratio = b.rss / a.rss;
  console.log(
    `  RSS ${k(large)} / ${k(small)}, ${perBlock} a block: ${ratio.toFixed(2)} (heap ${(b.heap / a.heap).toFixed(2)}); ` +
      `every record in memory: ${(b.allRss / a.allRss).toFixed(2)} (heap ${(b.allHeap / a.allHeap).toFixed(2)})`,
  );
  const blocks = (n: number) => Math.ceil(n / perBlock).toLocaleString('en');
  addRow({
    measure: `node RSS after restart, ${k(large)} ${what} in ${blocks(large)} blocks (flat in history${goal ? '' : '; the log check at open reads every block of both chains'})`,
    node: `${b.rss} MiB (heap ${b.heap}, opened in ${b.openS.toFixed(1)} s); every record in memory: ${b.allRss} MiB (heap ${b.allHeap})`,
    baseline: `the same node on ${k(small)} in ${blocks(small)} blocks: ${a.rss} MiB (heap ${a.heap}, opened in ${a.openS.toFixed(1)} s); every record: ${a.allRss} MiB (heap ${a.allHeap})`,
    ratio,
    ...(goal ? { atMost: FLAT } : {}),
  });
}

/** Both shapes: 20 tasks a block (the goal) and 500 a block (the window is the whole chain); chat turns, 20 a block. */
export async function recordsBench(sizes: readonly [number, number]): Promise<void> {
  await shape(sizes[0], sizes[1], 20, true);
  await shape(sizes[0], sizes[1], 500, false);
  await shape(sizes[0], sizes[1], 20, true, 'chat turns');
}
