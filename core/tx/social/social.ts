/**
 * The social family: blobs (socialBlob.ts), posts, profiles, reactions and direct messages
 * (socialPost.ts), follows and funded likes (socialLike.ts). SOCIAL_LIKE_INTENT and SOCIAL_BLOB
 * are the spec's; the others are the live network's documented types, in its order.
 */
import type { TxState } from '../../txState.ts';
import { defineFamily } from '../family.ts';
import type { TxContext } from '../handler.ts';
import { likeParts } from './socialLike.ts';
import { BLOBS, blobHandlers } from './socialBlob.ts';
import { DM_IDS, LIKERS, POSTS, postHandlers } from './socialPost.ts';

export { BLOBS } from './socialBlob.ts';
export { LIKE_CAPS, SOCIAL_FOLLOW_SET } from './socialLike.ts';
export { SOCIAL_DM_SEND, SOCIAL_POST_CREATE, SOCIAL_PROFILE_SET, SOCIAL_REACTION_SET } from './socialPost.ts';

/** Social types, the spec's two first. */
export const socialFamily = defineFamily({
  name: 'social',
  handlers: [
    likeParts.like,
    blobHandlers.blob,
    postHandlers.profile,
    likeParts.follow,
    postHandlers.post,
    postHandlers.reaction,
    postHandlers.dm,
    blobHandlers.init,
    blobHandlers.chunk,
    blobHandlers.finalize,
  ],
  records: [...BLOBS.records, POSTS, LIKERS, DM_IDS, ...likeParts.records],
  chunkStores: [BLOBS],
  beginBlock: {
    doc: 'Pending like intents whose expiresAt has come are refunded from escrow to their liker, oldest first; a blob still incomplete a day after its first transaction expires and its pending chunks leave the state.',
    run(s: TxState, ctx: TxContext) {
      likeParts.expire(s, ctx);
      BLOBS.expire(s, ctx);
    },
  },
});
