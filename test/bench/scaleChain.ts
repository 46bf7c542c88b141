/**
 * The scale run's chains: N transfers to N new accounts in blocks of 500 (the sync bench's: of
 * one), built once and kept
 * under `.bench/chains/` (gitignored), so a re-run skips the build. The build signs in worker
 * threads (test/bench/signWorker.ts) and builds blocks with core's `buildBlock` on a consensus
 * state that forgets each new account once its block is committed (every transfer pays a new
 * account, so none is read again): the builder's memory stays flat in N. Only the block log is
 * written; the read models are folded by the replay that the scale run measures.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { genesisState } from '../../core/applyBlock.ts';
import { buildBlock } from '../../core/buildBlock.ts';
import type { Block } from '../../core/block.ts';
import type { Genesis } from '../../core/genesis.ts';
import { commitDiff } from '../../core/state.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import { ChainStore } from '../../node/store/chainStore.ts';
import { refOf } from '../../node/writer/writer.ts';
import { DEV_KEYS, fixtureGenesis } from '../helpers/testChain.ts';
import type { SignJob, SignSetup } from './signWorker.ts';

/** Where built chains are kept (gitignored). */
export const CHAIN_CACHE = fileURLToPath(new URL('../../.bench/chains/', import.meta.url));

/** Bumped when the chains' content changes: older cached chains are then built again. */
const FORMAT = 1;

/** Transfers a block, unless told otherwise. */
const PER_BLOCK = 500;

/** The genesis of every chain built here: the dev genesis at a fixed time. */
export function benchGenesis(): Genesis {
  return { ...fixtureGenesis(), timestamp: 1_700_000_000_000 };
}

/** Transfers a signing job (several jobs in flight keep both the workers and the builder busy). */
const JOB = 5_000;

/** What a cached chain holds. */
interface Built {
  format: number;
  txs: number;
  head: number;
  seconds: number;
}

/**
 * The data dir of a chain of `txs` transfers to as many new accounts (built now unless cached);
 * its `db` holds the block log only. `cacheDir` (default CHAIN_CACHE) holds the chains; `onProgress`
 * hears transfers built so far.
 */
export async function scaleChain(
  txs: number,
  opts: { cacheDir?: string; perBlock?: number; onProgress?: (done: number) => void } = {},
): Promise<{ dir: string; built: Built; cached: boolean }> {
  const perBlock = opts.perBlock ?? PER_BLOCK;
  const dir = join(opts.cacheDir ?? CHAIN_CACHE, `fresh-transfers-${txs}-per-${perBlock}`);
  const marker = join(dir, 'built.json');
  if (existsSync(marker)) {
    const built = JSON.parse(readFileSync(marker, 'utf8')) as Built;
    if (built.format === FORMAT && built.txs === txs) return { dir, built, cached: true };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  const head = await build(join(dir, 'db'), txs, perBlock, opts.onProgress);
  const built: Built = { format: FORMAT, txs, head, seconds: (performance.now() - t0) / 1000 };
  writeFileSync(marker, `${JSON.stringify(built)}\n`);
  return { dir, built, cached: false };
}

/** Signs in workers, builds each block on a flat consensus state, appends to a fresh block log. */
async function build(dbDir: string, txs: number, perBlock: number, onProgress?: (done: number) => void): Promise<number> {
  const genesis = benchGenesis();
  const { state, block: block0 } = genesisState(genesis);
  const store = await ChainStore.open(dbDir);
  const setup: SignSetup = { keys: DEV_KEYS, perBlock, genesisTimestamp: genesis.timestamp, blockTimeMs: genesis.blockTimeMs };
  const workers = Array.from(
    { length: Math.max(1, availableParallelism()) },
    () => new Worker(new URL('./signWorker.ts', import.meta.url), { workerData: setup }),
  );
  const signed = new Map<number, SignedTx[]>();
  const waiters = new Map<number, () => void>();
  for (const w of workers)
    w.on('message', (m: { start: number; txs: SignedTx[] }) => {
      signed.set(m.start, m.txs);
      waiters.get(m.start)?.();
    });
  let asked = 0;
  let turn = 0;
  const ask = () => {
    if (asked >= txs) return;
    const job: SignJob = { start: asked, count: Math.min(JOB, txs - asked) };
    workers[turn++ % workers.length].postMessage(job);
    asked += job.count;
  };
  const take = async (start: number): Promise<SignedTx[]> => {
    if (!signed.has(start)) await new Promise<void>((resolve) => waiters.set(start, resolve));
    waiters.delete(start);
    const list = signed.get(start) ?? [];
    signed.delete(start);
    return list;
  };
  try {
    await store.init(genesis, block0);
    for (let i = 0; i < 4 * workers.length; i++) ask();
    let parent: Block = block0;
    let queue: SignedTx[] = [];
    let pending: Block[] = [];
    for (let done = 0; done < txs; ) {
      while (queue.length < Math.min(perBlock, txs - done)) {
        queue = queue.concat(await take(done + queue.length));
        ask();
      }
      const candidates = queue.slice(0, perBlock);
      queue = queue.slice(perBlock);
      const timestamp = genesis.timestamp + (parent.index + 1) * genesis.blockTimeMs;
      const { block, applied, dropped } = buildBlock(state, refOf(parent), candidates, DEV_KEYS[0], timestamp, genesis);
      if (dropped.length || block.transactions.length !== candidates.length)
        throw new Error(`scale chain: block ${block.index} left out ${dropped[0]?.error.message ?? 'transfers'}`);
      commitDiff(state, applied.diff);
      // Every transfer paid a new account no later block reads: forgotten, so the state stays small.
      for (const tx of candidates) state.accounts.delete((tx as unknown as { to: string }).to);
      pending.push(block);
      parent = block;
      done += candidates.length;
      if (pending.length * perBlock >= 10_000 || done === txs) {
        await store.appendMany(pending);
        pending = [];
        onProgress?.(done);
      }
    }
    return parent.index;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
    await store.close();
  }
}
