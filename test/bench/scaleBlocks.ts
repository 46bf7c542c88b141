/**
 * The scale run for long quiet chains (`npm run bench -- --scale-blocks 1000000`): N empty blocks
 * (a one-second chain with nothing to do), built once (signed in worker threads) and kept under
 * `.bench/chains/`, rebuilt from genesis with every signature checked and under assume-valid, each
 * in a process of its own
 * (test/bench/nodeChild.ts); then restarted as `ombra start`. Prints both rates, their ratio, the
 * peak RSS, the restart time, and the time a year of one-second blocks (31.5M) would take.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { genesisState } from '../../core/applyBlock.ts';
import { buildUnsignedBlock } from '../../core/buildBlock.ts';
import type { Block } from '../../core/block.ts';
import type { Genesis } from '../../core/genesis.ts';
import { commitDiff } from '../../core/state.ts';
import { ChainStore } from '../../node/store/chainStore.ts';
import { refOf } from '../../node/writer/writer.ts';
import { DEV_KEYS } from '../helpers/testChain.ts';
import { child, perTx } from './replay.ts';
import { benchGenesis, CHAIN_CACHE } from './scaleChain.ts';
import type { AttestJob, SignSetup } from './signWorker.ts';
import { addRow } from './table.ts';

/** Bumped when the chains' content changes. */
const FORMAT = 1;

/** One-second blocks in a year. */
const YEAR = 31_536_000;

/** Blocks built, signed and appended at a time. */
const CHUNK = 10_000;

/** Hashes a worker signs at a time. */
const JOB = 1000;

/** Attestations signed in worker threads (test/bench/signWorker.ts) by dev key 0, the authority. */
class AttestSigners {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, (signatures: string[]) => void>();
  private jobs = 0;

  constructor(genesis: Genesis) {
    const setup: SignSetup = { keys: DEV_KEYS, perBlock: 1, genesisTimestamp: genesis.timestamp, blockTimeMs: genesis.blockTimeMs };
    this.workers = Array.from(
      { length: Math.max(1, availableParallelism()) },
      () => new Worker(new URL('./signWorker.ts', import.meta.url), { workerData: setup }),
    );
    for (const w of this.workers)
      w.on('message', (m: { id: number; signatures: string[] }) => {
        this.waiting.get(m.id)?.(m.signatures);
        this.waiting.delete(m.id);
      });
  }

  /** `blocks` with their attestations (as core's `attest` makes them), signed in the workers. */
  async attest(blocks: Block[]): Promise<Block[]> {
    const key = DEV_KEYS[0];
    const parts: Promise<string[]>[] = [];
    for (let i = 0; i < blocks.length; i += JOB) {
      const job: AttestJob = { id: this.jobs++, key: 0, hashes: blocks.slice(i, i + JOB).map((b) => b.hash) };
      parts.push(new Promise((resolve) => this.waiting.set(job.id, resolve)));
      this.workers[job.id % this.workers.length].postMessage(job);
    }
    const signatures = (await Promise.all(parts)).flat();
    return blocks.map((b, i) => ({
      ...b,
      attestations: [{ validatorAddress: key.address, signature: signatures[i], publicKey: key.publicKey }],
    }));
  }

