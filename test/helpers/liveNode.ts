/**
 * A live node (`launch`, real HTTP) holding the recorded simulated chain (fixtures/simulated-
 * chain.ndjson: tasks, rewards, an art NFT, agent runs, chat), still producing blocks every
 * 200 ms as its authority (dev key 0), with alerts allowed to reach loopback.
 */
import { readFileSync } from 'node:fs';
import { dbDirOf } from '../../launch/dataDir.ts';
import { launch, type Launched } from '../../launch/launch.ts';
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

/**
 * Fills `dataDir` with the simulated chain (fixtures/simulated-chain.ndjson), as a stopped
 * node's data dir: `ombra start --dev --block-time-ms 200` opens it (the fixture's genesis is
 * the dev genesis at that block time).
 */
export async function seedSimulatedChain(dataDir: string): Promise<{ genesis: Genesis; blocks: Block[] }> {
  const lines = readFileSync(new URL('../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const genesis = parseGenesis(lines[0].genesis);
  const blocks = lines.slice(1) as Block[];
  const seed = await OmbraNode.open({ dbDir: dbDirOf(dataDir), genesis });
  for (const b of blocks.slice(1)) await seed.importBlock(b);
  await seed.stop();
  return { genesis, blocks };
}

/** Starts a node on a copy of the simulated chain. */
export async function liveSimulatedNode(): Promise<LiveNode> {
  const tmp = tempDir('ombra-live-');
  const { genesis, blocks } = await seedSimulatedChain(tmp.dir);
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
