/**
 * Replay: transfers per second through the catch-up pipeline with full verification, beside its
 * limit, 2 x libsodium's one-core verify rate measured just before each run (the node's own
 * verifier on two cores), by wall clock and by CPU time. Each figure is taken in a fresh child
 * process (test/bench/nodeChild.ts), so the builder's memory and CPU are not counted.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { present } from '../../core/errors.ts';
import { tempDir } from '../helpers/testChain.ts';
import { buildTransferChain } from './fixtureChain.ts';
import type { MemoryGroup } from './memoryGroup.ts';
import { addRow, median, range } from './table.ts';
import { sodiumRates, verifyRates } from './verifyRate.ts';

const CHILD = fileURLToPath(new URL('./nodeChild.ts', import.meta.url));

/** What the child prints. */
export interface ChildReport {
  height: number;
  openSeconds: number;
  /** CPU time of the open (every thread of the process). */
  openCpuSeconds: number;
  replaySeconds: number;
  replayCpuSeconds: number;
  /** Seconds of CPU by kind of thread during the replay (test/bench/threadCpu.ts). */
  replayThreads: Record<string, number>;
  /** Highest RSS sampled during the replay, and the highest of each of its parts. */
  peakReplayRssMiB: number;
  peakReplayAnonMiB: number;
  peakReplayFileMiB: number;
  rssMiB: number;
  /** RSS at rest: anonymous memory and file-backed pages (the store's tables LevelDB maps). */
  rssAnonMiB: number;
  rssFileMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
  heapSpacesMiB: Record<string, number>;
  counts: { accounts: number; records: Record<string, number> };
  heldByMiB: Record<string, number>;
}

/**
 * Runs the child on `dir` in `mode` (inside `group`, a memory limit, when given); what it prints on
 * stderr (replay progress) goes straight through.
 */
export function child(
  dir: string,
  mode: 'restart' | 'full' | 'replay' | 'rebuild' | 'floor' | 'replay+workers' | 'rebuild+workers',
  recordCache?: number | 'all',
  accountCache?: number | 'all',
  group?: MemoryGroup,
): Promise<ChildReport> {
  const caches = accountCache === undefined ? [recordCache] : [recordCache ?? '-', accountCache];
  const args = ['--expose-gc', CHILD, dir, mode, ...caches.filter((c) => c !== undefined).map(String)];
  const [cmd, argv] = group ? group.wrap(process.execPath, args) : [process.execPath, args];
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    c.on('error', reject);
    c.on('close', (code) => {
      if (code !== 0) reject(new Error(`bench child (${mode}) exited with ${code}`));
      else resolve(JSON.parse(present(out.trim().split('\n').pop(), 'the child report')) as ChildReport);
    });
  });
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

/** Replays the chain in `dir` `rounds` times, each beside fresh 1-core verify rates; medians. */
async function replayRounds(dir: string, txs: number, rounds: number) {
  const rates: number[] = [];
  // The limit: 2 x libsodium's one-core rate (the node's own verifier, two cores). By CPU time,
  // libsodium's verify CPU per transaction over the replay's CPU per transaction (every thread):
  // the ratio two idle cores would show, steady when other processes share the cores.
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const limits: number[] = [];
  // The same against node:crypto's rate, the second wave's baseline.
  const opensslRatios: number[] = [];
  // The floor: the same log read and its signatures verified by the same pipeline and pool,
  // nothing applied (test/bench/verifyFloor.ts), in the same round against the same limit.
  const floorRatios: number[] = [];
  const floorCpuRatios: number[] = [];
  let last: ChildReport | undefined;
  let floor: ChildReport | undefined;
  // Assume-valid rebuilds of the same chain in the same rounds (the full replay records the mark).
  const rebuildRates: number[] = [];
  const rebuildRatios: number[] = [];
  let rebuild: ChildReport | undefined;
  // Both again with the transactions' stateless checks in the workers, as the node does from 4
  // cores (CatchUpOptions.checksInWorkers): the main thread's share on a machine with cores to spare.
  let offloaded: { replay: ChildReport; rebuild: ChildReport } | undefined;
  for (let i = 0; i < rounds; i++) {
    const v = verifyRates();
    const own = sodiumRates() ?? v;
    floor = await child(dir, 'floor');
    floorRatios.push(txs / floor.replaySeconds / (2 * own.wall));
    floorCpuRatios.push(txs / (own.cpu * floor.replayCpuSeconds));
    last = await child(dir, 'replay');
    const rate = txs / last.replaySeconds;
    rates.push(rate);
    limits.push(2 * own.wall);
    ratios.push(rate / (2 * own.wall));
    cpuRatios.push(txs / (own.cpu * last.replayCpuSeconds));
    opensslRatios.push(rate / (2 * v.wall));
    rebuild = await child(dir, 'rebuild');
    offloaded = { replay: await child(dir, 'replay+workers'), rebuild: await child(dir, 'rebuild+workers') };
    rebuildRates.push(txs / rebuild.replaySeconds);
    rebuildRatios.push(last.replaySeconds / rebuild.replaySeconds);
  }
  const done = present(last, 'a replay round');
  return {
    rebuild: present(rebuild, 'a rebuild round'),
    offloaded: present(offloaded, 'a round with the checks in the workers'),
    rebuildRates,
    rebuildRatios,
    floor: present(floor, 'a floor round'),
    floorRatios,
    floorCpuRatios,
    rate: median(rates),
    rates,
    limit: median(limits),
    limits,
    ratio: median(ratios),
    ratios,
    cpuRatio: median(cpuRatios),
    cpuRatios,
    opensslRatio: median(opensslRatios),
    last: done,
  };
}

