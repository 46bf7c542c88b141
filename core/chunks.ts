/**
 * Chunked uploads, generic over a namespace: the consensus bookkeeping of content that arrives in
 * chunks, in any order and in any blocks (social blobs, web drive files).
 *
 * State per namespace (three record kinds, declared by the family that owns the namespace):
 * - an upload header (`<uploads>` kind): what the uploader declared (content type, total bytes,
 *   total chunks, SHA-256) and how far it got; it stays forever, closed as `complete`, `expired`
 *   or `deleted` (`discard`: the bytes go, a later `start` may reopen the id);
 * - one record per landed chunk (`<chunks>` kind, id `<uploadId>:<index>`, the chunk's base64)
 *   while the upload is pending: completion needs every byte to check the hash, chunks come in any
 *   order, so they wait in state, each as its own entry (a chunk never re-serialises the others).
 *   They are removed from state (StateOverlay.remove) when the upload completes or expires. The
 *   kind's `cacheCap` is 0: a node's bounded record cache keeps none in the heap after the block
 *   that landed it, they are rows on disk read back when the upload completes;
 * - per uploader, the bytes its pending uploads declared (`<pending>` kind), capped by
 *   `maxPendingBytes`: the consensus state never holds more than that of one account's chunks,
 *   and an upload that does not complete within `expiryMs` of its start expires (chunks dropped).
 * The bytes themselves are served from the content store the `content` projection builds from the
 * chunk transactions in blocks (projections/content.ts), so `replay` rebuilds it.
 *
 * How a family uses it (see core/tx/social/socialBlob.ts):
 *   1. `export const FILES = defineChunkStore({namespace: 'file', uploads: 'files', chunks:
 *      'fileChunks', pending: 'filePending', prefixes: {...}, noun: 'file', limits: {...},
 *      chunkOf: (tx) => isTx(tx, WEB_FILE_CHUNK) ? {id: tx.fileId, index: tx.chunkIndex, data: tx.dataBase64} : undefined})`;
 *   2. list `...FILES.records` in the family's `records` and `FILES` in its `chunkStores`, and call
 *      `FILES.expire(s, ctx)` from its beginBlock hook;
 *   3. in the type handlers: `checkStart`/`start` for the header (INIT), `checkChunk`/`putChunk`
 *      for a chunk, `checkComplete`/`complete` when all chunks landed (FINALIZE, or the last chunk);
 *   4. read the bytes with ContentQueries (queries/contentQueries.ts); uploaders cut content with
 *      chunkContent (core/upload.ts).
 * Every check throws ChainError VALIDATION_FAILED and changes nothing; every effect runs only after
 * its check passed on the same overlay.
 */
import type { ChunkStore, ChunkStoreOptions } from './chunkStore.ts';
import { present, refuse, refuseUnless } from './errors.ts';
import { base64Length, type PendingBytes, type PendingChunk, type Upload } from './upload.ts';
import { createHash } from 'node:crypto';
import { defineRecord } from './record.ts';
import type { TxState } from './txState.ts';
import { hashChunks } from './uploadHashes.ts';
import type { StateReader } from './tx/handler.ts';

export type { ChunkRef, Upload, UploadHeader } from './upload.ts';

/** The state id of chunk `index` of upload `id`. */
export function chunkKey(id: string, index: number): string {
  return `${id}:${index}`;
}

