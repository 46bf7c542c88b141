/** Blob upload transactions for tests: the self-describing and the three-step forms. */
import { chunkContent, type ChunkedContent } from '../../core/upload.ts';
import { sha256Hex } from '../../core/hash.ts';
import type { KeyPair } from '../../core/keys.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import { signTx } from '../../core/txCodec.ts';
import { DEV_GENESIS } from './coreSupport.ts';

/** Deterministic pseudo-random bytes (SHA-256 in counter mode). */
export function bytesOf(n: number, seed = 'blob'): Uint8Array {
  const out = Buffer.alloc(n);
  for (let i = 0, at = 0; at < n; i++, at += 32) Buffer.from(sha256Hex(`${seed}:${i}`), 'hex').copy(out, at);
  return new Uint8Array(out);
}

/** A blob ready to upload: its id, content type and chunks. */
export interface TestBlob extends ChunkedContent {
  blobId: string;
  contentType: string;
}

/** Cuts `bytes` into a blob of chunks of `chunkBytes`. */
export function testBlob(bytes: Uint8Array, chunkBytes: number, contentType = 'application/octet-stream', blobId?: string): TestBlob {
  const c = chunkContent(bytes, chunkBytes);
  return { ...c, contentType, blobId: blobId ?? sha256Hex(`id:${c.contentHash}`) };
}

const sign = (key: KeyPair, fields: Record<string, unknown>, nonce: number) =>
  signTx(
    { ...fields, from: key.address, fee: '10', nonce, timestamp: DEV_GENESIS.timestamp } as unknown as { type: string; from: string },
    key,
  ) as SignedTx;

/** SOCIAL_BLOB chunk `index` of `b` (header repeated), `data` overriding the chunk's bytes. */
export function blobChunkTx(key: KeyPair, b: TestBlob, index: number, nonce: number, data = b.chunks[index]): SignedTx {
  const { blobId, contentType, totalBytes, totalChunks, contentHash } = b;
  return sign(
    key,
    { type: 'SOCIAL_BLOB', blobId, contentType, totalBytes, totalChunks, chunkIndex: index, contentHash, chunkDataBase64: data },
    nonce,
  );
}

/** SOCIAL_BLOB_INIT of `b`. */
export function blobInitTx(key: KeyPair, b: TestBlob, nonce: number): SignedTx {
  const { blobId, contentType, totalBytes, totalChunks, contentHash } = b;
  return sign(key, { type: 'SOCIAL_BLOB_INIT', blobId, contentType, totalBytes, totalChunks, contentHash }, nonce);
}

/** SOCIAL_BLOB_CHUNK `index` of `b`. */
export function blobPartTx(key: KeyPair, b: TestBlob, index: number, nonce: number, data = b.chunks[index]): SignedTx {
  return sign(key, { type: 'SOCIAL_BLOB_CHUNK', blobId: b.blobId, chunkIndex: index, chunkDataBase64: data }, nonce);
}

/** SOCIAL_BLOB_FINALIZE of `b`. */
export function blobFinalizeTx(key: KeyPair, b: TestBlob, nonce: number): SignedTx {
  return sign(key, { type: 'SOCIAL_BLOB_FINALIZE', blobId: b.blobId }, nonce);
}
