/**
 * The explorer's shared cache of API reads (api/explorer/apiCache.ts), over a fetch and a clock
 * of the test's own: identical reads in flight are one request; answers are kept by kind (a
 * block for minutes, lists until the next block or 8 s), refusals never; the head is answered
 * from the live stream at no request; a reorg forgets everything; the tab's fetch answers a
 * refused read with its Retry-After.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiCache, cachedFetch, type Fetcher, keepFor } from '../../../../api/explorer/apiCache.ts';

const ORIGIN = 'http://node.test';

function fakeNode(status = (_path: string) => 200) {
  const asked: string[] = [];
  let clock = 0;
  const fetcher: Fetcher = async (url) => {
    const path = new URL(url).pathname;
    asked.push(path);
    const code = status(path);
    return {
      status: code,
      text: async () => JSON.stringify({ path, n: asked.length }),
      headers: { get: (name: string) => (name === 'Retry-After' && code === 429 ? '7' : null) },
    };
  };
  return { asked, fetcher, now: () => clock, advance: (ms: number) => void (clock += ms) };
}

test('reads in flight at once are one request; answers are kept as long as their kind says', async () => {
  const n = fakeNode();
  const cache = new ApiCache(n.fetcher, n.now);
  const [a, b] = await Promise.all([cache.get(`${ORIGIN}/api/chain/blocks`), cache.get(`${ORIGIN}/api/chain/blocks`)]);
  assert.equal(a, b);
  assert.deepEqual(n.asked, ['/api/chain/blocks']);
  n.advance(7_999);
  await cache.get(`${ORIGIN}/api/chain/blocks`);
  assert.equal(n.asked.length, 1, 'a list is kept 8 s');
  n.advance(2);
  await cache.get(`${ORIGIN}/api/chain/blocks`);
  assert.equal(n.asked.length, 2, 'then read again');
  const hash = 'ab'.repeat(32);
  await cache.get(`${ORIGIN}/api/chain/block/hash/${hash}`);
  n.advance(4 * 60_000);
  await cache.get(`${ORIGIN}/api/chain/block/hash/${hash}`);
  assert.equal(n.asked.length, 3, 'a block is kept for minutes');
  assert.equal(keepFor('/api/chain/block/12'), 5 * 60_000);
  assert.equal(keepFor('/api/analytics/series'), 30_000);
  assert.equal(keepFor('/explorer/app.ts'), 0);
});

test('a block drops the lists and pending transactions, keeps blocks; the head comes from the stream', async () => {
  const n = fakeNode();
  const cache = new ApiCache(n.fetcher, n.now);
  const tx = `${ORIGIN}/api/chain/tx/${'cd'.repeat(32)}`;
  await Promise.all([cache.get(`${ORIGIN}/api/mempool`), cache.get(`${ORIGIN}/api/chain/block/5`), cache.get(tx)]);
  assert.equal(n.asked.length, 3);
  cache.onBlock({ index: 6, hash: 'ef'.repeat(32), timestamp: 123 });
  const head = await cache.get(`${ORIGIN}/api/chain/height`);
  assert.deepEqual(JSON.parse(head.body), { height: 6, latestBlock: { index: 6, hash: 'ef'.repeat(32), timestamp: 123 } });
  await Promise.all([cache.get(`${ORIGIN}/api/mempool`), cache.get(`${ORIGIN}/api/chain/block/5`), cache.get(tx)]);
  assert.deepEqual(n.asked.slice(3), ['/api/mempool'], 'the list is read again; the block and the (confirmed) transaction are kept');
  cache.onBlock({ index: 4, hash: '00'.repeat(32), timestamp: 1 });
  assert.equal(JSON.parse((await cache.get(`${ORIGIN}/api/chain/height`)).body).height, 6, 'an older block does not move the head back');
  cache.onReorg();
  await Promise.all([cache.get(`${ORIGIN}/api/chain/block/5`), cache.get(`${ORIGIN}/api/chain/height`)]);
  assert.deepEqual(n.asked.slice(4), ['/api/chain/block/5', '/api/chain/height'], 'a reorg forgets everything, the head too');
});

test('refusals are never kept, and the tab sees them with their Retry-After', async () => {
  const n = fakeNode((path) => (path === '/api/chain/stats' ? 429 : 200));
  const cache = new ApiCache(n.fetcher, n.now);
  const refused = await cache.get(`${ORIGIN}/api/chain/stats`);
  assert.deepEqual([refused.status, refused.retryAfter], [429, '7']);
  await cache.get(`${ORIGIN}/api/chain/stats`);
  assert.equal(n.asked.length, 2);
  const logged: unknown[] = [];
  const error = console.error;
  console.error = (...a: unknown[]) => void logged.push(a);
  try {
    const res = await cachedFetch((url) => cache.get(url))(`${ORIGIN}/api/chain/stats`);
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('Retry-After'), '7');
    assert.equal(logged.length, 1, 'logged as the browser logs a failed read of its own');
  } finally {
    console.error = error;
  }
});
