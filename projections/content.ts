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
import type { ChunkStore } from '../core/chunks.ts';
import { base64Length } from '../core/upload.ts';
import { recordMap } from '../core/state.ts';
import { CHUNK_STORES } from '../core/tx/registry.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';

/** Row key of chunk `index` of upload `id` in `namespace`; keys of one upload sort by index. */
export function contentKey(namespace: string, id: string, index: number): string {
  return `${namespace}:${id}:${index.toString().padStart(6, '0')}`;
}

/** Row key of the decoded length of chunk `index` of upload `id` in `namespace`. */
export function contentSizeKey(namespace: string, id: string, index: number): string {
  return `size:${contentKey(namespace, id, index)}`;
}

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
          ops.push({ type: 'put', key: contentKey(store.namespace, c.id, c.index), value: c.data });
          ops.push({ type: 'put', key: contentSizeKey(store.namespace, c.id, c.index), value: base64Length(c.data) });
        }
      }
      for (const store of stores) {
        for (const u of recordMap(ev.diff.records, store.UPLOADS).values()) {
          if (u.status !== 'expired' && u.status !== 'deleted') continue;
          for (let i = 0; i < u.totalChunks; i++)
            ops.push(
              { type: 'del', key: contentKey(store.namespace, u.id, i) },
              { type: 'del', key: contentSizeKey(store.namespace, u.id, i) },
            );
        }
      }
      return { state, ops };
    },
  };
}

/** The node's content store. */
export const contentProjection = contentProjectionOf(CHUNK_STORES);
