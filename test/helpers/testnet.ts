/** N in-process network nodes on loopback (testnet genesis), with chosen peerings. */
import { join } from 'node:path';
import { launch, type Launched } from '../../launch/launch.ts';
import { testnetGenesis } from '../../cli/testnet.ts';
import type { Genesis } from '../../core/genesis.ts';
import type { P2pOptions } from '../../p2p/options.ts';
import { DEV_KEYS, tempDir } from './testChain.ts';
import { waitFor } from './nodeProcess.ts';

/** A running test network. */
export interface TestNet {
  genesis: Genesis;
  nodes: (Launched | null)[];
  dirs: string[];
  /** Starts node i (again), dialling the given nodes. */
  start(i: number, peers: number[], extra?: Partial<P2pOptions>): Promise<Launched>;
  /** The multiaddr others use to reach node i. */
  addr(i: number): string;
  stop(): Promise<void>;
}

/** A network of `n` authorities with `blockTimeMs` slots; nothing started yet. */
export function testNet(n: number, blockTimeMs = 400, authorities = n): TestNet {
  const genesis = testnetGenesis(authorities, blockTimeMs, 'ombra-test-net', Date.now());
  const tmp = Array.from({ length: n }, () => tempDir('ombra-net-'));
  const net: TestNet = {
    genesis,
    nodes: Array.from({ length: n }, () => null),
    dirs: tmp.map((t) => t.dir),
    addr(i) {
      const node = net.nodes[i];
      if (!node?.p2p) throw new Error(`node ${i} is not running`);
      return node.p2p.addresses()[0];
    },
    async start(i, peers, extra = {}) {
      const node = await launch({
        dataDir: join(net.dirs[i]),
        genesis,
        key: DEV_KEYS[i],
        dev: false,
        httpHost: '127.0.0.1',
        httpPort: 0,
        p2p: { host: '127.0.0.1', port: 0, peers: peers.map((p) => net.addr(p)), syncIntervalMs: 300, redialIntervalMs: 300, ...extra },
      });
      net.nodes[i] = node;
      return node;
    },
    async stop() {
      await Promise.all(net.nodes.map((x) => x?.stop().catch(() => undefined)));
      for (const t of tmp) t.cleanup();
    },
  };
  return net;
}

/** Waits until every running node has reached `height`. */
export function heightsReach(net: TestNet, height: number, timeoutMs = 20_000): Promise<true> {
  return waitFor(async () => (net.nodes.every((x) => !x || x.node.head().index >= height) ? true : undefined), timeoutMs, 50);
}

/** Waits until every running node has the same head. */
export function converged(net: TestNet, timeoutMs = 20_000): Promise<string> {
  return waitFor(
    async () => {
      const heads = new Set(net.nodes.filter((x) => x).map((x) => x!.node.head().hash));
      return heads.size === 1 ? [...heads][0] : undefined;
    },
    timeoutMs,
    50,
  );
}
