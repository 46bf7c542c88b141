/**
 * The perturbations, one at a time: kill -9 and restart on the same data dir, SIGSTOP/SIGCONT,
 * graceful restart (SIGTERM), a cut of every link of one node, a partition of the authorities
 * (followers on either side), delayed or dropped links, and a full disk (a node's tmpfs data dir
 * filled, then freed). Each is recorded at its start and end with the nodes it took away from
 * the network, which is what the checker's liveness rule needs.
 */
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Cluster, ClusterNode } from './cluster.ts';
import type { History } from './history.ts';
import { call, sleep } from './http.ts';
import type { PerturbationKind } from './manifest.ts';
import type { Rng } from './rng.ts';
import { errorCode } from '../core/errors.ts';

/** The kinds that stop, restart or starve a node's process, which a spared node never gets at random. */
const PROCESS_FAULTS: ReadonlySet<PerturbationKind> = new Set(['kill', 'pause', 'restart', 'disk_full']);

/** The nodes a random perturbation of `kind` may hit: a full disk needs a tmpfs, and spared nodes get only link faults. */
export function candidatesFor<N extends { name: string; tmpfs: string | null }>(
  kind: PerturbationKind,
  nodes: readonly N[],
  spare: ReadonlySet<string>,
): N[] {
  const movable = PROCESS_FAULTS.has(kind) ? nodes.filter((n) => !spare.has(n.name)) : [...nodes];
  return kind === 'disk_full' ? movable.filter((n) => n.tmpfs) : movable;
}

/** What to do: a kind, the nodes it hits (empty: chosen here) and how long it lasts. */
export interface PerturbationPlan {
  kind: PerturbationKind;
  nodes: string[];
  outageS: number;
}

/** Runs perturbations against a cluster. */
export class Perturber {
  private readonly cluster: Cluster;
  private readonly history: History;
  private readonly rng: Rng;
  private readonly delayMs: number;
  /** Nodes no random kill, pause, restart or full disk picks. */
  private readonly spare: ReadonlySet<string>;
  private seq = 0;
  /** Called on each node just before it is killed (the runner submits a transaction to it). */
  beforeKill: (name: string, url: string) => Promise<void> = async () => undefined;
  /** Nodes inside a perturbation right now (the runner's watchdog leaves them alone). */
  readonly active = new Set<string>();

  constructor(cluster: Cluster, history: History, rng: Rng, delayMs: number, spare: readonly string[] = []) {
    this.cluster = cluster;
    this.history = history;
    this.rng = rng;
    this.delayMs = delayMs;
    this.spare = new Set(spare);
  }

  /** Runs one perturbation to its end (the fault healed and, for a restart, the node serving). */
  async run(plan: PerturbationPlan): Promise<void> {
    for (const n of this.cluster.nodes) this.active.add(n.name);
    try {
      await this.perturb(plan);
    } finally {
      this.active.clear();
    }
  }

