/** Byte ranges of stored content read only the chunks they return. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BLOBS } from '../../../core/tx/social/socialBlob.ts';
import type { ReadPorts } from '../../../node/ports.ts';
import { contentProjection } from '../../../projections/content.ts';
import type { Rows } from '../../../projections/store.ts';
import { ContentQueries } from '../../../queries/contentQueries.ts';
import { blobChunkTx, bytesOf, testBlob } from '../../helpers/blobKit.ts';
import { createApp } from '../../../api/app.ts';
import { createQueries } from '../../../queries/index.ts';
import { DEV_KEYS, openTestChain, testApiDeps } from '../../helpers/testChain.ts';

/** Read ports whose content rows count the chunk rows (base64 strings) they hand out. */
function counting(ports: ReadPorts): { ports: ReadPorts; read: { chunks: number } } {
  const read = { chunks: 0 };
  const tally = (v: unknown) => {
    if (typeof v === 'string') read.chunks++;
    return v;
  };
  const wrap = (rows: Rows): Rows =>
    new Proxy(rows, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target);
        if (prop === 'values')
          return (opts: object) => {
            const it = (v as (o: object) => AsyncIterable<unknown>).call(target, opts);
            return (async function* () {
              for await (const x of it) yield tally(x);
            })();
          };
        if (prop === 'get') return async (k: string) => tally(await (v as (k: string) => Promise<unknown>).call(target, k));
        if (prop === 'getMany')
          return async (ks: string[]) => ((await (v as (k: string[]) => Promise<unknown[]>).call(target, ks)) as unknown[]).map(tally);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  const models = {
    ...ports.models,
    readable: async (p: never) => {
      const rows = await ports.models.readable(p);
      return p === (contentProjection as unknown) ? wrap(rows) : rows;
    },
  } as ReadPorts['models'];
  return { ports: { ...ports, models }, read };
}

test('GET /api/social/blob/:blobId with Range: bytes=-1 reads one chunk row, not every chunk before the last', async () => {
  const c = await openTestChain();
  try {
    const bytes = Buffer.from(bytesOf(20 * 1000, 'suffix'));
    const b = testBlob(bytes, 1000);
    for (let i = 0; i < b.totalChunks; i++) await c.node.submitTx(blobChunkTx(DEV_KEYS[1], b, i, i));
    await c.produce();
    const { ports, read } = counting(c.node.readPorts());
    const app = createApp(testApiDeps(c.node, { queries: createQueries(ports) }));
    const res = await app.request(`/api/social/blob/${b.blobId}`, { headers: { Range: 'bytes=-1' } });
    assert.equal(res.status, 206);
    assert.equal(res.headers.get('content-range'), `bytes ${bytes.length - 1}-${bytes.length - 1}/${bytes.length}`);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(-1)));
    assert.equal(read.chunks, 1, `chunk rows read for bytes=-1 of ${b.totalChunks}`);
  } finally {
    await c.destroy();
  }
});

test('a suffix range reads the last chunk only, a middle range only the chunks it spans, and both return the right bytes', async () => {
  const c = await openTestChain();
  try {
    const bytes = Buffer.from(bytesOf(40 * 1000 + 7, 'ranges'));
    const b = testBlob(bytes, 1000);
    const key = DEV_KEYS[1];
    for (let i = 0; i < b.totalChunks; i++) await c.node.submitTx(blobChunkTx(key, b, i, i));
    await c.produce();
    const { ports, read } = counting(c.node.readPorts());
    const content = new ContentQueries(ports);
    const item = (await content.served(BLOBS, b.blobId))!;
    const take = async (start: number, end: number) => {
      read.chunks = 0;
      const parts: Uint8Array[] = [];
      for await (const p of item.range!(start, end)) parts.push(p);
      return Buffer.concat(parts);
    };
    assert.ok((await take(bytes.length - 1, bytes.length - 1)).equals(bytes.subarray(-1)));
    assert.equal(read.chunks, 1, 'bytes=-1 reads the last chunk alone');
    assert.ok((await take(2500, 4499)).equals(bytes.subarray(2500, 4500)));
    assert.equal(read.chunks, 3, 'bytes 2500-4499 lie in chunks 2, 3 and 4');
    assert.ok((await take(0, 0)).equals(bytes.subarray(0, 1)));
    assert.equal(read.chunks, 1);
    assert.ok((await take(999, 1000)).equals(bytes.subarray(999, 1001)));
    assert.equal(read.chunks, 2, 'a range across a chunk boundary reads both chunks');
    assert.ok((await take(0, bytes.length - 1)).equals(bytes));
    assert.equal(read.chunks, b.totalChunks);
  } finally {
    await c.destroy();
  }
});

test('a range over chunks of uneven sizes lands on the right bytes', async () => {
  const c = await openTestChain();
  try {
    // Chunks of 700, 1, 1300 and 20 bytes: offsets cannot be guessed from one chunk size.
    const bytes = Buffer.from(bytesOf(2021, 'uneven'));
    const cuts = [0, 700, 701, 2001, 2021];
    const b = testBlob(bytes, 2021);
    b.chunks = cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end).toString('base64'));
    b.totalChunks = b.chunks.length;
    for (let i = 0; i < b.totalChunks; i++) await c.node.submitTx(blobChunkTx(DEV_KEYS[2], b, i, i));
    await c.produce();
    const content = new ContentQueries(c.node.readPorts());
    for (const [start, end] of [
      [0, 2020],
      [700, 700],
      [699, 701],
      [2001, 2020],
      [2020, 2020],
      [650, 2010],
    ]) {
      const parts: Uint8Array[] = [];
      for await (const p of (await content.served(BLOBS, b.blobId))!.range!(start, end)) parts.push(p);
      assert.ok(Buffer.concat(parts).equals(bytes.subarray(start, end + 1)), `${start}-${end}`);
    }
  } finally {
    await c.destroy();
  }
});
