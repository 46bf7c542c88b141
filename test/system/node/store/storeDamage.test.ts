/**
 * Damage below the block log, on real LevelDB files of a stopped node: a truncated write-ahead log
 * (LevelDB silently drops its tail) and a table whose data blocks are overwritten (LevelDB answers
 * reads with corruption). Startup refuses with one line naming the height and `ombra repair`, a
 * second start still refuses, and `ombra repair` brings back a node that serves a verified log
 * with read models equal to a replay, and keeps producing.
 */
import { readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { literal } from '../../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { repairCommand } from '../../../../cli/repair.ts';
import { ChainStore } from '../../../../node/store/chainStore.ts';
import { OmbraNode } from '../../../../node/node.ts';
import { LogIntegrityError } from '../../../../node/store/storeDamage.ts';
import { runCli } from '../../../helpers/cliRun.ts';
import { assertReadModelsEqualReplay } from '../../../helpers/crashCheck.ts';
import { DEV_KEYS, openTestChain, tempDir } from '../../../helpers/testChain.ts';

/** Produces `n` blocks with a transfer each on the chain in `dir` (created if new), then stops it. */
async function grow(dir: string, n: number): Promise<number> {
  const c = await openTestChain({ dir });
  for (let i = 0; i < n; i++) {
    await c.node.submitTx(c.transfer(1, DEV_KEYS[2].address, BigInt(i + 1)));
    await c.produce(1);
  }
  const head = c.node.head().index;
  await c.close();
  return head;
}

/** The newest LevelDB file of a kind (`.log`, `.ldb`) in the data dir's database. */
function newest(dir: string, ext: string): string {
  const files = readdirSync(join(dir, 'db')).filter((f) => f.endsWith(ext));
  return join(dir, 'db', files.sort()[files.length - 1]);
}

/** What starting the node on `dir` throws (it must refuse). */
async function refusal(dir: string): Promise<LogIntegrityError> {
  const e = await OmbraNode.open({ dbDir: join(dir, 'db') }).then(
    async (n) => {
      await n.stop();
      return null;
    },
    (err: unknown) => err,
  );
  assert.ok(e instanceof LogIntegrityError, `expected a LogIntegrityError, got ${String(e)}`);
  return e as LogIntegrityError;
}

/** `ombra start` on `dir` prints one line naming `pattern` and the repair, no stack, exit 1. */
async function cliRefuses(dir: string, pattern: RegExp): Promise<void> {
  const run = await runCli(['start', '--data-dir', dir, '--http-port', '0', '--p2p-port', '0']);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /^ombra start: the (block log|database) is damaged/);
  assert.match(run.stderr, literal(pattern));
  assert.match(run.stderr, /run `ombra repair --data-dir \/.+`/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
  assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
}

/** Repairs, then checks the node serves a verified log up to a height in `heights`, equal to a replay, and produces. */
async function repairedTo(dir: string, heights: [number, number]): Promise<number> {
  assert.equal(await repairCommand(['--data-dir', dir]), 0);
  const node = await OmbraNode.open({ dbDir: join(dir, 'db'), verifyDepth: Number.POSITIVE_INFINITY });
  const head = node.head().index;
  try {
    assert.ok(head >= heights[0] && head <= heights[1], `repaired to ${head}, expected ${heights[0]}..${heights[1]}`);
    await assertReadModelsEqualReplay(node);
  } finally {
    await node.stop();
  }
  assert.equal(await grow(dir, 1), head + 1, 'it produces on the repaired chain');
  return head;
}

test('a truncated write-ahead log: startup refuses naming the first lost block, twice; repair continues from the intact prefix', async () => {
  const tmp = tempDir();
  try {
    assert.equal(await grow(tmp.dir, 20), 20);
    const log = newest(tmp.dir, '.log');
    truncateSync(log, Math.floor(statSync(log).size * 0.6));
    const e = await refusal(tmp.dir);
    assert.ok(e.height !== null && e.height > 1 && e.height <= 20, `height ${e.height}`);
    assert.match(e.message, literal(`damaged at height ${e.height}`));
    assert.match(e.message, /the node stopped at block 20: LevelDB lost the tail of its write-ahead log/);
    // The damage is remembered: a second start (LevelDB has rewritten its log by now) refuses too.
    assert.equal((await refusal(tmp.dir)).height, e.height);
    await cliRefuses(tmp.dir, new RegExp(`at height ${e.height}: `));
    assert.equal(await repairedTo(tmp.dir, [e.height! - 1, e.height! - 1]), e.height! - 1);
  } finally {
    tmp.cleanup();
  }
});

test('a table with overwritten data blocks: startup refuses in one line; repair salvages the readable tables and rebuilds', async () => {
  const tmp = tempDir();
  try {
    // Two generations of tables: blocks 0..8 in one, 9..16 in the next (each open turns the log into a table).
    await grow(tmp.dir, 8);
    await grow(tmp.dir, 8);
    await grow(tmp.dir, 0);
    const table = newest(tmp.dir, '.ldb');
    const bytes = readFileSync(table);
    // The footer (last 48 bytes) starts with the metaindex block's offset: every data block lies before it.
    let dataEnd = 0;
    for (let i = bytes.length - 48, shift = 0; ; i++, shift += 7) {
      dataEnd |= (bytes[i] & 0x7f) << shift;
      if (bytes[i] < 0x80) break;
    }
    assert.ok(dataEnd > 0 && dataEnd < bytes.length);
    for (let i = 0; i < dataEnd; i++) bytes[i] ^= 0x5a;
    writeFileSync(table, bytes);
    const e = await refusal(tmp.dir);
    assert.ok(e.corrupt, 'LevelDB reported the corruption');
    await cliRefuses(tmp.dir, /LevelDB|cannot be read/);
    await repairedTo(tmp.dir, [1, 16]);
  } finally {
    tmp.cleanup();
  }
});

test('a missing or damaged head pointer, blocks intact: start names it in one line, twice; repair rebuilds it from the log', async () => {
  for (const damage of [(m: ChainStore['meta']) => m.del('head'), (m: ChainStore['meta']) => m.put('head', { index: 'x' })]) {
    const tmp = tempDir();
    try {
      assert.equal(await grow(tmp.dir, 12), 12);
      const store = await ChainStore.open(join(tmp.dir, 'db'));
      await damage(store.meta);
      await store.close();
      const e = await refusal(tmp.dir);
      assert.match(e.message, /the head pointer is (missing|damaged).*the log holds blocks up to 12/);
      assert.match((await refusal(tmp.dir)).message, /the head pointer is/);
      await cliRefuses(tmp.dir, /the head pointer is (missing|damaged)/);
      assert.equal(await repairedTo(tmp.dir, [12, 12]), 12);
    } finally {
      tmp.cleanup();
    }
  }
});
