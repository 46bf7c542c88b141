/**
 * Reads of chunked uploads (social blobs, drive files): the header from the consensus state and
 * the bytes from the content store (projections/content.ts), streamed chunk by chunk so a large
 * upload is never held whole in memory by one request.
 */
import type { ChunkStore } from '../core/chunkStore.ts';
import type { Upload } from '../core/chunks.ts';
import type { ReadPorts } from '../node/ports.ts';
import { chunkRows, chunkSizeRows, contentProjection } from '../projections/content.ts';
import { readRecord } from './stateReads.ts';

/** A complete upload as a route serves it. */
export interface StoredContent {
  contentType: string;
  /** Hex SHA-256 of the bytes: their strong validator. */
  contentHash: string;
  size: number;
  /** The bytes in order, read lazily. */
  bytes: AsyncGenerator<Uint8Array>;
  /**
   * The bytes [start, end] (inclusive, within the content) read lazily, reading only the chunks
   * that hold them; absent: a server slices `bytes`.
   */
  range?(start: number, end: number): AsyncGenerator<Uint8Array>;
}

/** Query facade over the content store. */
export class ContentQueries {
  private readonly ports: ReadPorts;

  constructor(ports: ReadPorts) {
    this.ports = ports;
  }

  /** An upload's header record (any status), or undefined. */
  upload(store: ChunkStore, id: string): Promise<Upload | undefined> {
    return readRecord(this.ports, store.UPLOADS, id);
  }

  /** A complete upload's header, or undefined when unknown or not complete. */
  async complete(store: ChunkStore, id: string): Promise<Upload | undefined> {
    const u = await this.upload(store, id);
    return u?.status === 'complete' ? u : undefined;
  }

  /**
   * The bytes of a complete upload, chunk by chunk in order (its rows are read lazily). Only its
   * header's chunks are read: an id reopened after a discard may have left rows beyond them.
   */
  async *bytes(store: ChunkStore, id: string): AsyncGenerator<Uint8Array> {
    const u = await this.complete(store, id);
    if (!u) return;
    const rows = await this.ports.models.readable(contentProjection);
    yield* decoded(chunkRows.values(rows, [store.namespace, id], { from: 0, through: u.totalChunks - 1 }));
  }

  /**
   * The bytes [start, end] (inclusive) of a complete upload, reading only the chunk rows that hold
   * them: the chunks' decoded lengths (small rows) place the range, so a suffix range of a large
   * upload reads its last chunk, not every one before it.
   */
  async *range(store: ChunkStore, id: string, start: number, end: number): AsyncGenerator<Uint8Array> {
    const u = await this.complete(store, id);
    if (!u || start > end) return;
    const rows = await this.ports.models.readable(contentProjection);
    const upload: [string, string] = [store.namespace, id];
    const sizes = await chunkSizeRows.getMany(
      rows,
      upload,
      Array.from({ length: u.totalChunks }, (_, i) => i),
    );
    if (!sizes.every((n) => typeof n === 'number')) {
      // Rows from before the size rows existed: read in order and cut (a replay writes them).
      yield* cut(this.bytes(store, id), 0, start, end);
      return;
    }
    // The chunk holding `start` and the offset it begins at, then the chunk holding `end`.
    let first = 0;
    let at = 0;
    while (first < u.totalChunks - 1 && at + sizes[first] <= start) at += sizes[first++];
    let last = first;
    for (let past = at + sizes[first]; past <= end && last < u.totalChunks - 1; ) past += sizes[++last];
    yield* cut(decoded(chunkRows.values(rows, upload, { from: first, through: last })), at, start, end);
  }

  /** A complete upload ready to serve, or undefined when unknown or not complete. */
  async served(store: ChunkStore, id: string): Promise<StoredContent | undefined> {
    const u = await this.complete(store, id);
    return (
      u && {
        contentType: u.contentType,
        contentHash: u.contentHash,
        size: u.totalBytes,
        bytes: this.bytes(store, id),
        range: (start, end) => this.range(store, id, start, end),
      }
    );
  }

  /** The bytes of a complete upload as one buffer (for parsers and small files). */
  async read(store: ChunkStore, id: string): Promise<Buffer | undefined> {
    const u = await this.complete(store, id);
    if (!u) return undefined;
    const parts: Uint8Array[] = [];
    for await (const part of this.bytes(store, id)) parts.push(part);
    return Buffer.concat(parts);
  }
}

/** Chunk rows (base64) as bytes. */
async function* decoded(rows: AsyncIterable<string>): AsyncGenerator<Uint8Array> {
  for await (const data of rows) yield Buffer.from(data, 'base64');
}

/**
 * The bytes [start, end] of `parts`, whose first part begins at offset `at`; stops reading (and
 * closes `parts`) once past `end`.
 */
export async function* cut(parts: AsyncGenerator<Uint8Array>, at: number, start: number, end: number): AsyncGenerator<Uint8Array> {
  try {
    for await (const part of parts) {
      const from = Math.max(start - at, 0);
      const to = Math.min(end + 1 - at, part.length);
      at += part.length;
      if (to > from) yield part.subarray(from, to);
      if (at > end) return;
    }
  } finally {
    await parts.return(undefined);
  }
}
