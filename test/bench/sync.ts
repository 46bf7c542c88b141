/**
 * Sync benchmark: a fresh node fetches and validates 10,000 blocks from a peer over libp2p (the
 * peer serves from a child process, test/bench/syncPeer.ts, so the CPU counted is the importing
 * side's), beside importing the same blocks from memory into a fresh node (no network), each
 * against its limit, libsodium's one-core attestation verify rate measured in the same round, by
 * wall clock and by CPU time.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Block } from '../../core/block.ts';
import { type Ed25519Equation, opensslEquation, sodiumEquation } from '../../core/ed25519Equation.ts';
import type { Genesis } from '../../core/genesis.ts';
import { launch } from '../../launch/launch.ts';
import { ChainStore } from '../../node/store/chainStore.ts';
import { OmbraNode } from '../../node/node.ts';
import { benchGenesis, scaleChain } from './scaleChain.ts';
import { tempDir } from '../helpers/testChain.ts';
import { addRow, median, range } from './table.ts';
import type { Rates } from './verifyRate.ts';
import { batchesOf, blockItems, runPipeline } from '../../node/verification/blockPipeline.ts';
import { VerifyPool } from '../../node/verification/verifyPool.ts';
import { verifyFloor } from './verifyFloor.ts';

const PEER = fileURLToPath(new URL('./syncPeer.ts', import.meta.url));

/**
 * `blocks` blocks of one transfer each by the single authority (test/bench/scaleChain.ts: built
 * once and kept under `cacheDir`), and where they are.
 */
async function buildChain(blocks: number, cacheDir?: string) {
  const { dir, built, cached } = await scaleChain(blocks, { perBlock: 1, cacheDir });
  const store = await ChainStore.open(join(dir, 'db'));
  try {
    return { dir, genesis: benchGenesis(), blocks: await store.blocksIn(1, blocks), seconds: built.seconds, cached };
  } finally {
    await store.close();
  }
}

/**
 * The limit: attestation verifications on one core with libsodium (the node's own verifier;
 * node:crypto where its addon does not load), per second of wall time and of CPU time. One a
 * block is the least work an import takes, and two cores verify a block's two signatures
 * (transfer and attestation) at this rate.
 */
function attestationRates(blocks: readonly Block[]): Rates {
  const eq = (sodiumEquation ?? opensslEquation) as Ed25519Equation;
  const key = eq.prepare(Buffer.from(blocks[0].attestations[0].publicKey, 'hex'));
  const n = Math.min(blocks.length, 5000);
  const data = blocks.slice(0, n).map((b) => Buffer.from(b.hash));
  const sigs = blocks.slice(0, n).map((b) => Buffer.from(b.attestations[0].signature, 'hex'));
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) if (!eq.holds(key, data[i], sigs[i])) throw new Error('attestation failed');
  const cpu = process.cpuUsage(cpu0);
  return { wall: n / ((performance.now() - start) / 1000), cpu: n / ((cpu.user + cpu.system) / 1e6) };
}

/**
 * Imports `blocks` into a fresh node in groups of `group` (1: one synced batch per block),
 * verifying inline, or with `pipeline` as the syncer does: signatures verified ahead in worker
 * threads (the catch-up pipeline), each verified group imported in one synced batch.
 */
async function localImport(dir: string, genesis: Genesis, blocks: readonly Block[], group: number, pipeline = false) {
  const node = await OmbraNode.open({ dbDir: join(dir, 'db'), genesis });
  // As the syncer does: undo records only for blocks near the top of what was verified.
  const cpu0 = process.cpuUsage();
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
        async (ahead) => {
          const next = pending.splice(0);
          await node.importBlocks(
            next.map((b) => b.raw),
            next.map((b) => b.verified),
            next.map((b) => b.txBytes),
            { horizon: ahead.verifiedTop },
          );
        },
        { lookahead: true },
      );
    } finally {
      await pool.close();
    }
  } else if (group === 1) for (const b of blocks) await node.importBlock(b);
  else for (let i = 0; i < blocks.length; i += group) await node.importBlocks(blocks.slice(i, i + group));
  const seconds = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await node.stop();
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

/** `localImport` into a fresh temporary directory. */
async function freshImport(genesis: Genesis, blocks: readonly Block[], group: number, pipeline: boolean) {
  const tmp = tempDir('ombra-sync-group-');
  try {
    return await localImport(tmp.dir, genesis, blocks, group, pipeline);
  } finally {
    tmp.cleanup();
  }
}