  close(): Promise<unknown> {
    return Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** Appends signed blocks, with a progress line every 100,000. */
async function appendSigned(store: ChainStore, blocks: Block[]): Promise<void> {
  await store.appendMany(blocks);
  const top = blocks[blocks.length - 1].index;
  if (top % 100_000 === 0) console.log(`  built ${top.toLocaleString('en')} blocks`);
}

/** The data dir of `blocks` empty blocks (built now unless cached); its `db` holds the block log only. */
async function emptyChain(blocks: number, cacheDir = CHAIN_CACHE): Promise<{ dir: string; seconds: number; cached: boolean }> {
  const dir = join(cacheDir, `empty-blocks-${blocks}`);
  const marker = join(dir, 'built.json');
  if (existsSync(marker)) {
    const built = JSON.parse(readFileSync(marker, 'utf8')) as { format: number; blocks: number; seconds: number };
    if (built.format === FORMAT && built.blocks === blocks) return { dir, seconds: built.seconds, cached: true };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  const genesis = benchGenesis();
  const { state, block: block0 } = genesisState(genesis);
  const store = await ChainStore.open(join(dir, 'db'));
  const signer = new AttestSigners(genesis);
  try {
    await store.init(genesis, block0);
    let parent: Block = block0;
    // While the workers sign one chunk's hashes, this thread builds the next chunk.
    let signing: Promise<Block[]> | null = null;
    for (let from = 1; from <= blocks; from += CHUNK) {
      const chunk: Block[] = [];
      for (let i = from; i < Math.min(from + CHUNK, blocks + 1); i++) {
        const timestamp = genesis.timestamp + i * genesis.blockTimeMs;
        const { block, applied } = buildUnsignedBlock(state, refOf(parent), [], DEV_KEYS[0].address, timestamp, genesis);
        commitDiff(state, applied.diff);
        chunk.push(block);
        parent = block;
      }
      const next = signer.attest(chunk);
      if (signing) await appendSigned(store, await signing);
      signing = next;
    }
    if (signing) await appendSigned(store, await signing);
  } finally {
    await signer.close();
    await store.close();
  }
  const seconds = (performance.now() - t0) / 1000;
  writeFileSync(marker, `${JSON.stringify({ format: FORMAT, blocks, seconds })}\n`);
  return { dir, seconds, cached: false };
}

/** The run: full-verification rebuild, assume-valid rebuild, restart. */
export async function scaleBlocksBench(blocks: number, cacheDir?: string): Promise<void> {
  console.log(`scale: ${blocks.toLocaleString('en')} empty blocks:`);
  const { dir, seconds, cached } = await emptyChain(blocks, cacheDir);
  console.log(`  chain ${cached ? 'cached' : 'built'} (the build took ${seconds.toFixed(0)} s)`);
  // The full replay first: it records the verified mark the assume-valid rebuild then uses.
  const full = await child(dir, 'replay');
  const av = await child(dir, 'rebuild');
  const restart = await child(dir, 'full');
  const rate = (r: typeof full) => blocks / r.replaySeconds;
  const us = (r: typeof full) => ((r.replayCpuSeconds * 1e6) / blocks).toFixed(1);
  const year = (r: typeof full) => `${(YEAR / rate(r) / 60).toFixed(0)} min`;
  for (const [name, r] of [
    ['full verification', full],
    ['assume-valid', av],
  ] as const)
    console.log(
      `  rebuild, ${name}: ${rate(r).toFixed(0)} blocks/s in ${r.replaySeconds.toFixed(1)} s, ${us(r)} us CPU a block (${perTx(r, blocks)}); peak RSS ${r.peakReplayRssMiB} MiB; a year of one-second blocks in ${year(r)}`,
    );
  console.log(`  restart (as ombra start): opened in ${restart.openSeconds.toFixed(1)} s, RSS ${restart.rssMiB} MiB`);
  addRow({
    measure: `rebuild of ${blocks.toLocaleString('en')} empty blocks, assume-valid vs full verification`,
    node: `${rate(av).toFixed(0)} blocks/s (${us(av)} us CPU a block; a year of one-second blocks in ${year(av)}); peak RSS ${av.peakReplayRssMiB} MiB`,
    baseline: `full verification: ${rate(full).toFixed(0)} blocks/s (${us(full)} us; a year in ${year(full)}); peak RSS ${full.peakReplayRssMiB} MiB; by CPU time ${(full.replayCpuSeconds / av.replayCpuSeconds).toFixed(2)}x`,
    ratio: full.replaySeconds / av.replaySeconds,
    atLeast: 3,
  });
  addRow({
    measure: `assume-valid rebuild at ${blocks.toLocaleString('en')} empty blocks, blocks/s`,
    node: `${rate(av).toFixed(0)} blocks/s; restart ${restart.openSeconds.toFixed(1)} s, RSS at rest ${restart.rssMiB} MiB`,
    baseline: '30,000 blocks/s',
    ratio: rate(av) / 30_000,
    atLeast: 1,
  });
}
