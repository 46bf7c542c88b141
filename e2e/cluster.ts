/**
 * The network under test: genesis and authority keys from `ombra testnet`, a data dir per node
 * (on its own tmpfs when a full disk is to be tried), peer ids fixed before the first start, and
 * every p2p byte through the runner's relays: node A is given `--peer` the relay A->B for each
 * peer B and announces only its learned-route relay, which refuses everything.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { loadOrCreatePeerKey } from '../p2p/identity.ts';
import type { History } from './history.ts';
import { type Manifest, nodeNames } from './manifest.ts';
import { NodeProcess } from './nodeProcess.ts';
import { Relay } from './relay.ts';
import { errorMessage, present } from '../core/errors.ts';
import { portOf } from './http.ts';

const BIN = join(import.meta.dirname, '..', 'cli', 'bin.js');

/** A free loopback port (closed again before use: the kernel does not hand it out twice soon). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = portOf(s);
      s.close(() => resolve(port));
    });
  });
}

/** One node of the cluster with its ports and identity. */
export interface ClusterNode {
  name: string;
  authority: boolean;
  dataDir: string;
  peerId: string;
  httpPort: number;
  p2pPort: number;
  /** Port of the node's own /metrics listener. */
  metricsPort: number;
  proc: NodeProcess;
  /** Where the data dir is a tmpfs mount (null when it is not). */
  tmpfs: string | null;
}

/** The nodes, their relays and their processes. */
export class Cluster {
  readonly nodes: ClusterNode[] = [];
  /** Relays by `A->B`; learned-route relays by `learned->B`. */
  readonly relays = new Map<string, Relay>();
  readonly dir: string;
  private readonly history: History;

  constructor(dir: string, history: History) {
    this.dir = dir;
    this.history = history;
  }

  /** Process ids of the running nodes, by name. */
  pids(): Map<string, number> {
    const out = new Map<string, number>();
    for (const n of this.nodes) if (n.proc.pid !== null) out.set(n.name, n.proc.pid);
    return out;
  }

  node(name: string): ClusterNode {
    const n = this.nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no node ${name}`);
    return n;
  }

  /** Writes genesis and keys, mounts tmpfs data dirs when asked, opens relays, builds each node's command line. */
  async setUp(m: Manifest, tmpfs: boolean): Promise<void> {
    const net = join(this.dir, 'net');
    execFileSync(
      process.execPath,
      [BIN, 'testnet', '--nodes', String(m.authorities), '--out', net, '--block-time-ms', String(m.blockTimeMs)],
      {
        stdio: 'ignore',
      },
    );
    const logDir = join(this.dir, 'logs');
    mkdirSync(logDir, { recursive: true });
    const names = nodeNames(m);
    const ports = new Map<string, { http: number; p2p: number; metrics: number }>();
    for (const name of names) ports.set(name, { http: await freePort(), p2p: await freePort(), metrics: await freePort() });
    const learned = new Map<string, number>();
    for (const name of names) {
      const relay = this.relay(`learned->${name}`, null, null);
      learned.set(name, await relay.listen());
    }
    const ids = new Map<string, string>();
    for (const [i, name] of names.entries()) {
      const authority = i < m.authorities;
      const home = join(net, authority ? `node${i}` : name);
      const dataDir = join(home, 'data');
      mkdirSync(dataDir, { recursive: true });
      let mount: string | null = null;
      if (tmpfs) {
        execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${m.tmpfsMb}m`, 'tmpfs', dataDir]);
        mount = dataDir;
      }
      // The peer key is the node's own file (p2p/identity.ts); written first so peers can name it.
      ids.set(name, (await loadOrCreatePeerKey(dataDir)).publicKey.toString());
      const p = present(ports.get(name), `the ports of ${name}`);
      const args = [
        ...['--genesis', join(net, 'genesis.json'), '--data-dir', dataDir],
        ...['--http-port', String(p.http), '--p2p-port', String(p.p2p), '--metrics-addr', `127.0.0.1:${p.metrics}`],
        ...['--p2p-announce', `/ip4/127.0.0.1/tcp/${learned.get(name)}`, '--webhook-allow-private', '--rate-limits', 'off'],
        ...(authority ? ['--key-file', join(home, 'key.json')] : []),
      ];
      const proc = new NodeProcess(name, args, p.http, logDir, this.history);
      this.nodes.push({
        name,
        authority,
        dataDir,
        peerId: '',
        httpPort: p.http,
        p2pPort: p.p2p,
        metricsPort: p.metrics,
        tmpfs: mount,
        proc,
      });
    }
    for (const a of this.nodes) {
      a.peerId = present(ids.get(a.name), `the peer id of ${a.name}`);
      for (const b of this.nodes) {
        if (a === b) continue;
        const relay = this.relay(`${a.name}->${b.name}`, b.p2pPort, a.name);
        const port = await relay.listen();
        a.proc.args.push('--peer', `/ip4/127.0.0.1/tcp/${port}/p2p/${ids.get(b.name)}`);
      }
    }
    this.history.record('cluster', {
      nodes: this.nodes.map((n) => ({
        name: n.name,
        authority: n.authority,
        peerId: n.peerId,
        http: n.httpPort,
        p2p: n.p2pPort,
        tmpfs: n.tmpfs,
      })),
      relays: [...this.relays.values()].map((r) => ({ name: r.opts.name, port: r.port })),
      blockTimeMs: m.blockTimeMs,
    });
  }

  private relay(name: string, targetPort: number | null, dialer: string | null): Relay {
    const relay = new Relay({
      name,
      targetPort,
      dialer,
      pids: () => this.pids(),
      onEvent: (e) => this.history.record('relay', e),
    });
    this.relays.set(name, relay);
    return relay;
  }

  /** The two relays between `a` and `b` (both directions). */
  links(a: string, b: string): Relay[] {
    return [this.relays.get(`${a}->${b}`), this.relays.get(`${b}->${a}`)].filter((r): r is Relay => r !== undefined);
  }

  /** Starts every node and waits until each serves HTTP. */
  async startAll(): Promise<void> {
    for (const n of this.nodes) n.proc.start();
    await Promise.all(this.nodes.map((n) => n.proc.waitServing(120_000)));
  }

  /** Stops every node (SIGCONT first for a paused one), closes relays, unmounts tmpfs. */
  async stopAll(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.proc.stop()));
    for (const n of this.nodes) n.proc.close();
    await Promise.all([...this.relays.values()].map((r) => r.close()));
    for (const n of this.nodes) {
      if (!n.tmpfs) continue;
      try {
        execFileSync('umount', [n.tmpfs]);
      } catch (e) {
        this.history.record('note', { text: `umount ${n.tmpfs} failed: ${errorMessage(e).split('\n')[0]}` });
      }
    }
  }
}
