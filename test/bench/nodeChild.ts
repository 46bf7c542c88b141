/**
 * A node in a process of its own, for figures that must not include the benchmark's own memory:
 * `node --expose-gc test/bench/nodeChild.ts DIR MODE [RECORD_CACHE [ACCOUNT_CACHE]]` with MODE
 *   restart: opens the node on DIR/db (read models from their checkpoints);
 *   full:    starts it as `ombra start` does (HTTP API, p2p on loopback, streams, alerts);
 *   replay:  opens it, then replays the whole log with full signature verification.
 * Prints one JSON line: seconds, memory after a full GC, and what holds the heap (each read
 * model's in-memory state is dropped in turn and the heap it gives back is counted).
 */
import { join } from 'node:path';
import { launch } from '../../cli/launch.ts';
import { OmbraNode } from '../../node/node.ts';

const [dir, mode, cache, accounts] = process.argv.slice(2);
// A third argument sets the record cache (NodeOptions.recordCache; `all` keeps every record), a
// fourth the account cache (NodeOptions.accountCache; `all` keeps every account); `-`: the default.
const cacheArg = (a: string | undefined) => (a === undefined || a === '-' ? undefined : a === 'all' ? Number.POSITIVE_INFINITY : Number(a));
const recordCache = cacheArg(cache);
const accountCache = cacheArg(accounts);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const mib = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;

const c0 = process.cpuUsage();
const t0 = performance.now();
let node: OmbraNode;
if (mode === 'full') {
  const launched = await launch({ dataDir: dir, dev: false, httpHost: '127.0.0.1', httpPort: 0, p2p: { port: 0 }, rateLimits: null });
  node = launched.node;
} else node = await OmbraNode.open({ dbDir: join(dir, 'db'), recordCache, accountCache });
const openSeconds = (performance.now() - t0) / 1000;
const openCpu = process.cpuUsage(c0);
const openCpuSeconds = (openCpu.user + openCpu.system) / 1e6;
let replaySeconds = 0;
let replayCpuSeconds = 0;
if (mode === 'replay') {
  await node.runner.resetAll();
  const c0 = process.cpuUsage();
  const t1 = performance.now();
  await node.catchUp(undefined, { verifySignatures: true });
  replaySeconds = (performance.now() - t1) / 1000;
  const c = process.cpuUsage(c0);
  // Main thread and workers together (a process's CPU time counts every thread).
  replayCpuSeconds = (c.user + c.system) / 1e6;
}
await new Promise((r) => setTimeout(r, 200));
gc();
const m = process.memoryUsage();
const counts = {
  accounts: node.state().accounts.size,
  records: Object.fromEntries(Object.entries(node.state().records).map(([k, v]) => [k, (v as Map<string, unknown>).size])),
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
    rssMiB: mib(m.rss),
    heapUsedMiB: mib(m.heapUsed),
    heapTotalMiB: mib(m.heapTotal),
    externalMiB: mib(m.external),
    counts,
    heldByMiB,
  })}\n`,
);
process.exit(0);