/** Microseconds of CPU a transaction by kind of thread. */
export const perTx = (r: ChildReport, txs: number): string =>
  Object.entries(r.replayThreads)
    .map(([k, s]) => `${k} ${((s * 1e6) / txs).toFixed(1)}`)
    .join(', ');

/** Main-thread CPU a unit (us) and the rate it allows however many cores verify: 1 / main-thread time. */
const serial = (r: ChildReport, units: number) => {
  const us = ((r.replayThreads.main ?? 0) * 1e6) / units;
  return { us, rate: 1e6 / us };
};

/**
 * Rebuild rows: the assume-valid rebuild of a chain against its full-verification replay in the
 * same rounds, and the main thread's CPU (the serial ceiling: 1 / main-thread time a unit).
 */
function rebuildRows(r: Awaited<ReturnType<typeof replayRounds>>, units: number, unit: string, what: string): void {
  // The serial ceiling on 16 cores: the node's default there keeps the checks in the workers.
  const full = serial(r.offloaded.replay, units);
  const av = serial(r.offloaded.rebuild, units);
  const here = { full: serial(r.last, units), av: serial(r.rebuild, units) };
  const us = (x: ChildReport) => ((x.replayCpuSeconds * 1e6) / units).toFixed(1);
  console.log(
    `  rebuild under assume-valid: ${median(r.rebuildRates).toFixed(0)} ${unit}/s (runs ${range(r.rebuildRates)}), ${us(r.rebuild)} us CPU a ${unit} (${perTx(r.rebuild, units)}); ${median(r.rebuildRatios).toFixed(2)}x the full replay's rate (runs ${range(r.rebuildRatios, 2)})`,
  );
  console.log(
    `  main thread: ${here.full.us.toFixed(1)} us a ${unit} in the full replay, ${here.av.us.toFixed(1)} us under assume-valid; with the checks in the workers (the default from 4 cores) ${full.us.toFixed(1)} us (${full.rate.toFixed(0)}/s on any number of cores) and ${av.us.toFixed(1)} us (${av.rate.toFixed(0)}/s), for ${((r.offloaded.replay.replayCpuSeconds * 1e6) / units).toFixed(1)} and ${((r.offloaded.rebuild.replayCpuSeconds * 1e6) / units).toFixed(1)} us CPU a ${unit} in all`,
  );
  // By CPU time too: the steady measure when other processes share the cores.
  const cpuRatio = r.last.replayCpuSeconds / r.rebuild.replayCpuSeconds;
  console.log(`  by CPU time the rebuild takes ${(1 / cpuRatio).toFixed(2)} of the full replay's (${cpuRatio.toFixed(2)}x)`);
  addRow({
    measure: `rebuild under assume-valid vs full-verification replay, ${what}`,
    node: `${median(r.rebuildRates).toFixed(0)} ${unit}/s (${range(r.rebuildRates)}), ${us(r.rebuild)} us CPU a ${unit}; ${cpuRatio.toFixed(2)}x by CPU time`,
    baseline: `full replay of the same chain, same rounds: ${r.rate.toFixed(0)} ${unit}/s, ${us(r.last)} us CPU a ${unit}`,
    ratio: median(r.rebuildRatios),
    atLeast: 3,
  });
  addRow({
    measure: `main-thread CPU a ${unit} (serial ceiling, 1 / main-thread time), ${what}`,
    node: `checks in the workers (default from 4 cores): ${full.us.toFixed(1)} us full replay, ${av.us.toFixed(1)} us assume-valid: ${full.rate.toFixed(0)} / ${av.rate.toFixed(0)} ${unit}/s on 16 cores; on this thread (fewer cores): ${here.full.us.toFixed(1)} / ${here.av.us.toFixed(1)} us`,
    baseline: '150,000 a second',
    ratio: full.rate / 150_000,
    atLeast: 1,
  });
}

