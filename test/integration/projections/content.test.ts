/** The content store: chunk rows from blocks, served once complete, dropped on expiry, rebuilt by replay. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BLOB_EXPIRY_MS, BLOBS } from '../../../core/tx/social/socialBlob.ts';
import { signTx } from '../../../core/txCodec.ts';
import { contentProjection } from '../../../projections/content.ts';
import { ContentQueries } from '../../../queries/contentQueries.ts';
import { bytesOf, testBlob, type TestBlob } from '../../helpers/blobKit.ts';
import { DEV_KEYS, openTestChain, type TestChain } from '../../helpers/testChain.ts';

/** Signs and submits a SOCIAL_BLOB chunk from dev key `i` at its next nonce. */
async function sendChunk(c: TestChain, i: number, b: TestBlob, index: number): Promise<void> {
  const key = DEV_KEYS[i];
  const nonce = (await c.queries.account(key.address)).nonce + c.node.mempool.pending(key.address).count;
  const { blobId, contentType, totalBytes, totalChunks, contentHash } = b;
  const tx = signTx(
    {
      type: 'SOCIAL_BLOB',
      from: key.address,
      blobId,
      contentType,
      totalBytes,
      totalChunks,
      chunkIndex: index,
      contentHash,
      chunkDataBase64: b.chunks[index],
      fee: '10',
      nonce,
      timestamp: c.now(),
    },
    key,
  );
  await c.node.submitTx(tx);
}

async function rows(c: TestChain): Promise<[string, unknown][]> {
  const out: [string, unknown][] = [];
  for await (const kv of (await c.node.runner.readable(contentProjection)).iterator()) out.push(kv as [string, unknown]);
  return out;
}

test('blob bytes come back byte-identical, an expired upload leaves no rows, and replay rebuilds the same store', async () => {
  const c = await openTestChain();
  try {
    const content = new ContentQueries(c.node.readPorts());
    const whole = testBlob(bytesOf(250_000, 'whole'), 60_000, 'image/png');
    const abandoned = testBlob(bytesOf(5_000, 'gone'), 2_000);
    await c.produce();
    for (const i of [4, 1, 3]) await sendChunk(c, 1, whole, i);
    await sendChunk(c, 2, abandoned, 1);
    await c.produce();
    assert.equal(await content.complete(BLOBS, whole.blobId), undefined, 'not served before it is complete');
    assert.equal(await content.read(BLOBS, whole.blobId), undefined);
    for (const i of [0, 2]) await sendChunk(c, 1, whole, i);
    await c.produce();
    const u = (await content.complete(BLOBS, whole.blobId))!;
    assert.deepEqual([u.contentType, u.totalBytes, u.contentHash], ['image/png', 250_000, whole.contentHash]);
    assert.deepEqual(new Uint8Array((await content.read(BLOBS, whole.blobId))!), bytesOf(250_000, 'whole'));
    assert.equal((await rows(c)).filter(([k]) => k.startsWith(`blob:${abandoned.blobId}:`)).length, 1);

    c.advance(BLOB_EXPIRY_MS);
    await c.produce();
    assert.equal((await content.upload(BLOBS, abandoned.blobId))?.status, 'expired');
    const live = await rows(c);
    assert.equal(live.filter(([k]) => k.startsWith(`blob:${abandoned.blobId}:`)).length, 0, 'expiry deletes its rows');
    assert.equal(live.filter(([k]) => k.startsWith(`size:blob:${abandoned.blobId}:`)).length, 0, 'and its size rows');
    assert.equal(live.length, 10, 'a data row and a size row per chunk of the complete blob');
    assert.deepEqual(
      live.filter(([k]) => k.startsWith('size:')).map(([, v]) => v),
      [60_000, 60_000, 60_000, 60_000, 10_000],
    );

    const headers = [...c.node.state().records.blobs.values()];
    await c.node.runner.resetAll();
    await c.node.catchUp(undefined, { verifySignatures: true });
    assert.deepEqual(await rows(c), live, 'replay rebuilds the content store row for row');
    assert.deepEqual([...c.node.state().records.blobs.values()], headers);
    assert.deepEqual(new Uint8Array((await content.read(BLOBS, whole.blobId))!), bytesOf(250_000, 'whole'));
  } finally {
    await c.destroy();
  }
});
