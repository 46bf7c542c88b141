/**
 * Replay, memory and restart at scale: a chain of N transfers to N new accounts (built once and
 * cached, test/bench/scaleChain.ts) replayed with full verification in a fresh process, then the
 * node restarted on it as `ombra start` starts it. Prints the replay rate (and its ratio to the
 * rate at 100k, and to 2 x libsodium's one-core verify rate), peak RSS during the replay, RSS at
 * rest after the restart, the restart's time, and what holds the heap.
 */
import { dropPageCache, type MemoryGroup, memoryGroup } from './memoryGroup.ts';
import { child, explain, perTx } from './replay.ts';
import { scaleChain } from './scaleChain.ts';
import { addRow } from './table.ts';
import { sodiumRates, verifyRates } from './verifyRate.ts';

/** The reference size: the rate at N is given as a ratio to the rate here. */
const REFERENCE = 100_000;

const short = (n: number) => (n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 1e3 === 0 ? `${n / 1e3}k` : String(n));

/** Builds (or finds) the chain of `txs` transfers, printing progress. */
async function chainOf(txs: number, cacheDir?: string): Promise<string> {
  let next = 0;
  const onProgress = (done: number) => {
    if (done >= next) {
      next += Math.max(100_000, Math.floor(txs / 20));
      if (done < txs) console.log(`  built ${done.toLocaleString('en')} transfers`);
    }
  };
  const { dir, built, cached } = await scaleChain(txs, { cacheDir, onProgress });
  console.log(
    `  chain: ${built.txs.toLocaleString('en')} transfers to new accounts in ${built.head} blocks (${cached ? 'cached' : 'built'}; the build took ${built.seconds.toFixed(0)} s)`,
  );
  return dir;
}

/**
 * Replays the chain in `dir` in a fresh process (inside `group` when given, reading the store
 * cold), with the 1-core verify rates measured just before.
 */
async function replayOf(dir: string, txs: number, group?: MemoryGroup) {
  const own = sodiumRates() ?? verifyRates();
  if (group) dropPageCache(dir);
  const r = await child(dir, 'replay', undefined, undefined, group);
  return { r, rate: txs / r.replaySeconds, ratio: txs / r.replaySeconds / (2 * own.wall), cpuRatio: txs / (own.cpu * r.replayCpuSeconds) };
}

/** What the scale run measures and where. */
interface ScaleOptions {
  txs: number;
  reference: boolean;
  cacheDir?: string;
  memoryLimitMiB?: number;
}

/**
 * The scale run at `txs` transactions (and as many accounts): with `reference`, the same run at
 * 100k first, for the ratio of the rates. Chains are kept in `cacheDir` (default: .bench/chains).
 * With `memoryLimitMiB`, every node process runs in a memory cgroup of that size
 * (test/bench/memoryGroup.ts), as under systemd's `MemoryMax=`.
 */
export async function scaleBench(opts: ScaleOptions): Promise<void> {
  const group = opts.memoryLimitMiB ? memoryGroup(opts.memoryLimitMiB) : undefined;
  try {
    await scaleRun(opts, group);
  } finally {
    group?.close();
  }
}