/** Near-empty blocks (one transfer each): assume-valid rebuild blocks/s, against the full replay. */
async function nearEmptyBench(rounds: number, blocks: number): Promise<void> {
  const tmp = tempDir('ombra-bench-rebuild-');
  try {
    console.log(`rebuild of ${blocks} near-empty blocks (one transfer each):`);
    await build(tmp.dir, blocks, 1, false);
    const r = await replayRounds(tmp.dir, blocks, rounds);
    console.log(
      `  full replay ${r.rate.toFixed(0)} blocks/s (runs ${range(r.rates)}), ${((r.last.replayCpuSeconds * 1e6) / blocks).toFixed(1)} us CPU a block (${perTx(r.last, blocks)}); floor ${((r.floor.replayCpuSeconds * 1e6) / blocks).toFixed(1)} us (${perTx(r.floor, blocks)})`,
    );
    rebuildRows(r, blocks, 'block', `${blocks} near-empty blocks`);
    const rate = median(r.rebuildRates);
    addRow({
      measure: `assume-valid rebuild of ${blocks} near-empty blocks, blocks/s`,
      node: `${rate.toFixed(0)} blocks/s (${range(r.rebuildRates)}); a year of one-second blocks (31.5M) in ${(31_536_000 / rate / 60).toFixed(0)} min`,
      baseline: '30,000 blocks/s',
      ratio: rate / 30_000,
      atLeast: 1,
    });
  } finally {
    tmp.cleanup();
  }
}

/** Replay rows: 500 and 100 transfers a block, full verification, against 2 x libsodium's 1-core rate. */
export async function replayBench(opts: { txs: number; rounds: number; nearEmpty: number }): Promise<void> {
  await nearEmptyBench(opts.rounds, opts.nearEmpty);
  for (const perBlock of [500, 100]) {
    const tmp = tempDir('ombra-bench-replay-');
    try {
      console.log(`replay, ${perBlock} transfers a block (${cpus().length} cores, verify workers: ${cpus().length}):`);
      const txs = await build(tmp.dir, opts.txs, perBlock, false);
      const r = await replayRounds(tmp.dir, txs, opts.rounds);
      const cpu = r.last.replayCpuSeconds;
      console.log(
        `  replay ${r.rate.toFixed(0)} tx/s (runs ${range(r.rates)}; CPU ${cpu.toFixed(1)} s for ${r.last.replaySeconds.toFixed(1)} s = ${((cpu * 1e6) / txs).toFixed(1)} us a transfer: ${perTx(r.last, txs)}); limit 2 x libsodium 1-core ${(r.limit / 2).toFixed(0)}/s (runs ${range(r.limits.map((x) => x / 2))}); ratios ${range(r.ratios, 2)} wall, ${range(r.cpuRatios, 2)} by CPU time; ${r.opensslRatio.toFixed(2)} of 2 x node:crypto`,
      );
      const floorUs = (r.floor.replayCpuSeconds * 1e6) / txs;
      console.log(
        `  floor (the log read and every signature verified by the same pipeline, nothing applied): ${(txs / r.floor.replaySeconds).toFixed(0)} tx/s, ${floorUs.toFixed(1)} us CPU a transfer (${perTx(r.floor, txs)}); ratios ${range(r.floorRatios, 2)} wall, ${range(r.floorCpuRatios, 2)} by CPU time; the node's own work beyond it: ${((cpu * 1e6) / txs - floorUs).toFixed(1)} us CPU a transfer`,
      );
      addRow({
        measure: `replay, ${perBlock} transfers a block, full verification (${txs} txs)`,
        node: `${r.rate.toFixed(0)} tx/s (${range(r.rates)}); CPU ${cpu.toFixed(1)} s for ${r.last.replaySeconds.toFixed(1)} s; by CPU time ${r.cpuRatio.toFixed(2)} (${range(r.cpuRatios, 2)}); floor (read and verify only) ${median(r.floorRatios).toFixed(2)} wall, ${median(r.floorCpuRatios).toFixed(2)} by CPU time`,
        baseline: `2 x libsodium 1-core verify: 2 x ${(r.limit / 2).toFixed(0)}/s (${range(r.limits.map((x) => x / 2))})`,
        ratio: r.ratio,
        atLeast: 0.8,
      });
      rebuildRows(r, txs, 'transfer', `${perBlock} transfers a block`);
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
  return `RSS ${r.rssMiB} MiB = heap ${r.heapUsedMiB} MiB used of ${r.heapTotalMiB} MiB reserved + ${(r.rssMiB - r.heapTotalMiB).toFixed(0)} MiB outside the JS heap (external ${r.externalMiB} MiB); heap held by: ${held || 'nothing measurable'}; ${r.counts.accounts} accounts in memory, records ${JSON.stringify(Object.fromEntries(Object.entries(r.counts.records).filter(([, n]) => n > 0)))}`;
}
