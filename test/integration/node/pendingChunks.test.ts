/** Pending upload chunks live on disk: after their block the node's heap holds none of them, and completion reads them back. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BLOBS } from '../../../core/tx/social/socialBlob.ts';
import { ContentQueries } from '../../../queries/contentQueries.ts';
import { blobChunkTx, bytesOf, testBlob } from '../../helpers/blobKit.ts';
import { FILES } from '../../../core/tx/web/webFiles.ts';
import { accepted, siteFile } from '../../helpers/webKit.ts';
import { DEV_KEYS, openTestChain } from '../../helpers/testChain.ts';

test('landed chunks of pending blobs are rows on disk, not records in memory, and the blob still completes byte for byte', async () => {
  const c = await openTestChain();
  try {
    const blobs = [1, 2, 3].map((i) => testBlob(bytesOf(6 * 50_000, `pending${i}`), 50_000));
    // Every chunk but the last of three blobs from three senders.
    for (const [k, b] of blobs.entries())
      for (let i = 0; i < b.totalChunks - 1; i++) await c.node.submitTx(blobChunkTx(DEV_KEYS[k + 1], b, i, i));
    await c.produce();
    const state = c.node.state();
    for (const b of blobs) assert.equal(state.records.blobs.get(b.blobId)?.received, 5);
    assert.equal(state.records.blobChunks.size, 0, 'no pending chunk is held in memory');
    for (const [k, b] of blobs.entries()) await c.node.submitTx(blobChunkTx(DEV_KEYS[k + 1], b, b.totalChunks - 1, b.totalChunks - 1));
    await c.produce();
    const content = new ContentQueries(c.node.readPorts());
    for (const [k, b] of blobs.entries()) {
      assert.equal(c.node.state().records.blobs.get(b.blobId)?.status, 'complete');
      assert.deepEqual(new Uint8Array((await content.read(BLOBS, b.blobId))!), bytesOf(6 * 50_000, `pending${k + 1}`));
    }
    assert.equal(c.node.state().records.blobChunks.size, 0);
  } finally {
    await c.destroy();
  }
});

test('drive file chunks follow the same path: none in memory while the file is pending, complete byte for byte after FINALIZE', async () => {
  const c = await openTestChain();
  try {
    // The dev authority (key 0) earns 4096 bytes of storage a block.
    await c.produce(2);
    await accepted(c, 0, { type: 'WEB_SITE_REGISTER', siteId: 'pending-site', name: 'p' });
    await c.produce();
    const file = siteFile('pending-site', '/a.bin', Buffer.from(bytesOf(5000, 'drive')), 1000);
    const { totalBytes, totalChunks, contentHash } = file;
    await accepted(c, 0, {
      type: 'WEB_FILE_INIT',
      siteId: 'pending-site',
      path: '/a.bin',
      contentType: 'application/octet-stream',
      totalBytes,
      totalChunks,
      contentHash,
    });
    await c.produce();
    for (let k = 0; k < totalChunks; k++)
      await accepted(c, 0, { type: 'WEB_FILE_CHUNK', fileId: file.fileId, chunkIndex: k, dataBase64: file.chunks[k] });
    await c.produce();
    assert.equal(c.node.state().records.webUploads.get(file.fileId)?.received, totalChunks);
    assert.equal(c.node.state().records.webChunks.size, 0, 'no pending file chunk is held in memory');
    await accepted(c, 0, { type: 'WEB_FILE_FINALIZE', fileId: file.fileId });
    await c.produce();
    assert.equal(c.node.state().records.webUploads.get(file.fileId)?.status, 'complete');
    const content = new ContentQueries(c.node.readPorts());
    assert.ok((await content.read(FILES, file.fileId))!.equals(file.bytes));
  } finally {
    await c.destroy();
  }
});
