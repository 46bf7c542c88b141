/**
 * One e2e run of a manifest, in CometBFT's stages: set up (genesis, keys, relays, tmpfs), start,
 * load (transfers, simulator, stream subscribers, webhooks), perturb, settle (load stopped, the
 * network left to converge), sweep (every node's chain read), stop; then the checker reads the
 * history. Everything it started is stopped at the end and on SIGINT.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cluster } from './cluster.ts';
import { History } from './history.ts';
import { call, sleep } from './http.ts';
import type { Manifest, ScheduledPerturbation } from './manifest.ts';
import { Perturber } from './perturber.ts';
import { Rng } from './rng.ts';
import { Sampler } from './sampler.ts';
import { StreamSubscriber } from './streamSubscriber.ts';
import { TransferLoad } from './transferLoad.ts';
import { WebhookReceiver } from './webhookReceiver.ts';
import { errorMessage } from '../core/errors.ts';

/** Whether this machine lets the runner mount a tmpfs (root, a kernel that allows it). */
function canMountTmpfs(dir: string): string | null {
  const probe = join(dir, 'tmpfs-probe');
  mkdirSync(probe, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe]);
    return null;
  } catch (e) {
    return String((e as { stderr?: Buffer }).stderr ?? errorMessage(e))
      .trim()
      .split('\n')[0];
  } finally {
    rmdirSync(probe);
  }
}