async function scaleRun(opts: ScaleOptions, group: MemoryGroup | undefined): Promise<void> {
  const { txs } = opts;
  const label = short(txs);
  if (group)
    console.log(`scale: node processes in a ${group.kind} memory group limited to ${group.limitMiB} MiB, each reading the store cold`);
  let reference: { rate: number; n: number; cpuPerTx: number } | null = null;
  if (opts.reference && txs > REFERENCE) {
    console.log(`scale: reference, ${short(REFERENCE)} transfers to ${short(REFERENCE)} new accounts:`);
    const dir = await chainOf(REFERENCE, opts.cacheDir);
    const ref = await replayOf(dir, REFERENCE, group);
    console.log(`  replay ${ref.rate.toFixed(0)} tx/s in ${ref.r.replaySeconds.toFixed(1)} s (CPU ${ref.r.replayCpuSeconds.toFixed(1)} s)`);
    reference = { rate: ref.rate, n: REFERENCE, cpuPerTx: ref.r.replayCpuSeconds / REFERENCE };
  }
  console.log(`scale: ${txs.toLocaleString('en')} transfers to ${txs.toLocaleString('en')} new accounts:`);
  const dir = await chainOf(txs, opts.cacheDir);
  const { r, rate, ratio, cpuRatio } = await replayOf(dir, txs, group);
  const groupPeak = group?.peakMiB();
  reference ??= { rate, n: txs, cpuPerTx: r.replayCpuSeconds / txs };
  // By CPU time as well: steady when other processes share the cores, where the rates are not.
  const cpuVsReference = reference.cpuPerTx / (r.replayCpuSeconds / txs);
  console.log(
    `  replay ${rate.toFixed(0)} tx/s in ${r.replaySeconds.toFixed(1)} s (CPU ${r.replayCpuSeconds.toFixed(1)} s; us CPU a transfer by thread: ${perTx(r, txs)}); peak RSS during the replay ${r.peakReplayRssMiB} MiB (anonymous ${r.peakReplayAnonMiB}, file-backed ${r.peakReplayFileMiB})`,
  );
  if (group)
    console.log(
      `  memory group: peak charge ${groupPeak} MiB (the node's memory and the page cache it read); the limit was reached ${group.reclaims()} times`,
    );
  if (group) dropPageCache(dir);
  const full = await child(dir, 'full', undefined, undefined, group);
  console.log(`  restart (as ombra start: API, p2p, streams): opened in ${full.openSeconds.toFixed(1)} s; ${explain(full)}`);
  console.log(`  heap spaces (MiB): ${JSON.stringify(full.heapSpacesMiB)}`);
  if (opts.reference)
    addRow({
      measure: `replay at ${label} transfers to ${label} new accounts, full verification`,
      node: `${rate.toFixed(0)} tx/s (CPU ${r.replayCpuSeconds.toFixed(1)} s for ${r.replaySeconds.toFixed(1)} s); ${ratio.toFixed(2)} wall, ${cpuRatio.toFixed(2)} by CPU time of 2 x libsodium's 1-core rate`,
      baseline: `replay at ${short(reference.n)}: ${reference.rate.toFixed(0)} tx/s, ${(reference.cpuPerTx * 1e6).toFixed(1)} us CPU a transfer (at ${label}: ${((r.replayCpuSeconds / txs) * 1e6).toFixed(1)}; by CPU time ${cpuVsReference.toFixed(2)})`,
      ratio: rate / reference.rate,
      atLeast: 0.7,
    });
  else
    addRow({
      measure: `replay at ${label} transfers to ${label} new accounts, full verification`,
      node: `${rate.toFixed(0)} tx/s (CPU ${r.replayCpuSeconds.toFixed(1)} s for ${r.replaySeconds.toFixed(1)} s: ${((r.replayCpuSeconds / txs) * 1e6).toFixed(1)} us a transfer); by CPU time ${cpuRatio.toFixed(2)}`,
      baseline: "2 x libsodium's 1-core verify rate",
      ratio,
      goal: 'printed',
    });
  addRow({
    measure: `peak RSS during the replay at ${label}`,
    node: `${r.peakReplayRssMiB} MiB (peaks of its parts: anonymous ${r.peakReplayAnonMiB} MiB, file-backed ${r.peakReplayFileMiB} MiB: the store's tables LevelDB maps)${
      group ? `, under a ${group.limitMiB} MiB memory limit (${group.kind}; reached ${group.reclaims()} times)` : ''
    }`,
    baseline: '-',
    ratio: null,
    goal: '<= 2048 MiB',
    met: r.peakReplayRssMiB <= 2048,
  });
  addRow({
    measure: `RSS at rest at ${label} accounts, restarted as ombra start`,
    node: `${full.rssMiB} MiB (anonymous ${full.rssAnonMiB}, file-backed ${full.rssFileMiB}; heap ${full.heapUsedMiB} MiB${
      Object.keys(full.heldByMiB).length
        ? `; held by ${Object.entries(full.heldByMiB)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')} MiB`
        : ''
    })`,
    baseline: '-',
    ratio: null,
    goal: '<= 1024 MiB',
    met: full.rssMiB <= 1024,
  });
  addRow({
    measure: `restart at ${label} accounts (open to serving, as ombra start)`,
    node: `${full.openSeconds.toFixed(1)} s`,
    baseline: '-',
    ratio: null,
    goal: '<= 10 s',
    met: full.openSeconds <= 10,
  });
}
