/**
 * Social blobs: the spec's self-describing SOCIAL_BLOB chunk and the live network's three-step
 * SOCIAL_BLOB_INIT / SOCIAL_BLOB_CHUNK / SOCIAL_BLOB_FINALIZE build one blob store (core/chunks.ts,
 * namespace `blob`). A blobId (64 hex, the uploader's choice) belongs to its first uploader.
 */
import { defineChunkStore, type ChunkRef, type UploadHeader } from '../../chunks.ts';
import { checkClaimFee } from '../../claimFee.ts';
import { ChainError } from '../../errors.ts';
import { describeMedia } from '../../media/mediaFacts.ts';
import { f, defineTx } from '../../schema.ts';
import { feeOf, isTx, payFee, txHandler, type SignedTx } from '../handler.ts';

/** Most decoded bytes in one chunk (400,000, so a chunk transaction stays far below a block's 3 MiB). */
const BLOB_MAX_CHUNK_BYTES = 400_000;
/** Most chunks of one blob. */
const BLOB_MAX_CHUNKS = 1_000;
/** Largest blob. */
const BLOB_MAX_BYTES = 50_000_000;
/** Most bytes one account's pending (incomplete) blobs may declare at once: 64 MiB. */
export const BLOB_MAX_PENDING_BYTES = 64 * 1024 * 1024;
/** A blob still incomplete this long after its first transaction expires (chunks dropped): one day. */
export const BLOB_EXPIRY_MS = 86_400_000;

const common = { fee: f.amount(), nonce: f.uint(), timestamp: f.uint() };
const mime = () => f.pattern(/^[a-z0-9.+-]{1,64}\/[a-z0-9.+-]{1,64}$/, 'a MIME type `type/subtype` (lowercase, each part at most 64)');
const chunkData = () => f.base64(BLOB_MAX_CHUNK_BYTES, 1);
const header = {
  blobId: f.hex(64),
  contentType: mime(),
  totalBytes: f.uint(BLOB_MAX_BYTES, 1),
  totalChunks: f.uint(BLOB_MAX_CHUNKS, 1),
};

export const SOCIAL_BLOB = defineTx({
  type: 'SOCIAL_BLOB',
  family: 'social',
  fork: 1,
  doc: 'One self-describing chunk of a blob, repeating its header. Chunks land in any order and blocks, all from one uploader; the chunk that completes the blob is refused unless the bytes are totalBytes long with SHA-256 contentHash. From fork 7 the chunk that starts a blob claims its id and pays at least 1,000 micro-units.',
  fields: {
    from: f.address(),
    ...header,
    chunkIndex: f.uint(BLOB_MAX_CHUNKS - 1),
    contentHash: f.hex(64),
    chunkDataBase64: chunkData(),
    ...common,
  },
  moneyFlow: '`fee` moves from `from` to the block proposer.',
});

export const SOCIAL_BLOB_INIT = defineTx({
  type: 'SOCIAL_BLOB_INIT',
  family: 'social',
  fork: 1,
  doc: "Starts a blob upload (the live network's three-step form); its bytes count against the uploader's pending cap (64 MiB) until it completes or expires a day later. From fork 7 it claims the blob id and pays at least 1,000 micro-units.",
  fields: { from: f.address(), ...header, contentHash: f.hex(64), ...common },
  moneyFlow: '`fee` moves from `from` to the block proposer.',
});

const SOCIAL_BLOB_CHUNK = defineTx({
  type: 'SOCIAL_BLOB_CHUNK',
  family: 'social',
  fork: 1,
  doc: 'One chunk of a blob started by SOCIAL_BLOB_INIT (or SOCIAL_BLOB), 1..400,000 bytes, any order.',
  fields: { from: f.address(), blobId: f.hex(64), chunkIndex: f.uint(BLOB_MAX_CHUNKS - 1), chunkDataBase64: chunkData(), ...common },
  moneyFlow: '`fee` moves from `from` to the block proposer.',
});

const SOCIAL_BLOB_FINALIZE = defineTx({
  type: 'SOCIAL_BLOB_FINALIZE',
  family: 'social',
  fork: 1,
  doc: 'Completes a blob once every chunk landed: refused unless its bytes are totalBytes long with SHA-256 contentHash.',
  fields: { from: f.address(), blobId: f.hex(64), ...common },
  moneyFlow: '`fee` moves from `from` to the block proposer.',
});

/** The chunk a transaction carries into the blob store, if any. */
function blobChunkOf(tx: SignedTx): ChunkRef | undefined {
  if (isTx(tx, SOCIAL_BLOB) || isTx(tx, SOCIAL_BLOB_CHUNK)) return chunkIn(tx);
  return undefined;
}

