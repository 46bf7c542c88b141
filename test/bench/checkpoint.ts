/**
 * checkpoint: a chain of `txs` transfers to new accounts (500 a block); then
 *   - writing its checkpoint (`ombra snapshot state` on the stopped dir): seconds and size;
 *   - a new node serving from it (digest check, install, open at the checkpoint's height) against
 *     a new node replaying the same log from genesis with full verification (the baseline: what a
 *     replica without a checkpoint does before it serves, sync's network time not counted);
 *   - the background verification (checkpoint/checkpointVerifier.ts: a nice-19 child replaying every
 *     block, then comparing every read model's digest): its rate in tx/s.
 * The chain's history is fed to the verification from the source's log, as peers would serve it.
 * Usage: npm run bench -- --only checkpoint [--txs 100000]
 */
import { join } from 'node:path';
import { ChainStore } from '../../node/store/chainStore.ts';
import { writeCheckpoint } from '../../checkpoint/checkpointExport.ts';
import { installCheckpoint } from '../../checkpoint/checkpointInstall.ts';
import { checkpointRecord } from '../../checkpoint/checkpointRecord.ts';
import { CheckpointVerifier } from '../../checkpoint/checkpointVerifier.ts';
import { silentLogger } from '../../node/log.ts';
import { OmbraNode } from '../../node/node.ts';
import { tempDir } from '../helpers/testChain.ts';
import { buildTransferChain } from './fixtureChain.ts';
import { addRow } from './table.ts';

const seconds = (from: number) => (performance.now() - from) / 1000;
/** CPU seconds of this process (every thread) since `from` (a shared machine's wall time says little). */
const cpuSeconds = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
};

/** Runs the checkpoint section with a chain of `txs` transfers. */
export async function checkpointBench(txs: number): Promise<void> {
  const tmp = tempDir('ombra-bench-checkpoint-');
  try {
    const perBlock = 500;
    const blocks = Math.max(1, Math.round(txs / perBlock));
    console.log(`checkpoint: a chain of ${blocks * perBlock} transfers to new accounts (${perBlock} a block)`);
    const source = join(tmp.dir, 'source');
    const built = await buildTransferChain(source, { blocks, perBlock, freshAccounts: true });
    const file = join(tmp.dir, 'state.ckpt');

    let t = performance.now();
    const store = await ChainStore.open(join(source, 'db'));
    const written = await writeCheckpoint(store, store.db.snapshot(), file);
    await store.close();
    const writeSeconds = seconds(t);
    console.log(`  snapshot state: ${writeSeconds.toFixed(2)} s, ${(written.bytes / 2 ** 20).toFixed(1)} MiB at height ${written.height}`);

    // A new node from the checkpoint: digest, install, open; serving from here.
    const follower = join(tmp.dir, 'follower');
    t = performance.now();
    let cpu = process.cpuUsage();
    await installCheckpoint(file, join(follower, 'db'), written.digest, {
      genesis: built.genesis,
      copyTo: join(follower, 'checkpoint.ckpt'),
    });
    const installSeconds = seconds(t);
    const installCpu = cpuSeconds(cpu);
    const node = await OmbraNode.open({ dbDir: join(follower, 'db'), genesis: built.genesis, log: silentLogger });
    const serveSeconds = seconds(t);
    const serveCpu = cpuSeconds(cpu);
    if (node.head().index !== written.height) throw new Error(`the follower opened at ${node.head().index}`);

    // The baseline: a new node that replays the log from genesis before it serves.
    const replayed = await OmbraNode.open({ dbDir: join(source, 'db'), log: silentLogger });
    t = performance.now();
    cpu = process.cpuUsage();
    await replayed.runner.resetAll();
    await replayed.catchUp(undefined, { verifySignatures: true });
    const replaySeconds = seconds(t);
    const replayCpu = cpuSeconds(cpu);
    console.log(
      `  serve from checkpoint ${serveSeconds.toFixed(2)} s (CPU ${serveCpu.toFixed(2)} s; of which install ${installSeconds.toFixed(2)} s, CPU ${installCpu.toFixed(2)} s) vs replay from genesis ${replaySeconds.toFixed(2)} s (CPU ${replayCpu.toFixed(2)} s; ${Math.round(built.txs / replaySeconds)} tx/s)`,
    );

    // Background verification, its history read from the source's log as a peer would serve it.
    const record = await checkpointRecord(node.store);
    if (!record) throw new Error('no checkpoint record');
    // Every block but block 0 comes "from peers": the verifier's slowest path.
    const verifier = new CheckpointVerifier({
      store: node.store,
      record: { ...record, base: record.height + 1, logFrom: record.height + 1 },
      file: join(follower, 'checkpoint.ckpt'),
      scratchDir: join(tmp.dir, 'verify'),
      fetchHistory: (from, to) => replayed.store.blocksIn(from, Math.min(to, from + 63)),
      log: silentLogger,
    });
    t = performance.now();
    await verifier.start();
    while (verifier.status() === 'verifying') await new Promise((r) => setTimeout(r, 100));
    const verifySeconds = seconds(t);
    await verifier.stop();
    await replayed.stop();
    await node.stop();
    if (verifier.status() !== 'verified') throw new Error(`verification ended ${verifier.status()}`);
    const verifyRate = built.txs / verifySeconds;
    console.log(`  background verification: ${verifySeconds.toFixed(2)} s, ${Math.round(verifyRate)} tx/s (nice 19 child, one core)`);
    console.log(
      `  at 1M transactions, linearly in CPU time: serve ~${((serveCpu * 1e6) / built.txs).toFixed(1)} s, replay ~${((replayCpu * 1e6) / built.txs).toFixed(0)} s; verification ~${(1e6 / verifyRate).toFixed(0)} s wall`,
    );
    addRow({
      measure: `new node serving, ${built.txs} transfers: from a checkpoint`,
      node: `${serveSeconds.toFixed(2)} s, CPU ${serveCpu.toFixed(2)} s (checkpoint ${(written.bytes / 2 ** 20).toFixed(1)} MiB, written in ${writeSeconds.toFixed(1)} s)`,
      baseline: `replay from genesis: ${replaySeconds.toFixed(1)} s, CPU ${replayCpu.toFixed(1)} s`,
      ratio: serveCpu / replayCpu,
      atMost: 0.5,
    });
    addRow({
      measure: `checkpoint background verification, ${built.txs} transfers`,
      node: `${Math.round(verifyRate)} tx/s (nice 19 child)`,
      baseline: `replay from genesis: ${Math.round(built.txs / replaySeconds)} tx/s`,
      ratio: verifyRate / (built.txs / replaySeconds),
    });
  } finally {
    tmp.cleanup();
  }
}
