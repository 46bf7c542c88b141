/**
 * Reads of chunked uploads (social blobs, drive files): the header from the consensus state and
 * the bytes from the content store (projections/content.ts), streamed chunk by chunk so a large
 * upload is never held whole in memory by one request.
 */
import type { ChunkStore, Upload } from '../core/chunks.ts';
import { recordMap } from '../core/state.ts';
import type { ReadPorts } from '../node/ports.ts';
import { contentProjection, contentRange } from '../projections/content.ts';

/** Query facade over the content store. */
export class ContentQueries {
  private readonly ports: ReadPorts;

  constructor(ports: ReadPorts) {
    this.ports = ports;
  }

  /** An upload's header record (any status), or undefined. */
  upload(store: ChunkStore, id: string): Upload | undefined {
    return recordMap(this.ports.chain.state().records, store.UPLOADS).get(id);
  }

  /** A complete upload's header, or undefined when unknown or not complete. */
  complete(store: ChunkStore, id: string): Upload | undefined {
    const u = this.upload(store, id);
    return u?.status === 'complete' ? u : undefined;
  }

  /** The bytes of a complete upload, chunk by chunk in order (its rows are read lazily). */
  async *bytes(store: ChunkStore, id: string): AsyncGenerator<Uint8Array> {
    const rows = await this.ports.models.readable(contentProjection);
    for await (const data of rows.values(contentRange(store.namespace, id))) yield Buffer.from(data as string, 'base64');
  }

  /** The bytes of a complete upload as one buffer (for parsers and small files). */
  async read(store: ChunkStore, id: string): Promise<Buffer | undefined> {
    const u = this.complete(store, id);
    if (!u) return undefined;
    const parts: Uint8Array[] = [];
    for await (const part of this.bytes(store, id)) parts.push(part);
    return Buffer.concat(parts);
  }
}