/** The chunk of a SOCIAL_BLOB or SOCIAL_BLOB_CHUNK (both carry one). */
function chunkIn(tx: { blobId: string; chunkIndex: number; chunkDataBase64: string }): ChunkRef {
  return { id: tx.blobId, index: tx.chunkIndex, data: tx.chunkDataBase64 };
}

/** The blob store: `b:<blobId>` headers, `bc:<blobId>:<index>` pending chunks, `bp:<address>` pending bytes. */
export const BLOBS = defineChunkStore({
  namespace: 'blob',
  uploads: 'blobs',
  chunks: 'blobChunks',
  pending: 'blobPending',
  prefixes: { uploads: 'b', chunks: 'bc', pending: 'bp' },
  noun: 'blob',
  idField: 'blobId',
  limits: {
    maxChunkBytes: BLOB_MAX_CHUNK_BYTES,
    maxChunks: BLOB_MAX_CHUNKS,
    maxTotalBytes: BLOB_MAX_BYTES,
    maxPendingBytes: BLOB_MAX_PENDING_BYTES,
    expiryMs: BLOB_EXPIRY_MS,
  },
  chunkOf: blobChunkOf,
  describe: describeMedia,
});

const headerOf = (tx: {
  blobId: string;
  contentType: string;
  totalBytes: number;
  totalChunks: number;
  contentHash: string;
}): UploadHeader => ({
  id: tx.blobId,
  contentType: tx.contentType,
  totalBytes: tx.totalBytes,
  totalChunks: tx.totalChunks,
  contentHash: tx.contentHash,
});

const sameHeader = (a: UploadHeader, b: UploadHeader) =>
  a.contentType === b.contentType && a.totalBytes === b.totalBytes && a.totalChunks === b.totalChunks && a.contentHash === b.contentHash;

const blob = txHandler(SOCIAL_BLOB, {
  check(tx, state, ctx) {
    const h = headerOf(tx);
    const existing = BLOBS.checkStart(state, tx.from, h);
    // The chunk that starts a blob claims its id.
    if (!existing) checkClaimFee(tx, ctx);
    if (existing && !sameHeader(existing, h))
      throw new ChainError('VALIDATION_FAILED', `blob ${tx.blobId} was started with another header`);
    const upload = existing ?? {
      ...h,
      owner: tx.from,
      status: 'pending' as const,
      received: 0,
      receivedBytes: 0,
      createdAt: ctx.timestamp,
      blockIndex: ctx.height,
      txHash: tx.hash,
    };
    const chunk = chunkIn(tx);
    BLOBS.checkChunk(state, tx.from, chunk, upload);
    if (upload.received + 1 === upload.totalChunks) BLOBS.checkComplete(state, upload, chunk, ctx);
  },
  apply(tx, s, ctx) {
    if (!s.get(BLOBS.UPLOADS, tx.blobId)) BLOBS.start(s, tx.from, headerOf(tx), ctx, tx.hash);
    const u = BLOBS.putChunk(s, chunkIn(tx));
    if (u.received === u.totalChunks) BLOBS.complete(s, tx.blobId, ctx);
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

const init = txHandler(SOCIAL_BLOB_INIT, {
  check(tx, state) {
    if (BLOBS.checkStart(state, tx.from, headerOf(tx))) throw new ChainError('VALIDATION_FAILED', `blob ${tx.blobId} was already started`);
  },
  apply(tx, s, ctx) {
    BLOBS.start(s, tx.from, headerOf(tx), ctx, tx.hash);
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

const chunk = txHandler(SOCIAL_BLOB_CHUNK, {
  check: (tx, state) => BLOBS.checkChunk(state, tx.from, chunkIn(tx)),
  apply(tx, s, ctx) {
    BLOBS.putChunk(s, chunkIn(tx));
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

const finalize = txHandler(SOCIAL_BLOB_FINALIZE, {
  check(tx, state, ctx) {
    const u = state.get(BLOBS.UPLOADS, tx.blobId);
    if (!u) throw new ChainError('VALIDATION_FAILED', `blob ${tx.blobId} was not started`);
    if (u.owner !== tx.from) throw new ChainError('VALIDATION_FAILED', `blob ${tx.blobId} belongs to ${u.owner}`);
    BLOBS.checkComplete(state, u, undefined, ctx);
  },
  apply(tx, s, ctx) {
    BLOBS.complete(s, tx.blobId, ctx);
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** The blob types' handlers, in the reference's order. */
export const blobHandlers = { blob, init, chunk, finalize };
