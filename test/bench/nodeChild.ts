/**
 * A node in a process of its own, for figures that must not include the benchmark's own memory:
 * `node --expose-gc test/bench/nodeChild.ts DIR MODE [RECORD_CACHE [ACCOUNT_CACHE]]` with MODE
 *   restart: opens the node on DIR/db (read models from their checkpoints);
 *   full:    starts it as `ombra start` does (HTTP API, p2p on loopback, streams, alerts);
 *   replay:  opens the log without catching anything up, drops every read model and replays
 *            the whole log with full signature verification (as `ombra replay --verify-all`);
 *   rebuild: the same under assume-valid (as `ombra replay`: signatures at or below the node's
 *            verified mark skipped, the stored bytes' digest checked);
 *   replay+workers, rebuild+workers: the same with the transactions' stateless checks in the
 *            verify workers whatever the cores (CatchUpOptions.checksInWorkers).
 * Prints one JSON line: seconds, CPU by thread, peak and resting memory after a full GC, the V8
 * heap spaces, and what holds the heap (each read model's in-memory state is dropped in turn and
 * the heap it gives back is counted).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapSpaceStatistics } from 'node:v8';
import { launch } from '../../launch/launch.ts';
import { CATCH_UP_CHUNK } from '../../node/writer/catchUp.ts';
import { OmbraNode } from '../../node/node.ts';
import { threadCpu } from './threadCpu.ts';
import { verifyFloor } from './verifyFloor.ts';

const [dir, given, cache, accounts] = process.argv.slice(2);
// `replay+workers`, `rebuild+workers`: the transactions' stateless checks in the verify workers
// whatever the cores (CatchUpOptions.checksInWorkers); without the suffix, the node's default.
const mode = given.replace(/\+workers$/, '');
const checksInWorkers = given.endsWith('+workers') ? true : undefined;
// A third argument sets the record cache (NodeOptions.recordCache; `all` keeps every record), a
// fourth the account cache (NodeOptions.accountCache; `all` keeps every account); `-`: the default.
const cacheArg = (a: string | undefined) => (a === undefined || a === '-' ? undefined : a === 'all' ? Number.POSITIVE_INFINITY : Number(a));
const recordCache = cacheArg(cache);
const accountCache = cacheArg(accounts);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const mib = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;

/**
 * RSS in its two parts (Linux; zeros elsewhere): anonymous memory (heaps, LevelDB's cache and
 * memtables) and file-backed pages (LevelDB maps the store's tables it reads: clean pages of the
 * page cache, dropped by the kernel under memory pressure, counted in RSS while mapped).
 */
function rssParts(): { anon: number; file: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    return { anon: kb('RssAnon'), file: kb('RssFile') };
  } catch {
    return { anon: 0, file: 0 };
  }
}

const c0 = process.cpuUsage();
const t0 = performance.now();
let node: OmbraNode;
if (mode === 'full') {
  const launched = await launch({ dataDir: dir, dev: false, httpHost: '127.0.0.1', httpPort: 0, p2p: { port: 0 }, rateLimits: null });
  node = launched.node;
} else
  node = await OmbraNode.open({
    dbDir: join(dir, 'db'),
    recordCache,
    accountCache,
    start: mode !== 'replay' && mode !== 'rebuild' && mode !== 'floor',
  });
