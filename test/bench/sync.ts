/**
 * Sync benchmark: a fresh node fetches and validates 10,000 blocks from a peer over libp2p,
 * beside the baseline of importing the same blocks from disk into a fresh node (no network),
 * measured in the same run.
 */
import { createPublicKey, verify } from 'node:crypto';
import { join } from 'node:path';
import type { Block } from '../../core/block.ts';
import { launch } from '../../cli/launch.ts';
import { testnetGenesis } from '../../cli/testnet.ts';
import { OmbraNode } from '../../node/node.ts';
import { DEV_KEYS, tempDir } from '../helpers/testChain.ts';
import { fastSigner, fastTransfer } from './fixtureChain.ts';
import { addRow } from './table.ts';
import { batchesOf, blockItems, runPipeline } from '../../node/blockPipeline.ts';
import { VerifyPool } from '../../node/verifyPool.ts';

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

/** Attestation verifications per second on one core: the least work a block's import takes. */
function attestationBaseline(blocks: readonly Block[]): number {
  const a = blocks[0].attestations[0];
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(a.publicKey, 'hex').toString('base64url') },
    format: 'jwk',
  });
  const n = Math.min(blocks.length, 5000);
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const b = blocks[i];
    if (!verify(null, Buffer.from(b.hash), key, Buffer.from(b.attestations[0].signature, 'hex'))) throw new Error('attestation failed');
  }
  return n / ((performance.now() - start) / 1000);
}

/**
 * Imports `blocks` into a fresh node in groups of `group` (1: one synced batch per block),
 * verifying inline, or with `pipeline` as the syncer does: signatures verified ahead in worker
 * threads (the catch-up pipeline), each verified group imported in one synced batch.
 */
async function localImport(
  dir: string,
  genesis: Parameters<typeof OmbraNode.open>[0]['genesis'],
  blocks: readonly Block[],
  group: number,
  pipeline = false,
) {
  const node = await OmbraNode.open({ dbDir: join(dir, 'db'), genesis });
  // As the syncer does: undo records only for the blocks near the known target.
  node.runner.undoHorizon = blocks.length;
  const t = performance.now();
  if (pipeline) {
    const pool = new VerifyPool();
    try {
      const pending: { raw: unknown; verified: boolean; txBytes?: number }[] = [];
      await runPipeline(
        batchesOf(blockItems(blocks), { maxBlocks: group }),
        pool,
        ({ block, txBytes }, verified) => {
          pending.push({ raw: block, verified, txBytes });
        },
        async () => {
          const next = pending.splice(0);
          await node.importBlocks(
            next.map((b) => b.raw),
            next.map((b) => b.verified),
            next.map((b) => b.txBytes),
          );
        },
      );
    } finally {
      await pool.close();
    }
  } else if (group === 1) for (const b of blocks) await node.importBlock(b);
  else for (let i = 0; i < blocks.length; i += group) await node.importBlocks(blocks.slice(i, i + group));
  const seconds = (performance.now() - t) / 1000;
  await node.close();
  return seconds;
}

/** Seconds of `localImport` into a fresh temporary directory. */
async function freshImport(
  genesis: Parameters<typeof OmbraNode.open>[0]['genesis'],
  blocks: readonly Block[],
  group: number,
  pipeline: boolean,
) {
  const tmp = tempDir('ombra-sync-group-');
  try {
    return await localImport(tmp.dir, genesis, blocks, group, pipeline);
  } finally {
    tmp.cleanup();
  }
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
    const verifyRate = attestationBaseline(chain.blocks);
    // The same blocks imported from memory into fresh nodes: one synced batch each, then group commit.
    const localSeconds = await localImport(local.dir, chain.genesis, chain.blocks, 1);
    const inlineSeconds = await freshImport(chain.genesis, chain.blocks, 256, false);
    const groupSeconds = await freshImport(chain.genesis, chain.blocks, 256, true);
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
    const inlineRate = blocks / inlineSeconds;
    const groupRate = blocks / groupSeconds;
    const syncRate = blocks / syncSeconds;
    console.log(`baseline: one attestation verify per block (node:crypto, 1 core): ${verifyRate.toFixed(0)} /s`);
    console.log(
      `import: local, one synced LevelDB batch per block: ${localSeconds.toFixed(2)} s = ${localRate.toFixed(0)} blocks/s; ratio ${(localRate / verifyRate).toFixed(2)}`,
    );
    console.log(
      `import: local, group commit of 256 blocks per synced batch, verified inline: ${inlineSeconds.toFixed(2)} s = ${inlineRate.toFixed(0)} blocks/s; ratio ${(inlineRate / verifyRate).toFixed(2)}`,
    );
    console.log(
      `import: local, group commit of 256, verified ahead in workers (as sync): ${groupSeconds.toFixed(2)} s = ${groupRate.toFixed(0)} blocks/s; ratio ${(groupRate / verifyRate).toFixed(2)}`,
    );
    console.log(
      `sync: fresh node over libp2p from one peer (signatures verified ahead in workers, group commit): ${syncSeconds.toFixed(2)} s = ${syncRate.toFixed(0)} blocks/s; ratio ${(syncRate / verifyRate).toFixed(2)} (goal >= 0.6)`,
    );
    console.log(`ratio: sync blocks/s / local one-by-one import blocks/s = ${(syncRate / localRate).toFixed(2)}`);
    const baseline = `one attestation verify a block (node:crypto, 1 core): ${verifyRate.toFixed(0)}/s`;
    addRow({
      measure: `import of ${blocks} near-empty blocks (1 transfer each), sync from a peer over libp2p`,
      node: `${syncRate.toFixed(0)} blocks/s`,
      baseline,
      ratio: syncRate / verifyRate,
      atLeast: 0.6,
    });
    addRow({
      measure: `import of the same blocks, local (verified ahead in workers, group commit of 256 a batch)`,
      node: `${groupRate.toFixed(0)} blocks/s (verified inline: ${inlineRate.toFixed(0)}/s; one synced batch a block: ${localRate.toFixed(0)}/s)`,
      baseline,
      ratio: groupRate / verifyRate,
      atLeast: 0.6,
    });
  } finally {
    source.cleanup();
    local.cleanup();
    fresh.cleanup();
  }
}
