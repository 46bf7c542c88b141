/**
 * `npm run bench`: every row of docs/performance.md's table, each beside a baseline measured in the same run
 * on the same machine, printed as a ratio at the end with the machine noted.
 *   reads:   GET /api/chain/block/1, /api/health and a larger block (brotli) vs a bare Hono app answering the same bytes;
 *   replay:  500 and 100 transfers a block, full verification, vs 2 x the 1-core verify rate; the
 *            assume-valid rebuild of the same chains and of 50,000 near-empty blocks (--near-empty) vs the full
 *            replay, and the main thread's CPU a transfer and a block (the serial ceiling);
 *   sync:    import of near-empty blocks (sync over libp2p, local group commit) vs attestation verifies;
 *   fanout:  5,000 SSE subscribers' memory and delivery vs a bare node:http broadcast;
 *   memory:  replay and RSS of a node restarted on 200k transfers to 200k new accounts, and what holds it;
 *   records: RSS after a restart on 200k finished tasks over the same at 20k (flat in history);
 *   ratelimit, alerts: limiter overhead and webhook delivery (not in the table).
 *   sink:    (only with --only sink) `ombra sink postgres` backfilling 200k transfers vs psql \copy
 *            of the same rows, a restart from its saved state vs a refold from genesis, and the
 *            live lag from SSE event to commit vs a bare follower's.
 * Usage: npm run bench [-- --only reads|replay|sync|fanout|memory|records|ratelimit|sink] [--txs 100000] [--near-empty 50000]
 *        [--rounds 3] [--subscribers 5000]
 *        npm run bench -- --scale 10000000 [--chains DIR]   (replay rate, its ratio to the rate at 100k,
 *          peak and resting RSS, restart time and what holds the heap at 10M transactions to 10M
 *          new accounts; the built chains are kept in DIR, default .bench/chains)
 *          [--memory-limit MiB]   (every node process in a memory cgroup of that size, the store read
 *          cold: the limit an operator sets with systemd's MemoryMax=; needs write access to cgroups)
 *        npm run bench -- --scale-blocks 1000000 [--chains DIR]   (N empty blocks rebuilt with every
 *          signature checked and under assume-valid: rates, RSS, restart, a year of 1-s blocks)
 */
import { fork } from 'node:child_process';
import type { FanoutResult } from './fanout.ts';
import { replayBench } from './replay.ts';
import { scaleBench } from './scale.ts';
import { addRow, machine, printTable } from './table.ts';

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
// Where the scale run keeps its built chains (default: .bench/chains, gitignored).
const CHAINS = process.argv.includes('--chains') ? process.argv[process.argv.indexOf('--chains') + 1] : undefined;
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const SCALE = arg('scale', 0);
const SCALE_BLOCKS = arg('scale-blocks', 0);
const SUBSCRIBERS = arg('subscribers', 5000);
const ROUNDS = arg('rounds', 3);
const TXS = arg('txs', 100_000);
// Near-empty blocks in the rebuild rows: enough that the JIT's warm-up (~0.3 s of a cold
// process) does not stand for the rate a long chain rebuilds at.
const NEAR_EMPTY = arg('near-empty', 50_000);
const wants = (section: string) => (SCALE || SCALE_BLOCKS ? false : ONLY === undefined || ONLY === section);

/**
 * fanout: SUBSCRIBERS SSE subscribers on one node vs a bare node:http server writing the same
 * bytes to as many clients; time from append to the last subscriber, and memory per side.
 */
