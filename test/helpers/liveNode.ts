/**
 * A live node (`launch`, real HTTP) holding the recorded simulated chain (fixtures/simulated-
 * chain.ndjson: tasks, rewards, an art NFT, agent runs, chat), still producing blocks every
 * 200 ms as its authority (dev key 0), with alerts allowed to reach loopback.
 */
import { readFileSync } from 'node:fs';
import { dbDirOf } from '../../cli/dataDir.ts';
import { launch, type Launched } from '../../cli/launch.ts';
import type { Block } from '../../core/block.ts';
import { parseGenesis, type Genesis } from '../../core/genesis.ts';
import { OmbraNode } from '../../node/node.ts';
import { DEV_KEYS, tempDir } from './testChain.ts';

/** A running node with chain data. */
export interface LiveNode {
  node: Launched;
  url: string;
  genesis: Genesis;
  /** The fixture's blocks (0..head). */
  blocks: Block[];
  /** Stops the node, runs `whileDown`, then starts it again on the same data and port (`node` is then the new one). */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a node on a copy of the simulated chain. */
export async function liveSimulatedNode(): Promise<LiveNode> {
  const lines = readFileSync(new URL('../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const genesis = parseGenesis(lines[0].genesis);
  const blocks = lines.slice(1) as Block[];
  const tmp = tempDir('ombra-live-');
  const seed = await OmbraNode.open({ dbDir: dbDirOf(tmp.dir), genesis });
  for (const b of blocks.slice(1)) await seed.importBlock(b);
  await seed.stop();
  const options = {
    dataDir: tmp.dir,
    genesis,
    key: DEV_KEYS[0],
    dev: true,
    httpHost: '127.0.0.1',
    httpPort: 0,
    alerts: { allowPrivate: true },
  };
  const node = await launch(options);
  const live: LiveNode = {
    node,
    url: node.url,
    genesis,
    blocks,
    async restart(whileDown) {
      await live.node.stop();
      await whileDown?.();
      live.node = await launch({ ...options, httpPort: Number(new URL(live.url).port) });
    },
    async stop() {
      await live.node.stop();
      tmp.cleanup();
    },
  };
  return live;
}
