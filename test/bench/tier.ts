/**
 * The read tier (docs/scaling.md) measured with real processes: one authority, three followers and
 * HAProxy from deploy/haproxy.cfg.template.
 *   reads:       GET /api/chain/block/1 from one follower directly (the baseline), through HAProxy
 *                with 1 follower, and with 3; with the CPU time each process spent, so the cost of a
 *                read on a follower and on HAProxy is known apart from what the machine allowed
 *                (all of it, load generator included, shares this machine's cores);
 *   subscribers: N SSE clients through HAProxy on one follower: the follower's and HAProxy's memory
 *                per subscriber, and the follower's CPU per block delivered to each.
 * docs/scaling.md sizes a tier for 100k live subscribers and 1M reads/s from these per-follower costs.
 */
import { execFile, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { waitFor } from '../helpers/nodeProcess.ts';
import { haveHaproxy, startReadTier, type ReadTier } from '../helpers/readTier.ts';
import { addRow, median } from './table.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 64;
const PATH = '/api/chain/block/1';
const LOADGEN = fileURLToPath(new URL('./loadgen.ts', import.meta.url));
const run = promisify(execFile);
// Linux counts process CPU time in clock ticks of 1/100 s (USER_HZ).
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident memory of a process in MiB, from /proc. */
function rssMiB(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024;
}

/** Runs the load generator against `url` and the CPU seconds the given processes spent meanwhile. */
async function load(url: string, pids: number[]): Promise<{ rps: number; requests: number; cpu: number[] }> {
  const before = pids.map(cpuSeconds);
  const { stdout } = await run(process.execPath, [LOADGEN, url, String(SECONDS), '{}', String(CONNECTIONS)]);
  const cpu = pids.map((p, i) => cpuSeconds(p) - before[i]);
  const { rps } = JSON.parse(stdout) as { rps: number };
  return { rps, requests: rps * SECONDS, cpu };
}

const pidOf = (p: { child: { pid?: number } } | null): number => {
  if (!p?.child.pid) throw new Error('process not running');
  return p.child.pid;
};

/** Reads per second and CPU per read: direct, through HAProxy to 1 follower, to 3 followers. */
async function readsThroughTier(tier: ReadTier): Promise<void> {
  const one = await tier.balancer([0]);
  const followers = tier.followers.map(pidOf);
  const haproxy3 = tier.url;
  const sides = {
    direct: { url: `${tier.followers[0]?.url}${PATH}`, pids: [followers[0]] },
    one: { url: `${one.url}${PATH}`, pids: [followers[0], pidOf(one)] },
    three: { url: `${haproxy3}${PATH}`, pids: [...followers, tier.haproxyPid] },
  };
  for (const s of Object.values(sides)) await load(s.url, s.pids); // warm-up
  const results: Record<keyof typeof sides, Awaited<ReturnType<typeof load>>[]> = { direct: [], one: [], three: [] };
  for (let r = 0; r < ROUNDS; r++)
    for (const [k, s] of Object.entries(sides)) results[k as keyof typeof sides].push(await load(s.url, s.pids));
  const med = (k: keyof typeof sides) => {
    const runs = results[k];
    const rps = median(runs.map((x) => x.rps));
    // CPU ms per 1,000 reads: the followers' together, then HAProxy's.
    const followerCpu = median(runs.map((x) => (x.cpu.slice(0, k === 'three' ? 3 : 1).reduce((a, b) => a + b, 0) * 1e6) / x.requests));
    const lbCpu = k === 'direct' ? 0 : median(runs.map((x) => (x.cpu[x.cpu.length - 1] * 1e6) / x.requests));
    return { rps, followerCpu, lbCpu };
  };
  const [d, o, t] = [med('direct'), med('one'), med('three')];
  const cores = availableParallelism();
  const line = (name: string, x: typeof d) =>
    console.log(
      `  ${name.padEnd(30)} ${x.rps.toFixed(0).padStart(7)} reads/s; CPU per 1,000 reads: followers ${x.followerCpu.toFixed(0)} ms, HAProxy ${x.lbCpu.toFixed(0)} ms`,
    );
  console.log(
    `tier reads: GET ${PATH}, ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} rounds (median), ${cores} cores shared by all`,
  );
  line('one follower, directly', d);
  line('HAProxy, 1 follower', o);
  line('HAProxy, 3 followers', t);
  console.log(
    `  a follower core serves ${(1e6 / o.followerCpu).toFixed(0)} reads/s; a HAProxy core forwards ${(1e6 / o.lbCpu).toFixed(0)} reads/s`,
  );
  addRow({
    measure: `reads/s through HAProxy, 3 followers (${cores} cores shared by all)`,
    node: `${t.rps.toFixed(0)} reads/s (followers ${t.followerCpu.toFixed(0)} + HAProxy ${t.lbCpu.toFixed(0)} CPU ms per 1,000)`,
    baseline: `HAProxy, 1 follower: ${o.rps.toFixed(0)} reads/s`,
    ratio: t.rps / o.rps,
    goal: `bounded by ${cores} cores`,
  });
  addRow({
    measure: 'reads/s through HAProxy, 1 follower',
    node: `${o.rps.toFixed(0)} reads/s (follower ${o.followerCpu.toFixed(0)} + HAProxy ${o.lbCpu.toFixed(0)} CPU ms per 1,000)`,
    baseline: `the follower directly: ${d.rps.toFixed(0)} reads/s (${d.followerCpu.toFixed(0)} CPU ms per 1,000)`,
    ratio: o.rps / d.rps,
  });
}

/** Opens N SSE clients through HAProxy on one follower: memory per subscriber, CPU per delivery. */
async function subscribersOnFollower(tier: ReadTier, n: number): Promise<void> {
  const lb = await tier.balancer([1]);
  const follower = pidOf(tier.followers[1]);
  const haproxy = pidOf(lb);
  const clients = fork(new URL('./fanoutClients.ts', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // The clients' child answers each request; one that cannot (connections refused or cut) ends
  // the wait with what HAProxy says rather than hanging.
  const ask = <T>(msg: unknown, key: string) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(async () => {
        clients.off('message', on);
        const state = `${await lb.serverStatus(0)}, ${await lb.serverStatus(0, 'scur')} sessions`;
        reject(new Error(`no ${key} from the subscribers within 120 s (follower: ${state})`));
      }, 120_000);
      const on = (m: Record<string, unknown>) => {
        if (!(key in m)) return;
        clearTimeout(timer);
        clients.off('message', on);
        resolve(m[key] as T);
      };
      clients.on('message', on);
      if (msg !== null) clients.send(msg as object);
    });
  const height = async () => ((await (await fetch(`${tier.authority.url}/api/chain/height`)).json()) as { height: number }).height;
  const sessions = async () => Number(await lb.serverStatus(0, 'scur'));
  /** Follower CPU seconds and blocks produced over a window of `seconds`. */
  const window = async (seconds: number) => {
    const [h0, cpu0] = [await height(), cpuSeconds(follower)];
    await new Promise((r) => setTimeout(r, seconds * 1000));
    return { cpu: cpuSeconds(follower) - cpu0, blocks: (await height()) - h0 };
  };
  try {
    const WINDOW = 10;
    const idle = await window(WINDOW);
    const [f0, h0] = [rssMiB(follower), rssMiB(haproxy)];
    await ask({ connect: { url: lb.url, path: '/api/chain/events', n } }, 'connected');
    await new Promise((r) => setTimeout(r, 2000));
    const [f1, h1, held] = [rssMiB(follower), rssMiB(haproxy), await sessions()];
    const busy = await window(WINDOW);
    const kept = await sessions();
    const kib = (mib: number) => ((mib * 1024) / held).toFixed(1);
    // CPU per block per subscriber: what the subscribers added over the idle window's rate.
    const perDeliveryUs = ((busy.cpu - (idle.cpu * busy.blocks) / Math.max(1, idle.blocks)) * 1e6) / (Math.max(1, busy.blocks) * kept);
    console.log(
      `tier subscribers: ${n} SSE clients through HAProxy on one follower (${held} held after connecting, ${kept} after ${WINDOW} s)`,
    );
    console.log(
      `  follower +${(f1 - f0).toFixed(1)} MiB RSS (${kib(f1 - f0)} KiB each); HAProxy +${(h1 - h0).toFixed(1)} MiB (${kib(h1 - h0)} KiB each)`,
    );
    console.log(
      `  follower CPU: ${((busy.cpu / Math.max(1, busy.blocks)) * 1000).toFixed(0)} ms per block with them, ${((idle.cpu / Math.max(1, idle.blocks)) * 1000).toFixed(0)} ms without: ${perDeliveryUs.toFixed(1)} us per block per subscriber`,
    );
    addRow({
      measure: `${held} SSE subscribers through HAProxy on one follower`,
      node: `follower ${kib(f1 - f0)} KiB + HAProxy ${kib(h1 - h0)} KiB each; ${perDeliveryUs.toFixed(1)} us follower CPU per block each; ${kept} still held after ${WINDOW} s`,
      baseline: '-',
      ratio: null,
    });
    await ask({ close: true }, 'closed');
  } finally {
    clients.kill();
  }
}

/** `npm run bench -- --only tier [--subscribers N]`. */
export async function tierBench(subscribers: number): Promise<void> {
  if (!haveHaproxy()) {
    console.log('tier: haproxy not installed (apt-get install -y haproxy): skipped');
    return;
  }
  // Slots of 1 s, as a network would have them; the nodes without rate limits (the load is ours).
  const tier = await startReadTier({ followers: 3, blockTimeMs: 1000 });
  try {
    await waitFor(async () => {
      const heights = await Promise.all(
        tier.followers.map(async (f) => ((await (await fetch(`${f?.url}/api/chain/height`)).json()) as { height: number }).height),
      );
      return heights.every((h) => h >= 2) ? true : undefined;
    }, 60_000);
    await readsThroughTier(tier);
    await subscribersOnFollower(tier, subscribers);
  } finally {
    await tier.stop();
  }
}