/** Declares a namespace of chunked uploads (see the module comment). */
export function defineChunkStore<const U extends string, const C extends string, const P extends string>(
  o: ChunkStoreOptions<U, C, P>,
): ChunkStore<U, C, P> {
  const { noun, limits } = o;
  const UPLOADS = defineRecord<Upload>()(o.uploads, {
    prefix: o.prefixes.uploads,
    id: o.idField,
    doc: `${noun} upload`,
    isOpen: (u) => u.status === 'pending',
  });
  const CHUNKS = defineRecord<PendingChunk>()(o.chunks, {
    prefix: o.prefixes.chunks,
    id: `${o.idField}:chunkIndex`,
    doc: `pending ${noun} chunk`,
    // Up to 400 KB each and read only when their upload completes: a bounded cache keeps none in
    // memory (they are rows on disk, read back on a miss), so pending uploads cost the heap nothing.
    cacheCap: 0,
  });
  const PENDING = defineRecord<PendingBytes>()(o.pending, { prefix: o.prefixes.pending, id: 'address', doc: `pending ${noun} bytes` });

  const reserve = (s: TxState, owner: string, delta: number): void => {
    const bytes = (s.get(PENDING, owner)?.bytes ?? 0) + delta;
    if (bytes === 0) s.remove(PENDING, owner);
    else s.put(PENDING, owner, { address: owner, bytes });
  };
  /** The bytes of an upload whose every chunk is in state (after its completion was checked). */
  const assemble = (state: StateReader, u: Readonly<Upload>): Buffer => {
    const parts: Buffer[] = [];
    for (let i = 0; i < u.totalChunks; i++) {
      const data = state.get(CHUNKS, chunkKey(u.id, i))?.data;
      if (data === undefined) refuse(`${noun} ${u.id} is missing chunk ${i} of ${u.totalChunks}`);
      parts.push(Buffer.from(data, 'base64'));
    }
    return Buffer.concat(parts);
  };
  const dropChunks = (s: TxState, u: Readonly<Upload>): void => {
    for (let i = 0; i < u.totalChunks; i++) if (s.get(CHUNKS, chunkKey(u.id, i))) s.remove(CHUNKS, chunkKey(u.id, i));
  };

  return {
    namespace: o.namespace,
    noun,
    limits,
    UPLOADS,
    CHUNKS,
    PENDING,
    records: [UPLOADS, CHUNKS, PENDING],
    chunkOf: o.chunkOf,

    checkStart(state, from, h) {
      if (h.totalBytes < 1 || h.totalBytes > limits.maxTotalBytes) refuse(`totalBytes must be 1..${limits.maxTotalBytes}`);
      if (h.totalChunks < 1 || h.totalChunks > limits.maxChunks) refuse(`totalChunks must be 1..${limits.maxChunks}`);
      if (h.totalChunks > h.totalBytes) refuse(`totalChunks ${h.totalChunks} exceeds totalBytes ${h.totalBytes} (chunks are never empty)`);
      if (h.totalBytes > h.totalChunks * limits.maxChunkBytes)
        refuse(`${h.totalChunks} chunks of at most ${limits.maxChunkBytes} bytes cannot hold ${h.totalBytes} bytes`);
      const existing = state.get(UPLOADS, h.id);
      if (existing) {
        if (existing.owner !== from) refuse(`${noun} ${h.id} belongs to ${existing.owner}`);
        return existing;
      }
      this.checkPendingRoom(state, from, h.totalBytes);
      return undefined;
    },

    checkPendingRoom(state, from, bytes) {
      const pending = state.get(PENDING, from)?.bytes ?? 0;
      if (pending + bytes > limits.maxPendingBytes)
        refuse(`pending uploads would declare ${pending + bytes} bytes, more than ${limits.maxPendingBytes}`);
    },

    start(s, from, h, ctx, txHash) {
      const { id, contentType, totalBytes, totalChunks, contentHash } = h;
      s.put(UPLOADS, id, {
        id,
        contentType,
        totalBytes,
        totalChunks,
        contentHash,
        owner: from,
        status: 'pending',
        received: 0,
        receivedBytes: 0,
        createdAt: ctx.timestamp,
        blockIndex: ctx.height,
        txHash,
      });
      reserve(s, from, totalBytes);
    },

    checkChunk(state, from, c, upload = state.get(UPLOADS, c.id)) {
      refuseUnless(upload, `${noun} ${c.id} was not started`);
      if (upload.owner !== from) refuse(`${noun} ${c.id} belongs to ${upload.owner}`);
      if (upload.status !== 'pending') refuse(`${noun} ${c.id} is ${upload.status}`);
      if (c.index >= upload.totalChunks) refuse(`chunkIndex ${c.index} is beyond totalChunks ${upload.totalChunks}`);
      if (state.get(CHUNKS, chunkKey(c.id, c.index))) refuse(`chunk ${c.index} of ${noun} ${c.id} already landed`);
      const n = base64Length(c.data);
      if (n < 1 || n > limits.maxChunkBytes) refuse(`a chunk holds 1..${limits.maxChunkBytes} bytes, not ${n}`);
      if (upload.receivedBytes + n > upload.totalBytes)
        refuse(`chunk ${c.index} would bring ${noun} ${c.id} to ${upload.receivedBytes + n} bytes, beyond totalBytes ${upload.totalBytes}`);
    },

    putChunk(s, c) {
      const u = present(s.get(UPLOADS, c.id), `${noun} ${c.id}`);
      s.put(CHUNKS, chunkKey(c.id, c.index), { data: c.data });
      const next = { ...u, received: u.received + 1, receivedBytes: u.receivedBytes + base64Length(c.data) };
      s.put(UPLOADS, c.id, next);
      return next;
    },

    checkComplete(state, u, last, ctx) {
      if (u.status !== 'pending') refuse(`${noun} ${u.id} is ${u.status}`);
      const read = (i: number) => state.get(CHUNKS, chunkKey(u.id, i))?.data;
      const hashes = ctx?.uploadHashes;
      // Admission hashes incrementally; blocks and revalidation hash chunk by chunk from the state (never assembled whole).
      let d: { bytes: number; sha256: string } | number;
      if (hashes) d = hashes.digest(o.namespace, u, read, ctx.timestamp, last);
      else {
        const h = createHash('sha256');
        const r = hashChunks(h, 0, u.totalChunks, read, last);
        d = r.missing ?? { bytes: r.bytes, sha256: h.digest('hex') };
      }
      if (typeof d === 'number') return refuse(`${noun} ${u.id} is missing chunk ${d} of ${u.totalChunks}`);
      try {
        if (d.bytes !== u.totalBytes) refuse(`${noun} ${u.id} holds ${d.bytes} bytes, not totalBytes ${u.totalBytes}`);
        if (d.sha256 !== u.contentHash) refuse(`${noun} ${u.id}: SHA-256 of its bytes is not contentHash ${u.contentHash}`);
      } catch (e) {
        if (hashes && ctx) hashes.failed(u.owner, ctx.timestamp);
        throw e;
      }
    },

    complete(s, id, ctx) {
      const u = present(s.get(UPLOADS, id), `${noun} ${id}`);
      const facts = o.describe?.(assemble(s, u)) ?? {};
      dropChunks(s, u);
      s.put(UPLOADS, id, { ...u, ...facts, status: 'complete', closedAt: ctx.timestamp });
      reserve(s, u.owner, -u.totalBytes);
    },

    discard(s, id, ctx) {
      const u = present(s.get(UPLOADS, id), `${noun} ${id}`);
      if (u.status === 'pending') {
        dropChunks(s, u);
        reserve(s, u.owner, -u.totalBytes);
      }
      s.put(UPLOADS, id, { ...u, status: 'deleted', closedAt: ctx.timestamp });
    },

    expire(s, ctx) {
      const expired: Upload[] = [];
      for (const id of [...s.openIds(UPLOADS)].sort()) {
        const u = s.get(UPLOADS, id);
        if (u?.status !== 'pending' || u.createdAt + limits.expiryMs > ctx.timestamp) continue;
        dropChunks(s, u);
        const closed: Upload = { ...u, status: 'expired', closedAt: ctx.timestamp };
        s.put(UPLOADS, id, closed);
        reserve(s, u.owner, -u.totalBytes);
        expired.push(closed);
      }
      return expired;
    },
  };
}