const openSeconds = (performance.now() - t0) / 1000;
const openCpu = process.cpuUsage(c0);
const openCpuSeconds = (openCpu.user + openCpu.system) / 1e6;
let replaySeconds = 0;
let replayCpuSeconds = 0;
let replayThreads: Record<string, number> = {};
let peakReplayRssMiB = 0;
let peakReplayAnonMiB = 0;
let peakReplayFileMiB = 0;
if (mode === 'replay' || mode === 'rebuild') {
  await node.runner.resetAll();
  gc();
  const threads0 = threadCpu();
  const c0 = process.cpuUsage();
  // RSS sampled through the replay (the process's high-water mark also counts the open).
  let peak = process.memoryUsage.rss();
  let peakAnon = 0;
  let peakFile = 0;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
    const parts = rssParts();
    peakAnon = Math.max(peakAnon, parts.anon);
    peakFile = Math.max(peakFile, parts.file);
  };
  const sampler = setInterval(sample, 100);
  const t1 = performance.now();
  // Progress on stderr about every 5% of a long replay: the trend of rate and memory as it grows.
  let mark = { at: t1, height: 0 };
  const step = Math.max(1000, Math.ceil(node.head().index / 20));
  const progress = (height: number, head: number) => {
    if (height - mark.height < step && height < head) return;
    const now = performance.now();
    const txs = (height - mark.height) * (node.head().transactions.length || 1);
    const parts = rssParts();
    process.stderr.write(
      `    replayed ${height}/${head} blocks in ${((now - t1) / 1000).toFixed(0)} s: ~${(txs / ((now - mark.at) / 1000)).toFixed(0)} tx/s lately, RSS ${mib(process.memoryUsage.rss())} MiB (anonymous ${mib(parts.anon)}, file-backed ${mib(parts.file)}), heap ${mib(process.memoryUsage().heapUsed)} MiB\n`,
    );
    mark = { at: now, height };
  };
  await node.catchUp(node.head().index >= 20_000 ? progress : undefined, {
    verifySignatures: true,
    assumeValid: mode === 'rebuild',
    checksInWorkers,
  });
  replaySeconds = (performance.now() - t1) / 1000;
  clearInterval(sampler);
  sample();
  peakReplayRssMiB = mib(peak);
  peakReplayAnonMiB = mib(peakAnon);
  peakReplayFileMiB = mib(peakFile);
  const c = process.cpuUsage(c0);
  // Main thread and workers together (a process's CPU time counts every thread).
  replayCpuSeconds = (c.user + c.system) / 1e6;
  replayThreads = threadCpu(threads0, replayCpuSeconds);
} else if (mode === 'floor') {
  gc();
  const run = await verifyFloor(node.store.range(1, node.head().index), { maxBlocks: CATCH_UP_CHUNK });
  replaySeconds = run.seconds;
  replayCpuSeconds = run.cpuSeconds;
  replayThreads = run.threads;
}
await new Promise((r) => setTimeout(r, 200));
gc();
const m = process.memoryUsage();
// Its parts read at the same moment (what follows allocates).
const parts = rssParts();
const heapSpacesMiB = Object.fromEntries(
  getHeapSpaceStatistics()
    .filter((s) => s.space_used_size > 0.05 * 2 ** 20)
    .map((s) => [s.space_name, mib(s.space_used_size)]),
);
// No consensus state is loaded when nothing was applied (the floor).
const state = node.state() as ReturnType<OmbraNode['state']> | undefined;
const counts = {
  accounts: state?.accounts.size ?? 0,
  records: Object.fromEntries(Object.entries(state?.records ?? {}).map(([k, v]) => [k, (v as Map<string, unknown>).size])),
};
const slots = (node.runner as unknown as { parts: { slots: Map<string, { state: unknown }> } }).parts.slots;
const heldByMiB: Record<string, number> = {};
let before = process.memoryUsage().heapUsed;
for (const [name, slot] of slots) {
  slot.state = undefined;
  gc();
  const after = process.memoryUsage().heapUsed;
  if (before - after > 0.05 * 2 ** 20) heldByMiB[name] = mib(before - after);
  before = after;
}
process.stdout.write(
  `${JSON.stringify({
    height: node.head().index,
    openSeconds,
    openCpuSeconds,
    replaySeconds,
    replayCpuSeconds,
    replayThreads,
    peakReplayRssMiB,
    peakReplayAnonMiB,
    peakReplayFileMiB,
    peakRssMiB: mib(process.resourceUsage().maxRSS * 1024),
    rssMiB: mib(m.rss),
    rssAnonMiB: mib(parts.anon),
    rssFileMiB: mib(parts.file),
    heapUsedMiB: mib(m.heapUsed),
    heapTotalMiB: mib(m.heapTotal),
    externalMiB: mib(m.external),
    heapSpacesMiB,
    counts,
    heldByMiB,
  })}\n`,
);
process.exit(0);
