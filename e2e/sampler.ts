/**
 * Periodic samples of every node, from outside: head (height, hash), health answer, RSS and open
 * file descriptors from /proc, and every few seconds the proof that no p2p byte bypasses the
 * relays (no foreign client socket on a p2p port; no peer address a node serves that is not a
 * relay's). At the end, `sweep` reads each node's whole chain (hash and stateRoot per height,
 * transaction hashes) for the checker.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Cluster, ClusterNode } from './cluster.ts';
import { fields, type History, objects, strings } from './history.ts';
import { call, sleep } from './http.ts';
import { foreignClients } from './socketOwner.ts';

/** A process's RSS and its parts in KiB (anonymous, file-backed, shared memory such as a tmpfs's mapped files), and open descriptors; nulls when it is gone. */
function procStats(pid: number): Record<'rssKb' | 'anonKb' | 'fileKb' | 'shmemKb' | 'fds', number | null> {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => {
      const m = new RegExp(`${field}:\\s+(\\d+)`).exec(status);
      return m ? Number(m[1]) : null;
    };
    return {
      rssKb: kb('VmRSS'),
      anonKb: kb('RssAnon'),
      fileKb: kb('RssFile'),
      shmemKb: kb('RssShmem'),
      fds: readdirSync(`/proc/${pid}/fd`).length,
    };
  } catch {
    return { rssKb: null, anonKb: null, fileKb: null, shmemKb: null, fds: null };
  }
}

/** The Node.js memory gauges and LevelDB's own memory of a node's Prometheus text, in KiB (missing ones left out). */
export function heapStats(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  const names: [string, string][] = [
    ['nodejs_heap_size_used_bytes', 'heapUsedKb'],
    ['nodejs_heap_size_total_bytes', 'heapTotalKb'],
    ['nodejs_external_memory_bytes', 'externalKb'],
    ['ombra_store_memory_bytes', 'storeKb'],
  ];
  for (const [metric, key] of names) {
    const m = new RegExp(`^${metric} (\\S+)$`, 'm').exec(text);
    if (m && Number.isFinite(Number(m[1]))) out[key] = Math.round(Number(m[1]) / 1024);
  }
  return out;
}

/** The sampler of a cluster. */
export class Sampler {
  private stopped = false;
  private readonly cluster: Cluster;
  private readonly history: History;
  /** Latest sampled head per node (the runner's convergence wait reads it). */
  readonly heads = new Map<string, { height: number; hash: string; t: number }>();

  constructor(cluster: Cluster, history: History) {
    this.cluster = cluster;
    this.history = history;
  }

  /** Samples every `everyMs` until stopped. */
  async run(everyMs = 1000): Promise<void> {
    for (let round = 0; !this.stopped; round++) {
      const started = Date.now();
      await Promise.all(this.cluster.nodes.map((n) => this.sample(n, round % 5 === 0, round % 60 === 0)));
      if (round % 5 === 0) this.checkRouting();
      await sleep(Math.max(0, everyMs - (Date.now() - started)));
    }
  }

  private async sample(n: ClusterNode, peers: boolean, heap: boolean): Promise<void> {
    const pid = n.proc.pid;
    if (pid === null || n.proc.paused) return;
    const [head, health] = await Promise.all([
      call(`${n.proc.httpUrl}/api/chain/height`, { timeoutMs: 3000 }),
      call(`${n.proc.httpUrl}/api/health`, { timeoutMs: 3000 }),
    ]);
    const latest = fields(head.body?.latestBlock)?.hash;
    const height = typeof head.body?.height === 'number' ? head.body.height : null;
    if (height !== null && typeof latest === 'string' && latest) this.heads.set(n.name, { height, hash: latest, t: Date.now() });
    this.history.record('sample', {
      node: n.name,
      pid,
      run: n.proc.starts,
      height,
      hash: latest,
      health: health.status,
      healthStatus: health.body?.status,
      peers: health.body?.peers,
      syncing: health.body?.syncing,
      ...procStats(pid),
      error: head.error,
    });
    // Once a minute the JS heap from the node's own /metrics: RSS growth is read against it (docs/memory.md).
    if (heap) await this.heap(n, pid);
    if (!peers) return;
    const p = await call(`${n.proc.httpUrl}/api/chain/peers`, { timeoutMs: 3000 });
    const allowed = new Set([...this.cluster.relays.values()].map((r) => r.port));
    const list = objects(p.body?.peers);
    const direct = list.flatMap((x) => strings(x.addresses)).filter((a) => !allowed.has(Number(/\/tcp\/(\d+)/.exec(a)?.[1])));
    // The node's own peer id must stay the one its data dir's key gives, across restarts.
    const own = await call(`${n.proc.httpUrl}/api/chain/network`, { timeoutMs: 3000 });
    this.history.record('peers', { node: n.name, count: list.length, direct, peerId: own.body?.peerId, expected: n.peerId });
  }

  private async heap(n: ClusterNode, pid: number): Promise<void> {
    try {
      const res = await fetch(`http://127.0.0.1:${n.metricsPort}/metrics`, { signal: AbortSignal.timeout(3000) });
      if (res.ok) this.history.record('heap', { node: n.name, pid, run: n.proc.starts, ...heapStats(await res.text()) });
    } catch {
      // A node down or paused has no heap to read; its samples say so.
    }
  }

  /** Records every client socket on a node's p2p port that is not one of the runner's relays. */
  private checkRouting(): void {
    const ports = new Set(this.cluster.nodes.map((n) => n.p2pPort));
    const foreign = foreignClients(ports, process.pid);
    this.history.record('routing', { foreign });
    // The machine's load: figures from a host with other work on it are read in that light.
    const [one] = readFileSync('/proc/loadavg', 'utf8').split(' ');
    this.history.record('host', { load1: Number(one) });
  }

  stop(): void {
    this.stopped = true;
  }

  /** Records what every running node says of each acknowledged transaction its chain does not hold. */
  async txStatus(hashes: string[]): Promise<void> {
    const included = new Set<string>();
    for (const n of this.cluster.nodes) {
      if (!n.proc.running) continue;
      for (const h of hashes) {
        if (included.has(h)) continue;
        const ans = await call(`${n.proc.httpUrl}/api/chain/tx/${h}`);
        if (ans.body?.status === 'confirmed') included.add(h);
        else this.history.record('tx_final', { node: n.name, hash: h, status: ans.status, body: ans.body });
      }
    }
  }

  /** Reads every block of every running node (hash, stateRoot, transaction hashes) into the history. */
  async sweep(): Promise<void> {
    for (const n of this.cluster.nodes) {
      if (!n.proc.running) continue;
      const head = await call(`${n.proc.httpUrl}/api/chain/height`);
      const top = Number(head.body?.height ?? -1);
      for (let from = 0; from <= top; ) {
        const ans = await call(`${n.proc.httpUrl}/api/chain/blocks-full?from=${from}&to=${Math.min(top, from + 499)}`, {
          timeoutMs: 30_000,
        });
        const blocks =
          (ans.body?.blocks as { index: number; hash: string; stateRoot: string; transactions: { hash: string }[] }[] | undefined) ?? [];
        if (!blocks.length) {
          this.history.record('note', { text: `sweep of ${n.name} stopped at ${from}: ${ans.status} ${ans.error ?? ''}` });
          break;
        }
        for (const b of blocks)
          this.history.record('chain', {
            node: n.name,
            height: b.index,
            hash: b.hash,
            stateRoot: b.stateRoot,
            txs: b.transactions.map((t) => t.hash),
          });
        from = blocks[blocks.length - 1].index + 1;
      }
    }
  }
}