/** The serving peer in a child process (test/bench/syncPeer.ts) on `dataDir`. */
async function servingPeer(dataDir: string) {
  const child = fork(PEER, [dataDir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // One answer per question, in order; the child dying fails whatever waits.
  const waiting: { resolve: (m: unknown) => void; reject: (e: Error) => void }[] = [];
  child.on('message', (m) => waiting.shift()?.resolve(m));
  child.on('exit', (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`sync peer exited with ${code}`));
  });
  const next = <T>() => new Promise<T>((resolve, reject) => waiting.push({ resolve: (m) => resolve(m as T), reject }));
  const { address } = await next<{ address: string }>();
  return {
    address,
    /** The peer's process CPU so far, microseconds. */
    cpu: async () => {
      const answer = next<{ cpu: number }>();
      child.send('cpu');
      return (await answer).cpu;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

/**
 * One sync round: a fresh node launched as `ombra start` launches it dials the serving peer and
 * syncs the whole chain; wall seconds and the importing process's CPU seconds (main thread,
 * verify workers, LevelDB and V8 threads), with the serving peer's CPU apart.
 */
async function syncRound(genesis: Genesis, blocks: number, peer: Awaited<ReturnType<typeof servingPeer>>) {
  const fresh = tempDir('ombra-sync-dst-');
  try {
    const served0 = await peer.cpu();
    const cpu0 = process.cpuUsage();
    const t = performance.now();
    const dst = await launch({
      dataDir: fresh.dir,
      genesis,
      dev: false,
      httpHost: '127.0.0.1',
      httpPort: 0,
      p2p: { port: 0, peers: [peer.address] },
    });
    while (dst.node.head().index < blocks) await new Promise((r) => setTimeout(r, 20));
    const seconds = (performance.now() - t) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const servedSeconds = ((await peer.cpu()) - served0) / 1e6;
    await dst.stop();
    return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, servedSeconds };
  } finally {
    fresh.cleanup();
  }
}

/**
 * Ratio by CPU time: what two idle cores would show (twice the blocks a CPU second, every thread
 * of the importing process counted) over the one-core verify rate a CPU second. Steady when other
 * processes share the cores, unlike the wall-clock ratio.
 */
const cpuRatio = (blocks: number, cpuSeconds: number, verifyCpu: number) => (2 * blocks) / cpuSeconds / verifyCpu;

/** One round's figures against the round's limit. */
interface Round {
  rate: number;
  ratio: number;
  cpuRatio: number;
  usBlock: number;
  servedUs?: number;
}

const round = (blocks: number, r: { seconds: number; cpuSeconds: number; servedSeconds?: number }, limit: Rates): Round => ({
  rate: blocks / r.seconds,
  ratio: blocks / r.seconds / limit.wall,
  cpuRatio: cpuRatio(blocks, r.cpuSeconds, limit.cpu),
  usBlock: (r.cpuSeconds * 1e6) / blocks,
  ...(r.servedSeconds === undefined ? {} : { servedUs: (r.servedSeconds * 1e6) / blocks }),
});

/** Runs the sync benchmark and prints its figures; the pipelined and synced imports `rounds` times. */
export async function syncBench(blocks = 10_000, rounds = 3, cacheDir?: string): Promise<void> {
  const local = tempDir('ombra-sync-local-');
  try {
    const chain = await buildChain(blocks, cacheDir);
    console.log(
      `sync: ${blocks} blocks of one transfer (${chain.cached ? 'cached' : 'built'}; the build took ${chain.seconds.toFixed(0)} s)`,
    );
    const first = attestationRates(chain.blocks);
    // The same blocks imported from memory into fresh nodes: one synced batch each, then group commit.
    const one = await localImport(local.dir, chain.genesis, chain.blocks, 1);
    const inline = await freshImport(chain.genesis, chain.blocks, 256, false);
    const group: Round[] = [];
    const sync: Round[] = [];
    // The floor: the same blocks batched and verified as the import does, nothing imported.
    const floor: Round[] = [];
    const limits: Rates[] = [];
    // Over the network: the source serves from a child process, a fresh node dials it and syncs.
    const peer = await servingPeer(chain.dir);
    try {
      for (let i = 0; i < rounds; i++) {
        const limit = attestationRates(chain.blocks);
        limits.push(limit);
        floor.push(round(blocks, await verifyFloor(chain.blocks, { maxBlocks: 256, lookahead: true }), limit));
        group.push(round(blocks, await freshImport(chain.genesis, chain.blocks, 256, true), limit));
        sync.push(round(blocks, await syncRound(chain.genesis, blocks, peer), limit));
        console.log(
          `  round ${i + 1}: attestation verify ${((1 / limit.cpu) * 1e6).toFixed(1)} us CPU (${limit.wall.toFixed(0)}/s); floor (verify only) ${floor[i].usBlock.toFixed(0)} us CPU a block (${floor[i].ratio.toFixed(2)} wall, ${floor[i].cpuRatio.toFixed(2)} by CPU time); local pipeline ${group[i].usBlock.toFixed(0)} us CPU a block (${group[i].ratio.toFixed(2)} wall, ${group[i].cpuRatio.toFixed(2)} by CPU time); sync ${sync[i].usBlock.toFixed(0)} us CPU a block importing (${sync[i].ratio.toFixed(2)} wall, ${sync[i].cpuRatio.toFixed(2)} by CPU time), ${sync[i].servedUs?.toFixed(0)} serving`,
        );
      }
    } finally {
      await peer.stop();
    }
    const m = (list: Round[], f: (x: Round) => number) => median(list.map(f));
    const r = (list: Round[], f: (x: Round) => number, digits = 2) => range(list.map(f), digits);
    const limitWall = median(limits.map((l) => l.wall));
    const limitUs = median(limits.map((l) => 1e6 / l.cpu));
    console.log(`limit: one attestation verify a block (libsodium, 1 core): ${limitWall.toFixed(0)}/s, ${limitUs.toFixed(1)} us CPU`);
    console.log(
      `import: local, one synced LevelDB batch per block: ${one.seconds.toFixed(2)} s = ${(blocks / one.seconds).toFixed(0)} blocks/s; ratio ${(blocks / one.seconds / first.wall).toFixed(2)}`,
    );
    console.log(
      `import: local, group commit of 256 blocks per synced batch, verified inline: ${inline.seconds.toFixed(2)} s = ${(blocks / inline.seconds).toFixed(0)} blocks/s; ratio ${(blocks / inline.seconds / first.wall).toFixed(2)}`,
    );
    const show = (name: string, list: Round[], goal?: number) =>
      console.log(
        `${name}: ${m(list, (x) => x.rate).toFixed(0)} blocks/s (runs ${r(list, (x) => x.rate, 0)}); ratios ${r(list, (x) => x.ratio)} wall, ${r(list, (x) => x.cpuRatio)} by CPU time (${r(list, (x) => x.usBlock, 0)} us CPU a block)${goal === undefined ? '' : ` (goal >= ${goal})`}`,
      );
    show('floor: the same blocks batched and every signature verified as the import does, nothing imported', floor);
    show('import: local, group commit of 256, verified ahead in workers (as sync)', group, 0.7);
    show('sync: fresh node over libp2p from one peer in another process (verified ahead in workers, group commit)', sync, 0.6);
    const baseline = `one attestation verify a block (libsodium, 1 core): ${limitWall.toFixed(0)}/s (${range(
      limits.map((l) => l.wall),
      0,
    )}), ${limitUs.toFixed(1)} us CPU; by CPU time: 2 x blocks a CPU second over verifies a CPU second`;
    const floorNote = `floor (verify only, nothing imported) ${m(floor, (x) => x.usBlock).toFixed(0)} us CPU a block: ${m(floor, (x) => x.ratio).toFixed(2)} wall, ${m(floor, (x) => x.cpuRatio).toFixed(2)} by CPU time`;
    addRow({
      measure: `sync of ${blocks} near-empty blocks (1 transfer each) from a peer in another process, over libp2p`,
      node: `${m(sync, (x) => x.rate).toFixed(0)} blocks/s (${r(sync, (x) => x.rate, 0)}), ${m(sync, (x) => x.usBlock).toFixed(0)} us CPU a block (serving ${m(sync, (x) => x.servedUs ?? 0).toFixed(0)} apart); by CPU time ${m(sync, (x) => x.cpuRatio).toFixed(2)} (${r(sync, (x) => x.cpuRatio)}); ${floorNote}`,
      baseline,
      ratio: m(sync, (x) => x.ratio),
      atLeast: 0.6,
    });
    addRow({
      measure: 'local import of the same blocks (verified ahead in workers, group commit of 256 a batch)',
      node: `${m(group, (x) => x.rate).toFixed(0)} blocks/s (${r(group, (x) => x.rate, 0)}), ${m(group, (x) => x.usBlock).toFixed(0)} us CPU a block; by CPU time ${m(group, (x) => x.cpuRatio).toFixed(2)} (${r(group, (x) => x.cpuRatio)}); verified inline: ${(blocks / inline.seconds).toFixed(0)}/s; one synced batch a block: ${(blocks / one.seconds).toFixed(0)}/s; ${floorNote}`,
      baseline,
      ratio: m(group, (x) => x.ratio),
      atLeast: 0.7,
    });
    // Against the node's own limit (issue 38): the floor of the same round, the same blocks
    // verified the same way with nothing imported. By CPU time (a CPU second's blocks), wall beside.
    const ofFloor = (list: Round[]) => ({
      cpu: list.map((x, i) => floor[i].usBlock / x.usBlock),
      wall: list.map((x, i) => x.rate / floor[i].rate),
    });
    for (const [measure, list, goal] of [
      ['local import of near-empty blocks vs the verify floor of the same round', group, 0.6],
      ['sync of near-empty blocks over libp2p vs the verify floor of the same round', sync, 0.5],
    ] as const) {
      const of = ofFloor(list);
      addRow({
        measure,
        node: `${m(list, (x) => x.usBlock).toFixed(0)} us CPU a block (${r(list, (x) => x.usBlock, 0)}); by wall ${median(of.wall).toFixed(2)} (${range(of.wall, 2)}), by CPU time ${range(of.cpu, 2)}`,
        baseline: `floor: ${m(floor, (x) => x.usBlock).toFixed(0)} us CPU a block (${r(floor, (x) => x.usBlock, 0)}), ${m(floor, (x) => x.rate).toFixed(0)} blocks/s`,
        ratio: median(of.cpu),
        atLeast: goal,
      });
    }
  } finally {
    local.cleanup();
  }
}
