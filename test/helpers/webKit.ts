/** Drive test helpers: signed WEB_* transactions from dev keys, and a file uploaded end to end. */
import assert from 'node:assert/strict';
import { sha256Hex } from '../../core/hash.ts';
import { fileIdOf } from '../../core/tx/web/webRecords.ts';
import { signTx } from '../../core/txCodec.ts';
import { chunkContent } from '../../core/upload.ts';
import { DEV_KEYS, type TestChain } from './testChain.ts';
import { nextNonce, postTx, type Answer } from './apiSupport.ts';

/** Signs `body` from dev key `i` with its next nonce (fee 0 unless given) and posts it. */
export async function sendTx(c: TestChain, i: number, body: Record<string, unknown>): Promise<Answer> {
  const key = DEV_KEYS[i];
  const tx = signTx({ fee: '0', ...body, type: String(body.type), from: key.address, nonce: nextNonce(c, i), timestamp: c.now() }, key);
  return postTx(c, tx);
}

/** Posts and asserts acceptance. */
export async function accepted(c: TestChain, i: number, body: Record<string, unknown>): Promise<void> {
  const res = await sendTx(c, i, body);
  assert.equal(res.status, 200, `${body.type} refused: ${JSON.stringify(res.body)}`);
}

/** A local file of a site: its bytes, chunks (of `chunkBytes`) and ids. */
export function siteFile(siteId: string, path: string, text: string | Buffer, chunkBytes = 400_000) {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const content = chunkContent(bytes, chunkBytes);
  return { path, bytes, ...content, fileId: fileIdOf(siteId, path, sha256Hex(bytes)) };
}

/** INIT (one block), chunks in reverse order (one block), FINALIZE (one block): the file is complete. */
export async function upload(
  c: TestChain,
  i: number,
  siteId: string,
  file: ReturnType<typeof siteFile>,
  contentType = 'text/html',
): Promise<void> {
  const { path, totalBytes, totalChunks, contentHash } = file;
  await accepted(c, i, { type: 'WEB_FILE_INIT', siteId, path, contentType, totalBytes, totalChunks, contentHash });
  await c.produce();
  for (let k = file.chunks.length - 1; k >= 0; k--)
    await accepted(c, i, { type: 'WEB_FILE_CHUNK', fileId: file.fileId, chunkIndex: k, dataBase64: file.chunks[k] });
  await c.produce();
  await accepted(c, i, { type: 'WEB_FILE_FINALIZE', fileId: file.fileId });
  await c.produce();
}
