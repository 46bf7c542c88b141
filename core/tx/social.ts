/**
 * The social family: blobs (core/tx/socialBlob.ts) and funded likes. SOCIAL_BLOB and
 * SOCIAL_LIKE_INTENT are the spec's; the others are the live network's documented types.
 */
import { f, defineTx } from '../schema.ts';
import { defineFamily } from './family.ts';
import { notExecuted } from './handler.ts';
import { BLOBS, blobHandlers } from './socialBlob.ts';

export { BLOBS, SOCIAL_BLOB, SOCIAL_BLOB_CHUNK, SOCIAL_BLOB_FINALIZE, SOCIAL_BLOB_INIT } from './socialBlob.ts';

export const SOCIAL_LIKE_INTENT = defineTx({
  type: 'SOCIAL_LIKE_INTENT',
  family: 'social',
  fork: 1,
  doc: 'Queues a funded like of a post for its author; expires after likeExpiryMs (86,400,000).',
  fields: {
    from: f.address(),
    author: f.address(),
    postId: f.id(64, 1),
    tokens: f.uint(10_000, 1),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
});

/** Social types, the spec's two first, then the blob store's three-step form. */
export const socialFamily = defineFamily({
  name: 'social',
  handlers: [notExecuted(SOCIAL_LIKE_INTENT), blobHandlers.blob, blobHandlers.init, blobHandlers.chunk, blobHandlers.finalize],
  records: [...BLOBS.records],
  chunkStores: [BLOBS],
  beginBlock: {
    doc: 'A blob still incomplete a day after its first transaction expires: its pending chunks leave the state.',
    run: (s, ctx) => BLOBS.expire(s, ctx),
  },
});
