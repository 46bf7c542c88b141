/**
 * The crash matrix, reorganisation part: a child process is killed with SIGKILL right before each
 * LevelDB write of a reorganisation (undo steps, the log's suffix swap, projection batches, the
 * pending log), of the block produced after it and of the close, one write per run until a run
 * completes. After each kill the data dir opens (no integrity fault), holds the old chain or the
 * new one whole, keeps every acknowledged transaction (in a block or pending), and its read models
 * equal a replay from genesis.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OmbraNode } from '../../../node/node.ts';
import { runCli } from '../../helpers/cliRun.ts';
import { assertReadModelsEqualReplay, CRASH_HOOK } from '../../helpers/crashCheck.ts';
import { fixtureGenesis, tempDir } from '../../helpers/testChain.ts';

const CHILD = fileURLToPath(new URL('../../helpers/crashReorgChild.ts', import.meta.url));

test('kill -9 before every write of a reorganisation: the old chain or the new one, whole, and read models equal a replay', async () => {
  const kinds = new Set<string>();
  let points = 0;
  for (let at = 1; ; at++) {
    const tmp = tempDir('ombra-crash-reorg-');
    try {
      const run = await runCli([tmp.dir], { script: CHILD, nodeArgs: ['--import', CRASH_HOOK], env: { OMBRA_CRASH_AT: String(at) } });
      const line = (key: string) =>
        run.stdout
          .split('\n')
          .find((l) => l.startsWith(`${key} `))
          ?.split(' ') ?? [];
      if (run.stdout.includes('\ndone')) {
        assert.equal(run.code, 0, run.stderr);
        break;
      }
      const crash = line('crash');
      assert.equal(Number(crash[1]), at, `the child died at write ${at}: ${run.stdout}\n${run.stderr}`);
      assert.equal(run.code, null, 'killed by a signal');
      kinds.add(crash[2]);
      points++;
      const [, beforeIndex, beforeHash] = line('before');
      const [, targetIndex, targetHash] = line('target');
      const acked = line('acked')[1].split(',');
      const node = await OmbraNode.open({ dbDir: join(tmp.dir, 'db'), genesis: fixtureGenesis() });
      try {
        const head = node.head();
        const hashAt = async (i: string) => (await node.store.block(Number(i)))?.hash;
        const old = (await hashAt(beforeIndex)) === beforeHash;
        const fresh = (await hashAt(targetIndex)) === targetHash;
        assert.ok(old !== fresh, `write ${at}: exactly one of the two chains (old ${old}, new ${fresh})`);
        assert.ok(head.index === Number(old ? beforeIndex : targetIndex) || (fresh && head.index === Number(targetIndex) + 1));
        const inChain = new Set<string>();
        for (const b of await node.store.blocksIn(1, head.index)) for (const tx of b.transactions) inChain.add(tx.hash);
        for (const h of acked) assert.ok(inChain.has(h) || node.mempool.has(h), `write ${at}: acknowledged ${h} lost`);
        await assertReadModelsEqualReplay(node, `write ${at} (${crash[2]}): read models equal a replay`);
      } finally {
        await node.stop();
      }
    } finally {
      tmp.cleanup();
    }
  }
  // The kills fell on the log's suffix swap, projection batches, undo rows and the pending log.
  const all = [...kinds].join(' ');
  for (const kind of ['blocks', 'checkpoints', 'undo', 'local:mempool'])
    assert.ok(all.includes(kind), `no kill before a ${kind} write: ${all}`);
  assert.ok(points >= 6, `only ${points} kill points`);
});
