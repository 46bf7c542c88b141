/**
 * Replay and memory at scale. Chains are built once per shape; each figure is taken in a fresh
 * child process (test/bench/nodeChild.ts), so the builder's memory is not counted:
 *   replay: transfers per second through the catch-up pipeline with full verification, beside
 *           2 x the one-core node:crypto verify rate measured just before each run (two cores);
 *   memory: RSS of a node restarted on a chain of N transfers to N new accounts, started as
 *           `ombra start` does, with what holds its heap.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cpus } from 'node:os';
import { tempDir } from '../helpers/testChain.ts';
import { buildTransferChain } from './fixtureChain.ts';
import { addRow, median, range } from './table.ts';
import { sodiumRates, verifyRates } from './verifyRate.ts';

const CHILD = fileURLToPath(new URL('./nodeChild.ts', import.meta.url));
const run = promisify(execFile);

/** What the child prints. */
export interface ChildReport {
  height: number;
  openSeconds: number;
  /** CPU time of the open (every thread of the process). */
  openCpuSeconds: number;
  replaySeconds: number;
  replayCpuSeconds: number;
  rssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
  counts: { accounts: number; records: Record<string, number> };
  heldByMiB: Record<string, number>;
}

/** Runs the child on `dir` in `mode`. */
export async function child(
  dir: string,
  mode: 'restart' | 'full' | 'replay',
  recordCache?: number | 'all',
  accountCache?: number | 'all',
): Promise<ChildReport> {
  const caches = accountCache === undefined ? [recordCache] : [recordCache ?? '-', accountCache];
  const args = ['--expose-gc', CHILD, dir, mode, ...caches.filter((c) => c !== undefined).map(String)];
  const { stdout } = await run(process.execPath, args, { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as ChildReport;
}

/** Builds `txs` transfers in blocks of `perBlock`, timing the build. */
export async function build(dir: string, txs: number, perBlock: number, freshAccounts: boolean): Promise<number> {
  const t0 = performance.now();
  const blocks = Math.ceil(txs / perBlock);
  let next = 0;
  const built = await buildTransferChain(dir, {
    blocks,
    perBlock,
    freshAccounts,
    onBlock: (i) => {
      if (i * perBlock >= next) {
        next += 100_000;
        if (i > 1) console.log(`  built ${i * perBlock} transfers`);
      }
    },
  });
  console.log(
    `  chain: ${built.txs} transfers in ${blocks} blocks of ${perBlock}${freshAccounts ? ', each to a new account' : ''}, built in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return built.txs;
}

/** Replays the chain in `dir` `rounds` times, each beside a fresh verify baseline; medians. */
async function replayRounds(dir: string, txs: number, rounds: number) {
  const rates: number[] = [];
  const ratios: number[] = [];
  const baselines: number[] = [];
  // CPU time is steady when other processes share the cores: verify CPU per transaction over the
  // replay's CPU per transaction (workers and main thread) is the ratio two idle cores would show.
  const cpuRatios: number[] = [];
  // The same against libsodium, the verifier the node uses: how near its own two-core limit it is.
  const ownRatios: number[] = [];
  const ownCpuRatios: number[] = [];
  let last: ChildReport | undefined;
  for (let i = 0; i < rounds; i++) {
    const v = verifyRates();
    const own = sodiumRates() ?? v;
    last = await child(dir, 'replay');
    const rate = txs / last.replaySeconds;
    rates.push(rate);
    baselines.push(v.wall);
    ratios.push(rate / (2 * v.wall));
    cpuRatios.push(txs / (v.cpu * last.replayCpuSeconds));
    ownRatios.push(rate / (2 * own.wall));
    ownCpuRatios.push(txs / (own.cpu * last.replayCpuSeconds));
  }
  return {
    rate: median(rates),
    rates,
    baseline: median(baselines),
    baselines,
    ratio: median(ratios),
    ratios,
    cpuRatio: median(cpuRatios),
    cpuRatios,
    ownRatio: median(ownRatios),
    ownCpuRatio: median(ownCpuRatios),
    last: last!,
  };
}

/** Replay rows: 500 and 100 transfers a block, full verification. */
export async function replayBench(opts: { txs: number; rounds: number }): Promise<void> {
  for (const perBlock of [500, 100]) {
    const tmp = tempDir('ombra-bench-replay-');
    try {
      console.log(`replay, ${perBlock} transfers a block (${cpus().length} cores, verify workers: ${cpus().length}):`);
      const txs = await build(tmp.dir, opts.txs, perBlock, false);
      const r = await replayRounds(tmp.dir, txs, opts.rounds);
      console.log(
        `  replay ${r.rate.toFixed(0)} tx/s (runs ${range(r.rates)}; CPU ${r.last.replayCpuSeconds.toFixed(1)} s for ${r.last.replaySeconds.toFixed(1)} s), 1-core verify ${r.baseline.toFixed(0)}/s (runs ${range(r.baselines)}); ratios ${range(r.ratios, 2)}; by CPU time ${range(r.cpuRatios, 2)}`,
      );
      console.log(
        `  against 2 x libsodium's own 1-core rate (the node's verifier): ${r.ownRatio.toFixed(2)} wall, ${r.ownCpuRatio.toFixed(2)} by CPU time`,
      );
      addRow({
        measure: `replay, ${perBlock} transfers a block, full verification (${txs} txs)`,
        node: `${r.rate.toFixed(0)} tx/s (${range(r.rates)}); by CPU time ${r.cpuRatio.toFixed(2)} of 2 x verify; ${r.ownRatio.toFixed(2)} of 2 x libsodium (its own verifier)`,
        baseline: `2 x 1-core node:crypto verify: 2 x ${r.baseline.toFixed(0)}/s (${range(r.baselines)})`,
        ratio: r.ratio,
        atLeast: 0.85,
      });
    } finally {
      tmp.cleanup();
    }
  }
}

/** Prints what a child report says holds the memory. */
export function explain(r: ChildReport): string {
  const held = Object.entries(r.heldByMiB)
    .map(([k, v]) => `${k} ${v} MiB`)
    .join(', ');
  return `RSS ${r.rssMiB} MiB = heap ${r.heapUsedMiB} MiB used of ${r.heapTotalMiB} MiB reserved + ${(r.rssMiB - r.heapTotalMiB).toFixed(0)} MiB outside the JS heap (external ${r.externalMiB} MiB); heap held by: ${held || 'nothing measurable'}; ${r.counts.accounts} accounts, records ${JSON.stringify(r.counts.records)}`;
}

/**
 * Memory at `txs` transfers to as many new accounts: RSS of the restarted node (core only and
 * as `ombra start` runs it); with `replay`, also the replay rate and RSS at that size.
 */
export async function memoryBench(opts: { txs: number; replay: boolean; label: string }): Promise<void> {
  const tmp = tempDir('ombra-bench-memory-');
  try {
    console.log(`memory, ${opts.txs} transfers to ${opts.txs} new accounts:`);
    const txs = await build(tmp.dir, opts.txs, 500, true);
    if (opts.replay) {
      const r = await replayRounds(tmp.dir, txs, 1);
      console.log(`  replay ${r.rate.toFixed(0)} tx/s in ${r.last.replaySeconds.toFixed(1)} s; after it: ${explain(r.last)}`);
      addRow({
        measure: `replay at ${opts.label} transactions (${opts.label} new accounts), full verification`,
        node: `${r.rate.toFixed(0)} tx/s, RSS ${r.last.rssMiB} MiB after; by CPU time ${r.cpuRatio.toFixed(2)} of 2 x verify`,
        baseline: `2 x 1-core verify: 2 x ${r.baseline.toFixed(0)}/s`,
        ratio: r.ratio,
        atLeast: 0.85,
      });
    }
    const core = await child(tmp.dir, 'restart');
    console.log(`  restart (node core): opened in ${core.openSeconds.toFixed(1)} s; ${explain(core)}`);
    const full = await child(tmp.dir, 'full');
    console.log(`  restart (as ombra start: API, p2p, streams): opened in ${full.openSeconds.toFixed(1)} s; ${explain(full)}`);
    addRow({
      measure: `node RSS, ${opts.label} transfers to ${opts.label} new accounts, after restart`,
      node: `${full.rssMiB} MiB (heap ${full.heapUsedMiB} MiB; accounts state ${full.heldByMiB.accounts ?? 0} MiB); core alone ${core.rssMiB} MiB`,
      baseline: '-',
      ratio: null,
      goal: opts.txs >= 1_000_000 ? '<= 1024 MiB' : 'explained (below)',
      ...(opts.txs >= 1_000_000 ? { met: full.rssMiB <= 1024 } : {}),
    });
  } finally {
    tmp.cleanup();
  }
}
