/** The records of a chunked upload (core/chunks.ts) and content cut into chunks on the uploader's side. */
import { sha256Hex } from './hash.ts';
import type { MediaFacts } from './media/mediaFacts.ts';

/** What an uploader declares about the content before (or with) its chunks. */
export interface UploadHeader {
  id: string;
  contentType: string;
  totalBytes: number;
  totalChunks: number;
  contentHash: string;
}

/** An upload's header record. */
export interface Upload extends UploadHeader {
  owner: string;
  /** `deleted`: discarded by its owner's namespace (a drive file's WEB_FILE_DELETE). */
  status: 'pending' | 'complete' | 'expired' | 'deleted';
  /** Chunks and decoded bytes landed so far. */
  received: number;
  receivedBytes: number;
  createdAt: number;
  blockIndex: number;
  txHash: string;
  /** The block time it completed, expired or was deleted at. */
  closedAt?: number;
  /** Set at completion in a namespace that reads media (blobs): what the bytes' own headers say. */
  media?: MediaFacts;
  /** Set instead of `media` when the bytes start like a media file but their headers do not parse. */
  mediaProblem?: string;
}

/** What a namespace's `describe` reads from a completed upload's bytes. */
export type UploadFacts = Pick<Upload, 'media' | 'mediaProblem'>;

/** A landed chunk waiting for its upload to complete (base64, as in its transaction). */
export interface PendingChunk {
  data: string;
}

/** Bytes declared by an account's pending uploads in one namespace. */
export interface PendingBytes {
  address: string;
  bytes: number;
}

/** A chunk a transaction carries. */
export interface ChunkRef {
  id: string;
  index: number;
  /** Canonical base64 (the schema's f.base64 field checked it). */
  data: string;
}

/** Bounds of a namespace. */
export interface ChunkLimits {
  maxChunkBytes: number;
  maxChunks: number;
  maxTotalBytes: number;
  /** Most bytes an account's pending uploads may declare at once. */
  maxPendingBytes: number;
  /** An upload still pending this long after its start expires at the next block. */
  expiryMs: number;
}

/** Content cut into chunks the way an uploader sends it: header figures and each chunk's base64. */
export interface ChunkedContent {
  contentHash: string;
  totalBytes: number;
  totalChunks: number;
  chunks: string[];
}

/** Cuts `bytes` into chunks of at most `chunkBytes` (the uploader's side; wallets, tests, the simulator). */
export function chunkContent(bytes: Uint8Array, chunkBytes: number): ChunkedContent {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: string[] = [];
  for (let at = 0; at < buf.length; at += chunkBytes) chunks.push(buf.subarray(at, at + chunkBytes).toString('base64'));
  return { contentHash: sha256Hex(buf), totalBytes: buf.length, totalChunks: chunks.length, chunks };
}

/** Decoded length of canonical base64. */
export function base64Length(b64: string): number {
  return (b64.length / 4) * 3 - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);
}
