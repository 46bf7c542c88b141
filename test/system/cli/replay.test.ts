import { cpSync, existsSync } from 'node:fs';
import type { Block } from '../../../core/block.ts';
import { heightKey } from '../../../core/encoding.ts';
import { VERIFIED_SEED } from '../../../node/verification/verifiedLog.ts';
import { join } from 'node:path';
import { test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { ChainStore } from '../../../node/store/chainStore.ts';
import { OmbraNode } from '../../../node/node.ts';
import { ChainQueries } from '../../../queries/chainQueries.ts';
import { runCli } from '../../helpers/cliRun.ts';
import { DEV_KEYS, openTestChain, tempDir } from '../../helpers/testChain.ts';
import { chainStatsProjection } from '../../../projections/chainStats.ts';

/** Every read model a client can see, as plain JSON. */
async function readModels(dbDir: string) {
  const node = await OmbraNode.open({ dbDir });
  try {
    const q = new ChainQueries(node.readPorts());
    const accounts = [];
    for (const k of [...DEV_KEYS, { address: `ox${'0'.repeat(40)}` }]) accounts.push(await q.accountRecord(k.address));
    const txs = [];
    for (const b of await q.blocks(0, q.height())) for (const tx of b.transactions) txs.push(await q.tx(tx.hash));
    const blockHashes = [];
    for (const b of await q.blocks(0, q.height())) blockHashes.push((await q.blockByHash(b.hash))?.index);
    const json = JSON.stringify(
      {
        heights: node.runner.heights(),
        accounts,
        wallets: await Promise.all(DEV_KEYS.map((k) => q.walletRecord(k.address))),
        supply: q.supply(),
        holders: await q.holders(100),
        distribution: q.distribution(),
        stats: q.stats(0),
        chainStats: node.runner.state(chainStatsProjection),
        txs,
        blockHashes,
      },
      (_k, v) => (typeof v === 'bigint' ? v.toString() : v),
    );
    return { models: JSON.parse(json), head: node.head() };
  } finally {
    await node.stop();
  }
}

test('replay rebuilds read models identical to the incremental ones', async () => {
  const tmp = tempDir('ombra-cli-replay-');
  try {
    const c = await openTestChain({ dir: tmp.dir });
    try {
      await c.produce();
      for (let round = 0; round < 3; round++) {
        for (let i = 1; i <= 4; i++) await c.node.submitTx(c.transfer(i, DEV_KEYS[(i * 3 + round) % 10].address, 250_000n + BigInt(round)));
        await c.produce();
      }
      await c.produce(2);
    } finally {
      await c.close();
    }
    const dbDir = join(tmp.dir, 'db');
    const before = await readModels(dbDir);
    assert.equal(before.models.txs.length, 12);
    // Damage two read models behind the projections' backs: replay must rebuild them.
    const store = await ChainStore.open(dbDir);
    try {
      const cps = store.sublevel('checkpoints');
      const cp = (await cps.get('chainStats')) as { saved: { totalTxs: number } };
      cp.saved.totalTxs = 999;
      await cps.put('chainStats', cp);
      await store.sublevel('p:txIndex').del(before.models.txs[0].hash);
    } finally {
      await store.close();
    }
    const damaged = await readModels(dbDir);
    assert.equal(damaged.models.chainStats.totalTxs, 999);
    assert.equal(damaged.models.txs[0], null);

    const r = await runCli(['replay', '--data-dir', tmp.dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      literal(
        new RegExp(
          `^replayed ${before.head.index} blocks in [0-9.]+ s \\([0-9]+ blocks/s, [0-9]+ tx/s\\); state root ${before.head.stateRoot} matches\\n` +
            `signatures checked above block ${before.head.index}; blocks 1..${before.head.index} match the digest of what this node verified\\n$`,
        ),
      ),
    );
    assert.match(r.stderr, /replay: 100%/, 'progress lines without a terminal');
    const after = await readModels(dbDir);
    assert.deepEqual(after.models, before.models);
    assert.deepEqual(after.head, before.head);

    // The data dir is locked while a node runs on it.
    const node = await OmbraNode.open({ dbDir });
    try {
      const locked = await runCli(['replay', '--data-dir', tmp.dir]);
      assert.equal(locked.code, 1);
      assert.match(locked.stderr, /is in use by a running node; stop it first/);
    } finally {
      await node.stop();
    }
  } finally {
    tmp.cleanup();
  }
});

/** A chain of 10 blocks with transfers in blocks 2..5, closed; its directory and the blocks holding transfers. */
async function transferChain(prefix: string) {
  const tmp = tempDir(prefix);
  const c = await openTestChain({ dir: tmp.dir });
  try {
    await c.produce();
    for (let round = 0; round < 4; round++) {
      for (let i = 1; i <= 2; i++) await c.node.submitTx(c.transfer(i, DEV_KEYS[(i + round + 3) % 10].address, 100_000n + BigInt(round)));
      await c.produce();
    }
    await c.produce(5);
  } finally {
    await c.close();
  }
  return { tmp, dbDir: join(tmp.dir, 'db') };
}

/** Rewrites stored block `height` of a closed data dir through `change` (behind the node's back). */
async function tamper(dbDir: string, change: (b: Block, store: ChainStore) => Promise<Block> | Block, height: number): Promise<void> {
  const store = await ChainStore.open(dbDir);
  try {
    const b = (await store.block(height)) as Block;
    await store.blocks.put(heightKey(height), await change(structuredClone(b), store));
  } finally {
    await store.close();
  }
}

/** A hex string of the same length with its last character changed. */
const flip = (hex: string) => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');

test('replay under assume-valid: a changed signature, transaction or swapped block is refused naming its height', async () => {
  const { tmp, dbDir } = await transferChain('ombra-cli-replay-av-');
  const copiesDir = tempDir('ombra-cli-replay-av-copies-');
  try {
    const store = await ChainStore.open(dbDir);
    const head = store.head()!.index;
    const mark = store.verified.mark;
    await store.close();
    // Every block was verified when it was stored: the mark is the head.
    assert.equal(head, 10);
    assert.equal(mark.height, 10);
    const copies = ['sig', 'tx', 'swap', 'all'].map((name) => {
      const dir = join(copiesDir.dir, name);
      cpSync(tmp.dir, dir, { recursive: true });
      return join(dir, 'db');
    });
    // A transaction's signature changed in block 3 (no hash covers it).
    await tamper(
      copies[0],
      (b) => {
        b.transactions[1].signature = flip(b.transactions[1].signature);
        return b;
      },
      3,
    );
    // A transaction's amount changed in block 4.
    await tamper(
      copies[1],
      (b) => {
        (b.transactions[0] as unknown as { amount: string }).amount = '1';
        return b;
      },
      4,
    );
    // Block 5 swapped for block 6.
    await tamper(copies[2], async (_b, s) => (await s.block(6)) as Block, 5);
    // The same changed signature, under --verify-all.
    await tamper(
      copies[3],
      (b) => {
        b.transactions[1].signature = flip(b.transactions[1].signature);
        return b;
      },
      3,
    );
    const [sig, tx, swap, all] = await Promise.all([
      runCli(['replay', '--data-dir', join(copies[0], '..')]),
      runCli(['replay', '--data-dir', join(copies[1], '..')]),
      runCli(['replay', '--data-dir', join(copies[2], '..')]),
      runCli(['replay', '--data-dir', join(copies[3], '..'), '--verify-all']),
    ]);
    // ombra audit always checks every signature (after the replay: each locks the data dir).
    const audit = await runCli(['audit', '--data-dir', join(copies[3], '..')]);
    assert.equal(sig.code, 1, sig.stderr);
    assert.match(
      sig.stderr,
      /^ombra replay: block 3: transaction [0-9a-f]{64} signature invalid \(the stored log differs from what this node verified through height 10\) \(INVALID_BLOCK\)\n$/,
    );
    assert.equal(tx.code, 1, tx.stderr);
    // The open's own check of the log's last blocks (node/store/logIntegrity.ts) names these first.
    assert.match(tx.stderr, /damaged at height 4: transaction [0-9a-f]{16}… in block 4 does not hash to its stored hash/);
    assert.equal(swap.code, 1, swap.stderr);
    assert.match(swap.stderr, /damaged at height 5: block 5 does not link to block 4/);
    assert.equal(all.code, 1, all.stderr);
    assert.match(all.stderr, /block 3: invalid transaction: .*signature/i);
    assert.notEqual(audit.code, 0, audit.stdout);
    assert.match(audit.stdout + audit.stderr, /block 3: invalid transaction: .*signature/i);
    // The untouched log replays under assume-valid, and again under --verify-all.
    const [ok, okAll] = [await runCli(['replay', '--data-dir', tmp.dir]), await runCli(['replay', '--data-dir', tmp.dir, '--verify-all'])];
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /signatures checked above block 10; blocks 1..10 match the digest/);
    assert.equal(okAll.code, 0, okAll.stderr);
    assert.match(okAll.stdout, /every signature checked\n$/);
  } finally {
    tmp.cleanup();
    copiesDir.cleanup();
  }
});

test('a data dir without a verified mark is replayed with every signature checked, then marked', async () => {
  const { tmp, dbDir } = await transferChain('ombra-cli-replay-migrate-');
  try {
    // As written before the mark existed: no mark, no kept digests.
    const old = await ChainStore.open(dbDir);
    await old.meta.del('verified');
    await old.close();
    const reopened = await ChainStore.open(dbDir);
    assert.deepEqual(reopened.verified.mark, { height: 0, digest: VERIFIED_SEED });
    assert.equal(reopened.verified.recorded, false);
    await reopened.close();
    const first = await runCli(['replay', '--data-dir', tmp.dir]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /every signature checked\n$/);
    const marked = await ChainStore.open(dbDir);
    assert.equal(marked.verified.mark.height, 10);
    await marked.close();
    const second = await runCli(['replay', '--data-dir', tmp.dir]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /signatures checked above block 10;/);
  } finally {
    tmp.cleanup();
  }
});

test('replay refuses a dir without a chain, and bad usage', async () => {
  const tmp = tempDir('ombra-cli-replay-empty-');
  try {
    const [none, missing, usage] = await Promise.all([
      runCli(['replay', '--data-dir', tmp.dir]),
      runCli(['replay'], { env: { OMBRA_DATA_DIR: join(tmp.dir, 'nope') } }),
      runCli(['replay', 'extra']),
    ]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no chain in /);
    assert.ok(!existsSync(join(tmp.dir, 'db')));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no chain in .*nope/);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^ombra replay: unexpected argument extra \(see `ombra replay --help`\)\n$/);
  } finally {
    tmp.cleanup();
  }
});
