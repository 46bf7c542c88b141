/**
 * The social read model, rows only, folded from each block's social transactions and the
 * consensus records they changed:
 * - `post!<postId>` -> {body, blobIds} (the rest of a post is its consensus record);
 * - `feed!<height>!<pos>` and `by!<author>!<height>!<pos>` -> postId, newest last in key order;
 * - `dm!<address>!<height>!<pos>` -> the message, for its sender and its recipient;
 * - `sub!<follower>!<target>` -> target while the follow holds;
 * - `queue!<author>!<seq>` -> intentId while the intent is pending (queue order);
 * - `like!<postId>!r!<address>` (enabled reactions) and `like!<postId>!i!<intentId>` (paid intents);
 * - `profile!<address>` -> {displayName, bio, avatarBlobId?}.
 */
import { heightKey } from '../core/encoding.ts';
import { isTx, type SignedTx } from '../core/tx/handler.ts';
import { SOCIAL_DM_SEND, SOCIAL_FOLLOW_SET, SOCIAL_POST_CREATE, SOCIAL_PROFILE_SET, SOCIAL_REACTION_SET } from '../core/tx/social.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';

/** A direct message as served (ciphertext only). */
export interface DmRecord {
  dmId: string;
  from: string;
  recipient: string;
  ciphertext: string;
  nonceHex: string;
  ephemeralPubKey: string;
  contentHash: string;
  blobIds: string[];
  timestamp: number;
  blockIndex: number;
}

/** One like of a post as served. */
export interface LikeRecord {
  address: string;
  kind: 'reaction' | 'intent';
  tokens?: number;
  timestamp: number;
}

/** `<height>!<position>`: orders rows by their place in the chain. */
const at = (blockIndex: number, position: number) => `${heightKey(blockIndex)}!${position.toString().padStart(5, '0')}`;
/** Row key of a pending intent in its author's queue. */
export const queueKey = (author: string, seq: number) => `queue!${author}!${seq.toString().padStart(12, '0')}`;

function foldTx(tx: SignedTx, blockIndex: number, position: number, ops: KvOp[]): void {
  const where = at(blockIndex, position);
  if (isTx(tx, SOCIAL_POST_CREATE)) {
    ops.push({ type: 'put', key: `post!${tx.postId}`, value: { body: tx.body, blobIds: tx.blobIds } });
    ops.push({ type: 'put', key: `feed!${where}`, value: tx.postId }, { type: 'put', key: `by!${tx.from}!${where}`, value: tx.postId });
  } else if (isTx(tx, SOCIAL_DM_SEND)) {
    const { dmId, from, recipient, ciphertext, nonceHex, ephemeralPubKey, contentHash, blobIds, timestamp } = tx;
    const value: DmRecord = { dmId, from, recipient, ciphertext, nonceHex, ephemeralPubKey, contentHash, blobIds, timestamp, blockIndex };
    for (const party of new Set([from, recipient])) ops.push({ type: 'put', key: `dm!${party}!${where}`, value });
  } else if (isTx(tx, SOCIAL_FOLLOW_SET)) {
    const key = `sub!${tx.from}!${tx.targetAddress}`;
    ops.push(tx.enabled ? { type: 'put', key, value: tx.targetAddress } : { type: 'del', key });
  } else if (isTx(tx, SOCIAL_REACTION_SET)) {
    const key = `like!${tx.targetPostId}!r!${tx.from}`;
    const value: LikeRecord = { address: tx.from, kind: 'reaction', timestamp: tx.timestamp };
    ops.push(tx.enabled ? { type: 'put', key, value } : { type: 'del', key });
  } else if (isTx(tx, SOCIAL_PROFILE_SET)) {
    const { displayName, bio, avatarBlobId } = tx;
    ops.push({ type: 'put', key: `profile!${tx.from}`, value: { displayName, bio, ...(avatarBlobId ? { avatarBlobId } : {}) } });
  }
}

/** Posts, timelines, messages, subscriptions, queues, likes and profiles. */
export const socialProjection: Projection<null> = {
  name: 'social',
  version: 1,
  init: () => null,
  apply(state, ev: BlockEvent) {
    const ops: KvOp[] = [];
    ev.block.transactions.forEach((tx, position) => {
      foldTx(tx, ev.block.index, position, ops);
    });
    // Intents change without a transaction of their own (paid by a follow, expired by time).
    for (const i of ev.diff.records.intents.values()) {
      const key = queueKey(i.author, i.seq);
      if (i.status === 'pending') ops.push({ type: 'put', key, value: i.intentId });
      else {
        ops.push({ type: 'del', key });
        if (i.status === 'paid') {
          const value: LikeRecord = { address: i.from, kind: 'intent', tokens: i.tokens, timestamp: i.settledAt! };
          ops.push({ type: 'put', key: `like!${i.postId}!i!${i.intentId}`, value });
        }
      }
    }
    return { state, ops };
  },
};