  private async perturb(plan: PerturbationPlan): Promise<void> {
    const id = ++this.seq;
    const all = this.cluster.nodes;
    const candidates = candidatesFor(plan.kind, all, this.spare);
    const targets = plan.nodes.length ? plan.nodes.map((n) => this.cluster.node(n)) : [this.rng.pick(candidates)];
    const names = targets.map((n) => n.name);
    const holdMs = plan.outageS * 1000;
    const begin = (fields: Record<string, unknown>) =>
      this.history.record('perturb', { id, phase: 'start', kind: plan.kind, nodes: names, outageS: plan.outageS, ...fields });
    const end = (fields: Record<string, unknown> = {}) =>
      this.history.record('perturb', { id, phase: 'end', kind: plan.kind, nodes: names, ...fields });
    switch (plan.kind) {
      case 'kill':
      case 'restart': {
        const signal = plan.kind === 'kill' ? 'SIGKILL' : 'SIGTERM';
        begin({ isolated: names, signal });
        await Promise.all(
          targets.map(async (n) => {
            if (plan.kind === 'kill') await this.beforeKill(n.name, n.proc.httpUrl);
            n.proc.signal(signal);
            await n.proc.waitExit();
          }),
        );
        this.history.record('perturb', { id, phase: 'down', kind: plan.kind, nodes: names });
        if (plan.kind === 'kill') await sleep(holdMs);
        for (const n of targets) n.proc.start();
        await Promise.all(targets.map((n) => n.proc.waitServing(120_000).catch(() => undefined)));
        return end();
      }
      case 'pause':
        begin({ isolated: names });
        for (const n of targets) n.proc.signal('SIGSTOP');
        await sleep(holdMs);
        for (const n of targets) n.proc.signal('SIGCONT');
        return end();
      case 'disconnect':
      case 'delay':
      case 'drop': {
        const links = targets.flatMap((t) => all.filter((o) => o !== t).flatMap((o) => this.cluster.links(t.name, o.name)));
        begin({ isolated: plan.kind === 'delay' ? [] : names, delayMs: plan.kind === 'delay' ? this.delayMs : undefined });
        for (const l of links) {
          if (plan.kind === 'disconnect') l.cut();
          else if (plan.kind === 'drop') l.drop();
          else l.delayMs = this.delayMs;
        }
        await sleep(holdMs);
        for (const l of links) l.heal();
        return end();
      }
      case 'partition':
        return this.partition(id, plan, holdMs);
      case 'disk_full':
        return this.diskFull(id, targets[0], holdMs, begin, end);
    }
  }

  /** Splits the authorities in two non-empty groups (followers join either), cuts every link across, heals. */
  private async partition(id: number, plan: PerturbationPlan, holdMs: number): Promise<void> {
    const auths = this.cluster.nodes.filter((n) => n.authority);
    const size = this.rng.int(1, auths.length - 1);
    const side = new Set(this.rng.sample(auths, size).map((n) => n.name));
    for (const f of this.cluster.nodes.filter((n) => !n.authority)) if (this.rng.chance(0.5)) side.add(f.name);
    const groups = [[...side], this.cluster.nodes.map((n) => n.name).filter((n) => !side.has(n))];
    const links = groups[0].flatMap((a) => groups[1].flatMap((b) => this.cluster.links(a, b)));
    this.history.record('perturb', { id, phase: 'start', kind: 'partition', nodes: [], groups, outageS: plan.outageS });
    for (const l of links) l.cut();
    await sleep(holdMs);
    for (const l of links) l.heal();
    this.history.record('perturb', { id, phase: 'end', kind: 'partition', nodes: [], groups });
  }

  /** Fills the node's tmpfs data dir, records what the node says while full, frees it and records again. */
  private async diskFull(
    id: number,
    n: ClusterNode,
    holdMs: number,
    begin: (f: Record<string, unknown>) => void,
    end: (f?: Record<string, unknown>) => void,
  ): Promise<void> {
    const filler = join(n.dataDir, 'e2e-filler.bin');
    begin({ isolated: [] });
    const fd = openSync(filler, 'w');
    const chunk = Buffer.alloc(1024 * 1024, 0xab);
    let written = 0;
    try {
      for (;;) written += writeSync(fd, chunk);
    } catch (e) {
      this.history.record('perturb', {
        id,
        phase: 'full',
        kind: 'disk_full',
        nodes: [n.name],
        bytes: written,
        error: errorCode(e),
      });
    } finally {
      closeSync(fd);
    }
    const until = Date.now() + holdMs;
    while (Date.now() < until) {
      const h = await call(`${n.proc.httpUrl}/api/health`, { timeoutMs: 3000 });
      this.history.record('disk_full_health', { id, node: n.name, status: h.status, body: h.body, error: h.error });
      await sleep(2000);
    }
    rmSync(filler, { force: true });
    end();
    // What the node says once space is back (a few answers, for the record).
    for (let i = 0; i < 3; i++) {
      await sleep(2000);
      const h = await call(`${n.proc.httpUrl}/api/health`, { timeoutMs: 3000 });
      this.history.record('disk_full_health', { id, node: n.name, after: true, status: h.status, body: h.body, error: h.error });
    }
  }
}