async function fanoutSection(): Promise<void> {
  console.log(`fanout: ${SUBSCRIBERS} SSE subscribers (raw sockets in a child process)`);
  // Each side in a fresh process: measured in one process, the second side's figure would be
  // taken over the first one's freed heap.
  const side = (args: string[]) =>
    new Promise<FanoutResult>((resolve, reject) => {
      const child = fork(new URL('./fanoutSide.ts', import.meta.url), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      child.once('message', (m) => resolve((m as { result: FanoutResult }).result));
      child.once('exit', (code) => (code ? reject(new Error(`fanout side exited with ${code}`)) : undefined));
    });
  const node = await side(['node', String(SUBSCRIBERS), '7']);
  const bare = await side(['bare', String(SUBSCRIBERS), '7', JSON.stringify(node.sample)]);
  const show = (name: string, r: typeof node) =>
    console.log(
      `  ${name.padEnd(34)} last ${r.lastMs.toFixed(1)} ms (first ${r.firstMs.toFixed(1)} ms; rounds ${r.rounds.map((x) => x.toFixed(0)).join(' ')}), frame ${r.frameBytes} B, memory +${r.rssMiB.toFixed(1)} MiB RSS / +${r.heapMiB.toFixed(1)} MiB heap`,
    );
  show('baseline: bare node:http broadcast', bare);
  show('node: GET /api/chain/events', node);
  const each = (mib: number) => `${((mib * 2 ** 20) / SUBSCRIBERS / 1024).toFixed(1)} KB each`;
  addRow({
    measure: `${SUBSCRIBERS} SSE subscribers, memory`,
    node: `+${node.rssMiB.toFixed(1)} MiB RSS (${each(node.rssMiB)}), heap +${node.heapMiB.toFixed(1)} MiB`,
    baseline: `bare node:http broadcast: +${bare.rssMiB.toFixed(1)} MiB RSS (${each(bare.rssMiB)})`,
    ratio: node.rssMiB / bare.rssMiB,
    atMost: 4,
  });
  addRow({
    measure: `${SUBSCRIBERS} SSE subscribers, append to last delivery`,
    node: `${node.lastMs.toFixed(0)} ms`,
    baseline: `bare node:http broadcast: ${bare.lastMs.toFixed(0)} ms`,
    ratio: node.lastMs / bare.lastMs,
    atMost: 1.5,
  });
}

console.log(`machine: ${machine()}`);
if (SCALE_BLOCKS) {
  // N empty blocks: rebuild with and without assume-valid, RSS, restart, a year's projection.
  await (await import('./scaleBlocks.ts')).scaleBlocksBench(SCALE_BLOCKS, CHAINS);
} else if (SCALE) {
  // One chain of SCALE transfers to SCALE new accounts: replay rate, peak and resting RSS, restart.
  const limit = arg('memory-limit', 0);
  if (!(limit >= 0)) throw new Error(`--memory-limit takes a size in MiB, not ${process.argv[process.argv.indexOf('--memory-limit') + 1]}`);
  await scaleBench({ txs: SCALE, reference: true, cacheDir: CHAINS, memoryLimitMiB: limit || undefined });
} else {
  if (wants('reads')) {
    const { readsBench } = await import('./reads.ts');
    await readsBench();
  }
  if (wants('replay')) await replayBench({ txs: TXS, rounds: ROUNDS, nearEmpty: NEAR_EMPTY });
  if (wants('sync')) {
    const { syncBench } = await import('./sync.ts');
    await syncBench(10_000, ROUNDS, CHAINS);
  }
  if (wants('fanout')) await fanoutSection();
  if (wants('tier')) await (await import('./tier.ts')).tierBench(SUBSCRIBERS);
  if (wants('memory')) await scaleBench({ txs: 200_000, reference: false, cacheDir: CHAINS });
  if (ONLY === 'accounts') await (await import('./accountsMemory.ts')).accountsBench([arg('accounts', 200_000)]);
  if (wants('records')) {
    const { recordsBench } = await import('./records.ts');
    await recordsBench([20_000, 200_000]);
  }
  if (ONLY === 'sink') await (await import('./sink.ts')).sinkBench(arg('txs', 200_000));
  if (ONLY === 'checkpoint') await (await import('./checkpoint.ts')).checkpointBench(TXS);
  if (ONLY === 'ratelimit' || ONLY === 'alerts' || ONLY === undefined) {
    const { rateLimitBench, deliveryBench } = await import('./rateLimit.ts');
    await rateLimitBench();
    await deliveryBench();
  }
}
printTable();
process.exit(0);
