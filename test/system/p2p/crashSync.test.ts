/**
 * The crash matrix, sync part: `ombra start` in a child process syncs 1,200 blocks of transfers
 * from a peer (group commits of 256 blocks), and is killed with SIGKILL right before its k-th
 * LevelDB write (startup, group-commit appends, projection batches), run after run on the same
 * data dir, until a run serves the peer's whole chain before its kill (synced; then it is killed). After every kill the data dir opens
 * with no integrity fault, holds a prefix of the peer's chain no shorter than before, and its read
 * models equal a replay.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from '../../../launch/launch.ts';
import { testnetGenesis } from '../../../cli/testnet.ts';
import { OmbraNode } from '../../../node/node.ts';
import { runCli } from '../../helpers/cliRun.ts';
import { assertReadModelsEqualReplay, CRASH_HOOK } from '../../helpers/crashCheck.ts';
import { DEV_KEYS, openTestChain, tempDir } from '../../helpers/testChain.ts';

const BLOCKS = 1200;
/** Kill before write k of a run (counted from process start), k cycling through these. */
const KILL_AT = [2, 3];

/**
 * Watches a run's node over HTTP and kills it (SIGKILL) once it serves the peer's height: a run
 * that reached the write it was to die before never gets there. Resolves true when it did, false
 * when the run ended first. Judged on the node's height, not on time: on a loaded machine a run
 * may take long to reach its first writes, and a run cut by a timer would pass for a synced one.
 */
async function killWhenSynced(child: ChildProcess, height: number): Promise<boolean> {
  let log = '';
  let exited = false;
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  child.once('exit', () => (exited = true));
  while (!exited) {
    const url = /"msg":"node serving","url":"([^"]+)"/.exec(log)?.[1] ?? /node serving url=(\S+)/.exec(log)?.[1];
    const now = url
      ? await fetch(`${url}/api/chain/height`)
          .then((r) => r.json() as Promise<{ height: number }>)
          .catch(() => undefined)
      : undefined;
    if (now && now.height >= height && !exited) {
      child.kill('SIGKILL');
      return true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

test("kill -9 before chosen writes of a syncing node, run after run: a growing prefix of the peer's chain, read models equal a replay", async () => {
  const tmp = tempDir('ombra-crash-sync-');
  const genesis = testnetGenesis(1, 400, 'ombra-crash-sync', Date.now() - 3_600_000);
  const genesisFile = join(tmp.dir, 'genesis.json');
  writeFileSync(genesisFile, JSON.stringify(genesis));
  // The peer's chain, built in the past so a real-time node accepts every block.
  const src = await openTestChain({ genesis, dir: join(tmp.dir, 'src'), clock: genesis.timestamp });
  for (let i = 0; i < BLOCKS; i++) {
    await src.node.submitTx(src.transfer(1 + (i % 4), DEV_KEYS[9].address, BigInt(i + 1)));
    await src.produce(1);
  }
  const srcBlocks = await src.node.store.blocksIn(0, BLOCKS);
  const hashes = srcBlocks.map((b) => b.hash);
  await src.close();
  // Served by a node that is no authority (its chain stays put).
  const peer = await launch({
    dataDir: join(tmp.dir, 'src'),
    genesis,
    key: DEV_KEYS[5],
    dev: false,
    httpHost: '127.0.0.1',
    httpPort: 0,
    p2p: { host: '127.0.0.1', port: 0, peers: [] },
  });
  const dataDir = join(tmp.dir, 'late');
  const args = [
    'start',
    '--genesis',
    genesisFile,
    '--data-dir',
    dataDir,
    '--http-port',
    '0',
    '--p2p-port',
    '0',
    '--metrics-addr',
    '127.0.0.1:0',
    '--peer',
    peer.p2p!.addresses()[0],
  ];
  const open = () => OmbraNode.open({ dbDir: join(dataDir, 'db'), genesis });
  try {
    // Created beforehand with block 1 (so read models have checkpoints): a data dir without them
    // spends its first ~50 writes of every start setting them up.
    const first = await open();
    await first.importBlocks(srcBlocks.slice(1, 2));
    await first.stop();
    let height = 1;
    const kinds = new Set<string>();
    let points = 0;
    for (let run = 0; height < BLOCKS; run++) {
      const at = KILL_AT[run % KILL_AT.length];
      let synced: Promise<boolean> = Promise.resolve(false);
      const child = await runCli(args, {
        nodeArgs: ['--import', CRASH_HOOK],
        env: { OMBRA_CRASH_ARMED: '1', OMBRA_CRASH_AT: String(at) },
        // Only a stuck run lasts this long: a run ends at its kill or once it serves the peer's height.
        timeoutMs: 300_000,
        onSpawn: (proc) => (synced = killWhenSynced(proc, BLOCKS)),
      });
      const crash = /^crash (\d+) (\S+)$/m.exec(child.stdout);
      // No write left to die before: the node synced and idles (killed once it served the peer's height).
      if (!crash) assert.ok(await synced, `run ${run} ended neither at its kill nor synced: ${child.stderr.slice(-4000)}`);
      else kinds.add(crash[2]);
      const what = crash ? `write ${at} (${crash[2]})` : 'idle';
      const node = await open();
      try {
        const head = node.head().index;
        assert.ok(head >= height, `${what}: height went back from ${height} to ${head}`);
        if (crash && head > 1 && head < BLOCKS) points++;
        height = head;
        const blocks = await node.store.blocksIn(0, head);
        assert.ok(
          blocks.every((b, i) => b.hash === hashes[i]),
          `${what}: a prefix of the peer's chain`,
        );
        await assertReadModelsEqualReplay(node, `${what}: read models equal a replay`);
      } finally {
        await node.stop();
      }
      if (!crash) assert.equal(height, BLOCKS, 'an idle run has synced');
    }
    // The kills fell on appends (blocks and head) and projection batches of the sync itself.
    assert.ok(points >= 4, `only ${points} kills fell mid-sync`);
    for (const kind of ['blocks+meta', 'checkpoints'])
      assert.ok(
        [...kinds].some((k) => k.includes(kind)),
        `no kill before ${kind}`,
      );
    const last = await open();
    try {
      await assertReadModelsEqualReplay(last);
    } finally {
      await last.stop();
    }
  } finally {
    await peer.stop();
    tmp.cleanup();
  }
});
