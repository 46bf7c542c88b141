/**
 * The content store: the bytes of chunked uploads (social blobs, drive files), one row per chunk
 * as it landed in a block, `<namespace>:<id>:<index, 6 digits>` -> the chunk's base64. Built from
 * the chunk transactions of every namespace in core/tx/registry.ts's CHUNK_STORES, so `replay`
 * rebuilds it; an upload that expires or is deleted has its rows deleted. A refused transaction never reaches a
 * block, so nothing of it is stored. Readers serve an upload only once its header (consensus
 * state) says `complete` (queries/contentQueries.ts).
 */
import type { ChunkStore } from '../core/chunks.ts';
import { recordMap } from '../core/state.ts';
import { CHUNK_STORES } from '../core/tx/registry.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { rowGroup } from './rows.ts';

/** `<namespace>:<id>:<index, 6 digits>` -> a chunk's base64: one upload's chunks sort by index. */
export const chunkRows = rowGroup<string, [namespace: string, id: string], number>(
  ([namespace, id]) => `${namespace}:${id}:`,
  (index) => index.toString().padStart(6, '0'),
);

/** The content store over the given namespaces (the node's: every registered one). */
export function contentProjectionOf(stores: readonly ChunkStore[]): Projection<null> {
  return {
    name: 'content',
    version: 1,
    init: () => null,
    apply(state, ev: BlockEvent) {
      const ops: KvOp[] = [];
      for (const tx of ev.block.transactions) {
        for (const store of stores) {
          const c = store.chunkOf(tx);
          if (c) ops.push(chunkRows.put([store.namespace, c.id], c.index, c.data));
        }
      }
      for (const store of stores) {
        for (const u of recordMap(ev.diff.records, store.UPLOADS).values()) {
          if (u.status !== 'expired' && u.status !== 'deleted') continue;
          for (let i = 0; i < u.totalChunks; i++) ops.push(chunkRows.del([store.namespace, u.id], i));
        }
      }
      return { state, ops };
    },
  };
}

/** The node's content store. */
export const contentProjection = contentProjectionOf(CHUNK_STORES);
