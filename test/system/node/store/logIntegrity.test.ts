/**
 * A damaged block log on real LevelDB: a tampered block value, a deleted block, a head pointer
 * behind or beyond the log. The node refuses to start naming the height and the repair command;
 * `ombra repair` then lets it start and serve the truncated chain with read models equal to a replay.
 */
import { test } from 'node:test';
import { literal } from '../../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { heightKey } from '../../../../core/encoding.ts';
import type { Block } from '../../../../core/block.ts';
import { repairCommand } from '../../../../cli/repair.ts';
import { ChainStore } from '../../../../node/store/chainStore.ts';
import { verifyLog } from '../../../../node/store/logIntegrity.ts';
import { LogIntegrityError, OmbraNode } from '../../../../node/node.ts';
import { DEV_KEYS, fixtureGenesis, openTestChain, tempDir } from '../../../helpers/testChain.ts';
import { get } from '../../../helpers/apiSupport.ts';
import { runCli } from '../../../helpers/cliRun.ts';

const A = (i: number) => DEV_KEYS[i].address;

/** A stopped chain of 8 blocks, each with a transfer; returns its data dir. */
async function chainOf8(): Promise<{ dir: string; cleanup: () => void; balances: Map<number, string> }> {
  const tmp = tempDir();
  const c = await openTestChain({ dir: tmp.dir });
  const balances = new Map<number, string>();
  for (let i = 1; i <= 8; i++) {
    await c.node.submitTx(c.transfer(1, A(2), BigInt(i)));
    await c.produce(1);
    balances.set(i, String(c.node.state().accounts.get(A(2))!.balance));
  }
  await c.close();
  return { ...tmp, balances };
}

/** Edits the stopped node's database directly. */
async function tamper(dir: string, edit: (store: ChainStore) => Promise<void>): Promise<void> {
  const store = await ChainStore.open(`${dir}/db`, { createIfMissing: false });
  try {
    await edit(store);
  } finally {
    await store.close();
  }
}

async function refusesAt(dir: string, height: number): Promise<void> {
  const e = await OmbraNode.open({ dbDir: `${dir}/db`, genesis: fixtureGenesis() }).then(
    async (n) => {
      await n.stop();
      return null;
    },
    (err: unknown) => err,
  );
  assert.ok(e instanceof LogIntegrityError, `expected a LogIntegrityError, got ${String(e)}`);
  assert.equal(e.height, height);
  assert.match(e.message, literal(`damaged at height ${height}`));
  assert.match(e.message, /run `ombra repair --data-dir \/.+`/);
}

/** Repairs, then starts the node and checks it serves blocks 0..`head` and balances as of `head`. */
async function repairsTo(c8: Awaited<ReturnType<typeof chainOf8>>, head: number): Promise<void> {
  assert.equal(await repairCommand(['--data-dir', c8.dir]), 0);
  const c = await openTestChain({ dir: c8.dir });
  try {
    assert.equal(c.node.head().index, head);
    const health = await get(c, '/api/health');
    assert.equal(health.status, 200);
    assert.equal(health.body.height, head);
    assert.equal((await get(c, `/api/chain/block/${head}`)).status, 200);
    assert.equal((await get(c, `/api/chain/block/${head + 1}`)).status, 404);
    const balance = await get(c, `/api/wallet/balance/${A(2)}`);
    assert.equal(String(balance.body.balance), c8.balances.get(head));
    // It keeps producing on the repaired chain.
    await c.produce(1);
    assert.equal(c.node.head().index, head + 1);
  } finally {
    await c.destroy();
  }
}

test('a tampered transaction value: startup refuses at its height; repair truncates below it', async () => {
  const c8 = await chainOf8();
  await tamper(c8.dir, async (s) => {
    const b = (await s.blocks.get(heightKey(5))) as Block;
    (b.transactions[0] as unknown as { amount: string }).amount = '999999';
    await s.blocks.put(heightKey(5), b);
  });
  await refusesAt(c8.dir, 5);
  // The operator sees one line naming the height and the repair, no stack, and exit code 1.
  const run = await runCli(['start', '--data-dir', c8.dir, '--http-port', '0', '--p2p-port', '0']);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /^ombra start: the block log is damaged at height 5: .*run `ombra repair --data-dir \/.+`/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
  await repairsTo(c8, 4);
});

test('a tampered header (hash no longer matches) and a deleted block are refused by height', async () => {
  const c8 = await chainOf8();
  await tamper(c8.dir, async (s) => {
    const b = (await s.blocks.get(heightKey(7))) as Block;
    b.timestamp += 1;
    await s.blocks.put(heightKey(7), b);
  });
  await refusesAt(c8.dir, 7);
  await tamper(c8.dir, (s) => s.blocks.del(heightKey(3)));
  await refusesAt(c8.dir, 3);
  await repairsTo(c8, 2);
});

test('a head pointer behind the log or beyond it is refused; repair restores the verified log', async () => {
  const c8 = await chainOf8();
  await tamper(c8.dir, async (s) => {
    const b = (await s.blocks.get(heightKey(3))) as Block;
    await s.meta.put('head', { index: 3, hash: b.hash });
  });
  await refusesAt(c8.dir, 4);
  await tamper(c8.dir, (s) => s.meta.put('head', { index: 11, hash: 'ab'.repeat(32) }));
  await refusesAt(c8.dir, 9);
  await repairsTo(c8, 8);
});

test('--verify-all walks the whole log: damage older than the window is found only with it', async () => {
  const c8 = await chainOf8();
  await tamper(c8.dir, (s) => s.blocks.del(heightKey(2)));
  const n = await OmbraNode.open({ dbDir: `${c8.dir}/db`, verifyDepth: 3, start: false });
  await n.stop();
  await refusesAt(c8.dir, 2);
  assert.ok(await repairCommand(['--data-dir', c8.dir]).then((code) => code === 0));
  c8.cleanup();
});

test('the startup window ends once its transactions are checked: damage below it is found by the whole walk only', async () => {
  const c8 = await chainOf8();
  await tamper(c8.dir, async (s) => {
    await s.blocks.del(heightKey(5));
    // Blocks 6-8 hold a transfer each: a budget of 2 transactions reads 8 and 7, whatever the depth.
    assert.equal(await verifyLog(s, { depth: 1000, txs: 2 }), null);
    assert.equal(await verifyLog(s, { depth: 1000, txs: 3 }), null);
    assert.equal((await verifyLog(s, { depth: 1000, txs: 4 }))?.height, 5);
    assert.equal((await verifyLog(s, { depth: Number.POSITIVE_INFINITY, txs: Number.POSITIVE_INFINITY }))?.height, 5);
    // The head block is always checked, however small the budget.
    const b = (await s.blocks.get(heightKey(8))) as Block;
    b.timestamp += 1;
    await s.blocks.put(heightKey(8), b);
    assert.equal((await verifyLog(s, { depth: 1000, txs: 0 }))?.height, 8);
  });
  c8.cleanup();
});
