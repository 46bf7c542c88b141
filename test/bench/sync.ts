/**
 * Sync benchmark: a fresh node fetches and validates 10,000 blocks from a peer over libp2p,
 * beside the baseline of importing the same blocks from disk into a fresh node (no network),
 * measured in the same run.
 */
import { join } from 'node:path';
import { launch } from '../../cli/launch.ts';
import { testnetGenesis } from '../../cli/testnet.ts';
import { OmbraNode } from '../../node/node.ts';
import { DEV_KEYS, tempDir } from '../helpers/testChain.ts';
import { fastSigner, fastTransfer } from './fixtureChain.ts';

const BLOCK_MS = 100;

/** Writes `blocks` blocks (one transfer each) by the single authority into `dir`. */
async function buildChain(dir: string, blocks: number) {
  const genesis = { ...testnetGenesis(1, BLOCK_MS, 'ombra-sync-bench', 0), timestamp: Date.now() - (blocks + 50) * BLOCK_MS };
  let clock = genesis.timestamp;
  const node = await OmbraNode.open({ dbDir: join(dir, 'db'), genesis, clock: () => clock });
  const signer = fastSigner(DEV_KEYS[1]);
  for (let i = 0; i < blocks; i++) {
    clock += BLOCK_MS;
    await node.submitTx(fastTransfer(DEV_KEYS[1], signer, DEV_KEYS[2].address, '1', '1', i, clock));
    await node.produce(DEV_KEYS[0], clock);
  }
  const all = await node.store.blocksIn(1, blocks);
  await node.close();
  return { genesis, blocks: all };
}

/** Runs the sync benchmark and prints its figures. */
export async function syncBench(blocks = 10_000): Promise<void> {
  const source = tempDir('ombra-sync-src-');
  const local = tempDir('ombra-sync-local-');
  const fresh = tempDir('ombra-sync-dst-');
  try {
    const t0 = performance.now();
    const chain = await buildChain(source.dir, blocks);
    console.log(`sync: built ${blocks} blocks in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // Baseline: the same blocks imported from memory into a fresh node, one synced batch each.
    const node = await OmbraNode.open({ dbDir: join(local.dir, 'db'), genesis: chain.genesis });
    // As the syncer does: undo records only for the blocks near the known target.
    node.runner.undoHorizon = blocks;
    const t1 = performance.now();
    for (const b of chain.blocks) await node.importBlock(b);
    const localSeconds = (performance.now() - t1) / 1000;
    await node.close();
    // Over the network: the source serves, the fresh node dials it and syncs.
    const src = await launch({
      dataDir: source.dir,
      genesis: chain.genesis,
      dev: false,
      httpHost: '127.0.0.1',
      httpPort: 0,
      p2p: { port: 0 },
    });
    const t2 = performance.now();
    const dst = await launch({
      dataDir: fresh.dir,
      genesis: chain.genesis,
      dev: false,
      httpHost: '127.0.0.1',
      httpPort: 0,
      p2p: { port: 0, peers: [src.p2p!.addresses()[0]] },
    });
    while (dst.node.head().index < blocks) await new Promise((r) => setTimeout(r, 20));
    const syncSeconds = (performance.now() - t2) / 1000;
    await dst.stop();
    await src.stop();
    const localRate = blocks / localSeconds;
    const syncRate = blocks / syncSeconds;
    console.log(
      `baseline: local import of the same ${blocks} blocks (full validation, one synced LevelDB batch per block): ${localSeconds.toFixed(2)} s = ${localRate.toFixed(0)} blocks/s`,
    );
    console.log(
      `sync: fresh node over libp2p from one peer (batches of 500, each block validated as if gossiped): ${syncSeconds.toFixed(2)} s = ${syncRate.toFixed(0)} blocks/s`,
    );
    console.log(`ratio: sync blocks/s / local import blocks/s = ${(syncRate / localRate).toFixed(2)}`);
  } finally {
    source.cleanup();
    local.cleanup();
    fresh.cleanup();
  }
}
