import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ChainStore } from '../../node/chainStore.ts';
import { OmbraNode } from '../../node/node.ts';
import { ChainQueries } from '../../queries/chainQueries.ts';
import { runCli } from '../helpers/cliRun.ts';
import { DEV_KEYS, openTestChain, tempDir } from '../helpers/testChain.ts';
import { chainStatsProjection } from '../../projections/chainStats.ts';

const t = suite('cli replay');

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

t('replay rebuilds read models identical to the incremental ones', async () => {
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
    assert.is(before.models.txs.length, 12);
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
    assert.is(damaged.models.chainStats.totalTxs, 999);
    assert.is(damaged.models.txs[0], null);

    const r = await runCli(['replay', '--data-dir', tmp.dir]);
    assert.is(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      new RegExp(
        `^replayed ${before.head.index} blocks in [0-9.]+ s \\([0-9]+ blocks/s, [0-9]+ tx/s\\); state root ${before.head.stateRoot} matches\\n$`,
      ),
    );
    assert.match(r.stderr, /replay: 100%/, 'progress lines without a terminal');
    const after = await readModels(dbDir);
    assert.equal(after.models, before.models);
    assert.equal(after.head, before.head);

    // The data dir is locked while a node runs on it.
    const node = await OmbraNode.open({ dbDir });
    try {
      const locked = await runCli(['replay', '--data-dir', tmp.dir]);
      assert.is(locked.code, 1);
      assert.match(locked.stderr, /is in use by a running node; stop it first/);
    } finally {
      await node.stop();
    }
  } finally {
    tmp.cleanup();
  }
});

t('replay refuses a dir without a chain, and bad usage', async () => {
  const tmp = tempDir('ombra-cli-replay-empty-');
  try {
    const [none, missing, usage] = await Promise.all([
      runCli(['replay', '--data-dir', tmp.dir]),
      runCli(['replay'], { env: { OMBRA_DATA_DIR: join(tmp.dir, 'nope') } }),
      runCli(['replay', 'extra']),
    ]);
    assert.is(none.code, 1);
    assert.match(none.stderr, /no chain in /);
    assert.not.ok(existsSync(join(tmp.dir, 'db')));
    assert.is(missing.code, 1);
    assert.match(missing.stderr, /no chain in .*nope/);
    assert.is(usage.code, 2);
    assert.match(usage.stderr, /^ombra replay: unexpected argument extra \(see `ombra replay --help`\)\n$/);
  } finally {
    tmp.cleanup();
  }
});

t.run();
