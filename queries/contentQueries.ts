/**
 * Reads of chunked uploads (social blobs, drive files): the header from the consensus state and
 * the bytes from the content store (projections/content.ts), streamed chunk by chunk so a large
 * upload is never held whole in memory by one request.
 */
import type { ChunkStore, Upload } from '../core/chunks.ts';
import type { ReadPorts } from '../node/ports.ts';
import { chunkRows, contentProjection } from '../projections/content.ts';
import { readRecord } from './stateReads.ts';

/** A complete upload as a route serves it. */
export interface StoredContent {
  contentType: string;
  /** Hex SHA-256 of the bytes: their strong validator. */
  contentHash: string;
  size: number;
  /** The bytes in order, read lazily. */
  bytes: AsyncGenerator<Uint8Array>;
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
    for await (const data of chunkRows.values(rows, [store.namespace, id], { from: 0, through: u.totalChunks - 1 }))
      yield Buffer.from(data, 'base64');
  }

  /** A complete upload ready to serve, or undefined when unknown or not complete. */
  async served(store: ChunkStore, id: string): Promise<StoredContent | undefined> {
    const u = await this.complete(store, id);
    return u && { contentType: u.contentType, contentHash: u.contentHash, size: u.totalBytes, bytes: this.bytes(store, id) };
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
