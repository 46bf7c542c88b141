/** Address history costs O(page) at any depth, and cursors page through it without shifting. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Rows } from '../../../projections/store.ts';
import { ChainQueries } from '../../../queries/chainQueries.ts';
import { DEV_KEYS, openTestChain, type TestChain } from '../../helpers/testChain.ts';

const A = (i: number) => DEV_KEYS[i].address;

/** Queries over the chain's own ports that count the history rows read and the blocks fetched. */
function counting(c: TestChain) {
  const ports = c.node.readPorts();
  const seen = { rows: 0, blocks: 0 };
  const models = {
    state: ports.models.state.bind(ports.models),
    height: ports.models.height.bind(ports.models),
    readable: async (p: Parameters<typeof ports.models.readable>[0]) => {
      const rows = await ports.models.readable(p);
      return {
        get: (k: string) => rows.get(k),
        values: (o: object) => {
          const it = rows.values(o);
          return (async function* () {
            for await (const v of it) {
              seen.rows++;
              yield v;
            }
          })();
        },
      } as unknown as Rows;
    },
  };
  const blocks = { ...ports.blocks, block: (i: number) => (seen.blocks++, ports.blocks.block(i)) } as typeof ports.blocks;
  return { q: new ChainQueries({ ...ports, models, blocks }), seen };
}

/** `n` transfers from A(1) to A(2), `perBlock` to a block; answers their hashes, oldest first. */
async function history(c: TestChain, n: number, perBlock: number): Promise<string[]> {
  const hashes: string[] = [];
  for (let i = 0; i < n; i++) {
    const tx = c.transfer(1, A(2), 1n);
    await c.node.submitTx(tx);
    hashes.push(tx.hash as string);
    if (hashes.length % perBlock === 0) await c.produce();
  }
  if (n % perBlock) await c.produce();
  return hashes;
}

test('a page deep in a long history reads as many rows as a page at its head: one per block it touches, each block once', async () => {
  const c = await openTestChain();
  try {
    const hashes = (await history(c, 400, 50)).reverse();
    const { q, seen } = counting(c);
    for (const offset of [0, 150, 390]) {
      seen.rows = 0;
      seen.blocks = 0;
      const page = await q.addressTxs(A(1), 10, offset);
      assert.deepEqual(
        page.txs.map((x) => x.hash),
        hashes.slice(offset, offset + 10),
      );
      assert.equal(seen.rows, 1, `rows read at offset ${offset} (the address's transactions in a block are one row)`);
      assert.equal(seen.blocks, 1, `blocks read at offset ${offset}`);
    }
    seen.rows = 0;
    const account = await q.accountRecord(A(2));
    assert.deepEqual(
      account.recentTxs.map((x) => x.hash),
      hashes.slice(0, 50),
    );
    assert.equal(seen.rows, 1, 'the account record reads the rows of its 50 transactions (one block), not the history');
    assert.deepEqual((await q.addressTxs(A(1), 10, 400)).txs, []);
    assert.deepEqual(await q.addressTxs(A(3), 10, 0), { txs: [], nextCursor: null, total: 0 });
  } finally {
    await c.destroy();
  }
});

test('cursor pages cover the history once, newest first, and do not shift when new transactions arrive', async () => {
  const c = await openTestChain();
  try {
    const hashes = (await history(c, 45, 7)).reverse();
    const got: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await c.app.request(`/api/address/${A(1)}/txs?limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      const page = (await res.json()) as { count: number; txs: { hash: string }[]; nextCursor: string | null };
      got.push(...page.txs.map((x) => x.hash));
      pages++;
      // Newer transactions land between pages: a cursor page is unaffected.
      if (pages === 2) await history(c, 3, 3);
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    assert.deepEqual(got, hashes);
    assert.equal(pages, 5);
    const bad = await c.app.request(`/api/address/${A(1)}/txs?cursor=3&offset=2`);
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { code: string }).code, 'INVALID_PARAMS');
    for (const q of ['cursor=-1', 'cursor=x', 'cursor=1.5'])
      assert.equal((await c.app.request(`/api/address/${A(1)}/txs?${q}`)).status, 400, q);
  } finally {
    await c.destroy();
  }
});

test('the history counts survive a restart and a reorganisation (restored from their rows)', async () => {
  const a = await openTestChain();
  const b = await openTestChain();
  try {
    await history(a, 5, 5);
    b.advance(b.genesis.blockTimeMs * 3);
    await b.produce(1);
    const bHashes = (await history(b, 4, 2)).reverse();
    a.advance(Math.max(0, b.now() - a.now()));
    await a.node.reorg(0, await b.node.store.blocksIn(1, b.node.head().index));
    const after = await a.queries.addressTxs(A(1), 100, 0);
    assert.deepEqual(
      after.txs.map((x) => x.hash),
      bHashes,
    );
    const again = await openTestChain({ dir: (await a.close(), a.dir) });
    try {
      await history(again, 1, 1);
      const page = await again.queries.addressTxs(A(1), 100, 0);
      // Every transaction A(1) sent, once (the old branch's last one may have come back from the mempool).
      assert.equal(page.txs.length, (await again.queries.account(A(1))).nonce, 'numbering continued after the restart');
      assert.ok(page.txs.length > bHashes.length);
      assert.deepEqual(
        page.txs.slice(-bHashes.length).map((x) => x.hash),
        bHashes,
      );
      assert.equal(new Set(page.txs.map((x) => x.hash)).size, page.txs.length);
    } finally {
      await again.destroy();
    }
  } finally {
    await a.destroy().catch(() => undefined);
    await b.destroy();
  }
});
