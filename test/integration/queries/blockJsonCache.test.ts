/** The block JSON cache serves recent blocks from memory and never serves a block a reorganisation replaced. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../../core/block.ts';
import { BlockJsonCache } from '../../../queries/blockJsonCache.ts';
import { openTestChain } from '../../helpers/testChain.ts';

test('after a reorganisation, GET /api/chain/block/:index answers the new branch, not the cached old block', async () => {
  const a = await openTestChain();
  const b = await openTestChain();
  try {
    await a.produce(2);
    const before = (await (await a.app.request('/api/chain/block/1')).json()) as { hash: string };
    assert.deepEqual(before, JSON.parse(JSON.stringify(await a.node.store.block(1))));
    b.advance(b.genesis.blockTimeMs * 3);
    await b.produce(3);
    a.advance(Math.max(0, b.now() - a.now()));
    await a.node.reorg(0, await b.node.store.blocksIn(1, 3));
    // By hash: the dropped block is gone, the new one is served (and cached) under its own hash.
    assert.equal((await a.app.request(`/api/chain/block/hash/${before.hash}`)).status, 404);
    const newHash = (await b.node.store.block(1))!.hash;
    for (let i = 0; i < 2; i++)
      assert.equal(((await (await a.app.request(`/api/chain/block/hash/${newHash}`)).json()) as { hash: string }).hash, newHash);
    const res = await a.app.request('/api/chain/block/1');
    assert.equal(res.headers.get('content-type'), 'application/json');
    const after = (await res.json()) as { hash: string };
    assert.equal(after.hash, (await b.node.store.block(1))!.hash);
    assert.notEqual(after.hash, before.hash);
  } finally {
    await a.destroy();
    await b.destroy();
  }
});

/** A fake log: blocks by height, an epoch, and a count of reads; `gate` holds reads until released. */
function fakeLog() {
  const log = {
    blocks: new Map<number, Block>(),
    epoch: 0,
    reads: 0,
    gate: null as Promise<void> | null,
    put(index: number, tag: string) {
      log.blocks.set(index, { index, hash: `${tag}${index}`.padEnd(64, '0') } as unknown as Block);
    },
  };
  const src = {
    block: async (i: number) => {
      log.reads++;
      if (log.gate) await log.gate;
      return log.blocks.get(i);
    },
    epoch: () => log.epoch,
  };
  return { log, src };
}

test('a read block is kept by height and by hash; a new epoch empties the cache', async () => {
  const { log, src } = fakeLog();
  for (let i = 0; i < 3; i++) log.put(i, 'a');
  const cache = new BlockJsonCache(src);
  assert.equal(cache.cached(1), undefined);
  const json = await cache.get(1);
  assert.equal(json, JSON.stringify(log.blocks.get(1)));
  assert.equal(await cache.get(1), json);
  assert.equal(log.reads, 1);
  assert.equal(cache.cached(1), json);
  assert.equal(cache.cachedByHash(log.blocks.get(1)!.hash), json);
  assert.equal(await cache.get(7), undefined, 'absent blocks are not cached');
  log.put(1, 'b');
  log.epoch++;
  assert.equal(cache.cached(1), undefined);
  assert.equal(cache.cachedByHash(`a1`.padEnd(64, '0')), undefined);
  assert.equal(await cache.get(1), JSON.stringify(log.blocks.get(1)));
});

test('a block read while the chain reorganised is answered but not kept', async () => {
  const { log, src } = fakeLog();
  log.put(1, 'a');
  const cache = new BlockJsonCache(src);
  let open!: () => void;
  log.gate = new Promise((r) => {
    open = r;
  });
  const reading = cache.get(1);
  // The reorganisation lands while the read waits; another reader sees the new epoch first.
  log.epoch++;
  assert.equal(cache.cached(1), undefined);
  log.put(1, 'b');
  open();
  log.gate = null;
  await reading;
  assert.equal(cache.cached(1), undefined, 'the old block was not kept under the new epoch');
  assert.equal(await cache.get(1), JSON.stringify(log.blocks.get(1)));
});

test('the cache holds at most its cap, the oldest read leaving first (by hash too)', async () => {
  const { log, src } = fakeLog();
  for (let i = 0; i < 5; i++) log.put(i, 'a');
  const cache = new BlockJsonCache(src, { maxBlocks: 3 });
  for (let i = 0; i < 5; i++) await cache.get(i);
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((i) => cache.cached(i) !== undefined),
    [false, false, true, true, true],
  );
  assert.equal(cache.cachedByHash(log.blocks.get(0)!.hash), undefined);
  assert.equal(cache.cachedByHash(log.blocks.get(4)!.hash), JSON.stringify(log.blocks.get(4)));
  const none = new BlockJsonCache(src, { maxBlocks: 0 });
  assert.equal(await none.get(1), JSON.stringify(log.blocks.get(1)));
  assert.equal(none.cached(1), undefined);
});

test('the cache is bounded in bytes: a hundred 1 MB blocks retain at most its 32 MiB, not a hundred megabytes', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // One shared megabyte in every block object; each block's JSON is a new megabyte string.
  const memo = 'm'.repeat(1024 * 1024);
  const src = { block: async (i: number) => ({ index: i, hash: `b${i}`.padEnd(64, '0'), memo }) as unknown as Block, epoch: () => 0 };
  gc();
  const before = process.memoryUsage().heapUsed;
  const cache = new BlockJsonCache(src);
  for (let i = 0; i < 100; i++) await cache.get(i);
  gc();
  const retained = process.memoryUsage().heapUsed - before;
  // Before: 100 blocks kept, 100 MB retained.
  assert.ok(retained < 40 * 1024 * 1024, `${(retained / 1048576).toFixed(0)} MiB retained`);
  assert.ok(cache.cached(99) !== undefined, 'the newest block is kept');
  assert.equal(cache.cached(0), undefined, 'the oldest left');
  // A block larger than the whole budget is answered and not kept; a two-byte string counts double.
  const small = new BlockJsonCache(src, { maxBytes: 512 * 1024 });
  assert.ok((await small.get(1))?.includes('"memo"'));
  assert.equal(small.cached(1), undefined);
  assert.equal(small.size().bytes, 0);
  const wide = {
    ...src,
    block: async (i: number) => ({ index: i, hash: `w${i}`.padEnd(64, '0'), memo: 'é€'.repeat(10) }) as unknown as Block,
  };
  const two = new BlockJsonCache(wide);
  const json = (await two.get(1)) as string;
  assert.equal(two.size().bytes, json.length * 2);
});
