/**
 * The content store: the bytes of chunked uploads (social blobs, drive files), one row per chunk
 * as it landed in a block, `<namespace>:<id>:<index, 6 digits>` -> the chunk's base64, and beside
 * it `size:<namespace>:<id>:<index, 6 digits>` -> its decoded length, so a byte range finds the
 * chunks it needs from the small rows and reads only those (queries/contentQueries.ts). Built from
 * the chunk transactions of every namespace in core/tx/registry.ts's CHUNK_STORES, so `replay`
 * rebuilds it; an upload that expires or is deleted has its rows deleted. A refused transaction never reaches a
 * block, so nothing of it is stored. Readers serve an upload only once its header (consensus
 * state) says `complete` (queries/contentQueries.ts).
 */
import type { ChunkStore } from '../core/chunkStore.ts';
import { base64Length } from '../core/upload.ts';
import { recordMap } from '../core/state.ts';
import { CHUNK_STORES } from '../core/tx/registry.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { rowGroup } from './rows.ts';

/** The digits of a chunk's index in its keys: one upload's chunks sort by index. */
const chunkIndex = (index: number): string => index.toString().padStart(6, '0');
/** `<namespace>:<id>:<index, 6 digits>` -> a chunk's base64. */
export const chunkRows = rowGroup<string, [namespace: string, id: string], number>(([namespace, id]) => `${namespace}:${id}:`, chunkIndex);
/** `size:<namespace>:<id>:<index, 6 digits>` -> the decoded length of that chunk. */
export const chunkSizeRows = rowGroup<number, [namespace: string, id: string], number>(
  ([namespace, id]) => `size:${namespace}:${id}:`,
  chunkIndex,
);

/** The content store over the given namespaces (the node's: every registered one). */
function contentProjectionOf(stores: readonly ChunkStore[]): Projection<null> {
  return {
    name: 'content',
    // 2: the size rows.
    version: 2,
    init: () => null,
    apply(state, ev: BlockEvent) {
      const ops: KvOp[] = [];
      for (const tx of ev.txs) {
        for (const store of stores) {
          const c = store.chunkOf(tx);
          if (!c) continue;
          const upload: [string, string] = [store.namespace, c.id];
          ops.push(chunkRows.put(upload, c.index, c.data), chunkSizeRows.put(upload, c.index, base64Length(c.data)));
        }
      }
      for (const store of stores) {
        for (const u of recordMap(ev.diff.records, store.UPLOADS).values()) {
          if (u.status !== 'expired' && u.status !== 'deleted') continue;
          const upload: [string, string] = [store.namespace, u.id];
          for (let i = 0; i < u.totalChunks; i++) ops.push(chunkRows.del(upload, i), chunkSizeRows.del(upload, i));
        }
      }
      return { state, ops };
    },
  };
}

/** The node's content store. */
export const contentProjection = contentProjectionOf(CHUNK_STORES);