/** Runs `m` with its history in `out`; resolves when everything is stopped. */
export async function runManifest(m: Manifest, out: string, log: (line: string) => void): Promise<void> {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(m, null, 2)}\n`);
  const history = new History(out);
  const rng = new Rng(m.seed);
  history.record('run', { phase: 'setup', manifest: m, out });
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
    log('SIGINT: stopping the network');
  };
  process.on('SIGINT', onSigint);
  const wantsDisk = m.perturb.kinds.includes('disk_full') || m.perturb.schedule.some((s) => s.kind === 'disk_full');
  const mountProblem = wantsDisk ? canMountTmpfs(out) : null;
  if (mountProblem) {
    history.record('note', { text: `disk_full skipped: cannot mount a tmpfs (${mountProblem})` });
    log(`disk_full skipped: cannot mount a tmpfs (${mountProblem})`);
    m.perturb.kinds = m.perturb.kinds.filter((k) => k !== 'disk_full');
    m.perturb.schedule = m.perturb.schedule.filter((s) => s.kind !== 'disk_full');
  }
  const cluster = new Cluster(out, history);
  const sampler = new Sampler(cluster, history);
  const receiver = new WebhookReceiver(history);
  const load = new TransferLoad(5, history, rng);
  const subs: StreamSubscriber[] = [];
  let sim: ChildProcess | null = null;
  let simWanted = m.load.simulator;
  const background: Promise<unknown>[] = [];
  try {
    await cluster.setUp(m, wantsDisk && !mountProblem);
    log(`starting ${cluster.nodes.length} nodes (${m.authorities} authorities), history in ${out}`);
    await cluster.startAll();
    const a0 = cluster.nodes[0].proc.httpUrl;
    for (let i = 0; ; i++) {
      const h = await call(`${a0}/api/chain/height`);
      if (Number(h.body?.height ?? 0) >= 2) break;
      if (i > 240 || interrupted) throw new Error('the network made no block within 2 minutes of starting');
      await sleep(500);
    }
    history.record('run', { phase: 'started' });
    background.push(sampler.run());
    if (m.load.webhooks) {
      await receiver.listen();
      for (const n of cluster.nodes) await receiver.subscribe(n.name, n.proc.httpUrl);
    }
    for (const n of cluster.nodes) {
      for (let i = 0; i < m.load.sseSubscribers; i++)
        subs.push(new StreamSubscriber(`${n.name}-sse${i}`, 'sse', n.name, n.proc.httpUrl, history));
      for (let i = 0; i < m.load.wsSubscribers; i++)
        subs.push(new StreamSubscriber(`${n.name}-ws${i}`, 'ws', n.name, n.proc.httpUrl, history));
    }
    for (const s of subs) background.push(s.run());
    const up = () => cluster.nodes.filter((n) => n.proc.running && !n.proc.paused);
    if (m.load.transferRate > 0) {
      await load.fund(cluster.nodes[0].name, a0);
      background.push(
        load.run(m.load.transferRate, () => {
          const n = up().length ? rng.pick(up()) : null;
          return n && { name: n.name, url: n.proc.httpUrl };
        }),
      );
    }
    const startSim = () => {
      const target = rng.pick(up().length ? up() : cluster.nodes);
      const child = spawn(
        process.execPath,
        [
          join(import.meta.dirname, '..', 'cli', 'bin.js'),
          'simulate',
          '--url',
          target.proc.httpUrl,
          '--seconds',
          String(m.durationS),
          '--seed',
          String(m.seed),
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      history.record('simulator', { event: 'start', node: target.name, pid: child.pid });
      let tail = '';
      child.stderr?.on('data', (c: Buffer) => {
        tail = (tail + c.toString()).slice(-500);
      });
      child.once('exit', (code, signal) => {
        history.record('simulator', {
          event: 'exit',
          node: target.name,
          code,
          signal,
          expected: !simWanted,
          tail: tail.trim().split('\n').slice(-2),
        });
        // The simulator gives up when its node goes away (a known fault): start it again elsewhere.
        if (simWanted)
          setTimeout(() => {
            if (simWanted) sim = startSim();
          }, 5000);
      });
      return child;
    };
    if (m.load.simulator) sim = startSim();
    const perturber = new Perturber(cluster, history, rng, m.perturb.delayMs, m.perturb.spare);
    // A kill lands right after the node acknowledged a transaction, before it could gossip it.
    if (m.load.transferRate > 0) perturber.beforeKill = (name, url) => load.submitNow(name, url);
    // Watchdog: a node that exited on its own (not inside a perturbation) is started again, with a
    // doubling wait (2 s to 64 s) while it keeps failing before it serves (a data dir it refuses).
    const retries = new Map<string, { count: number; at: number }>();
    const watchdog = setInterval(() => {
      for (const n of cluster.nodes) {
        const r = retries.get(n.name) ?? { count: 0, at: 0 };
        if ((sampler.heads.get(n.name)?.t ?? 0) > r.at) r.count = 0;
        if (n.proc.running || perturber.active.has(n.name) || interrupted || Date.now() < r.at + 2000 * 2 ** Math.min(5, r.count)) continue;
        history.record('note', { text: `${n.name} was down outside a perturbation: restarted (attempt ${r.count + 1})` });
        retries.set(n.name, { count: r.count + 1, at: Date.now() });
        n.proc.start();
      }
    }, 1000);
    history.record('run', { phase: 'perturb' });
    log(`load and perturbations for ${m.durationS} s`);
    const t0 = Date.now();
    const endAt = t0 + m.durationS * 1000;
    const plan: ScheduledPerturbation[] = [...m.perturb.schedule].sort((a, b) => a.atS - b.atS);
    let nextRandom = m.perturb.kinds.length ? t0 + rng.between(...m.perturb.intervalS) * 1000 : Number.POSITIVE_INFINITY;
    while (Date.now() < endAt && !interrupted) {
      const due = plan.length && t0 + plan[0].atS * 1000 <= Date.now() ? plan.shift() : undefined;
      if (due) await perturber.run(due);
      else if (Date.now() >= nextRandom) {
        // Start to start: the next perturbation is due an interval after this one began.
        const began = Date.now();
        const outageS = rng.between(...m.perturb.outageS);
        if (Date.now() + outageS * 1000 < endAt) {
          const kind = rng.pick(m.perturb.kinds);
          log(`perturbation ${kind} (${outageS.toFixed(1)} s)`);
          await perturber.run({ kind, nodes: [], outageS });
        }
        nextRandom = began + rng.between(...m.perturb.intervalS) * 1000;
      } else await sleep(250);
    }
    history.record('run', { phase: 'settle' });
    log(`settling: load stopped, ${m.settleS} s for the network to converge`);
    load.stop();
    simWanted = false;
    sim?.kill('SIGTERM');
    const settleEnd = Date.now() + m.settleS * 1000;
    while (Date.now() < settleEnd && !interrupted) await sleep(500);
    clearInterval(watchdog);
    if (!interrupted) {
      history.record('run', { phase: 'sweep' });
      log('reading every chain');
      await sampler.sweep();
      await sampler.txStatus([...load.acked.keys()]);
    }
  } finally {
    simWanted = false;
    sim?.kill('SIGTERM');
    load.stop();
    sampler.stop();
    for (const s of subs) s.stop();
    await receiver.close();
    await cluster.stopAll();
    await Promise.race([Promise.allSettled(background), sleep(5000)]);
    history.record('run', { phase: 'stopped', interrupted });
    await history.close();
    process.off('SIGINT', onSigint);
  }
}
