/**
 * The social read model, rows only, folded from each block's social transactions and the
 * consensus records they changed:
 * - `post!<postId>` -> {body, blobIds} (the rest of a post is its consensus record);
 * - `feed!<n>` and `by!<author>!<n>` -> postId, numbered in chain order from 0 (newest last);
 * - `dm!<address>!<n>` -> the message, for its sender and its recipient, numbered the same way;
 * - `byc!<author>`, `dmc!<address>` -> how many rows that author's posts and that address's messages hold;
 * - `sub!<follower>!<target>` -> target and `fol!<target>!<follower>` -> follower while the follow holds;
 * - `re!<parentPostId>!<height, 12 digits>!<postId>` -> postId: a post's replies in chain order;
 * - `queue!<author>!<seq>` -> intentId while the intent is pending (queue order);
 * - `like!<postId>!r!<address>` (enabled reactions) and `like!<postId>!i!<intentId>` (paid intents);
 * - `profile!<address>` -> {displayName, bio, avatarBlobId?}.
 *
 * The numbered lists make a page at any offset one range read. In memory: the feed's size
 * (kept with the saved position) and a bounded cache of the per-address counts (projections/rowCounters.ts).
 */
import { isTx, type SignedTx } from '../core/tx/handler.ts';
import {
  SOCIAL_DM_SEND,
  SOCIAL_FOLLOW_SET,
  SOCIAL_POST_CREATE,
  SOCIAL_PROFILE_SET,
  SOCIAL_REACTION_SET,
} from '../core/tx/social/social.ts';
import type { BlockEvent, ChainInfo } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { missingCounts, nextNumber, type RowCounters, rowCounters, takeCounts, trimCounts } from './rowCounters.ts';
import { listNumber, type NumberedRows, numberedRows, row, rowGroup } from './rows.ts';

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

/** A post's body row (the rest of a post is its consensus record). */
interface PostBody {
  body: string;
  blobIds: string[];
}

/** A profile row (the address is its key). */
interface ProfileRow {
  displayName: string;
  bio: string;
  avatarBlobId?: string;
}

/** `post!<postId>`: a post's body. */
export const postRow = row<PostBody>('post!');
/** `feed!<n>` -> postId: every post in chain order. */
export const feedRows = numberedRows<string>(() => 'feed!');
/** `by!<author>!<n>` -> postId: an author's posts. */
export const authorPostRows = numberedRows<string, string>((author) => `by!${author}!`);
/** `dm!<address>!<n>`: the messages an address sent or received. */
export const dmRows = numberedRows<DmRecord, string>((address) => `dm!${address}!`);
/** `byc!<author>`, `dmc!<address>`: how many rows an author's posts and an address's messages hold. */
export const postCountRow = row<number>('byc!');
export const dmCountRow = row<number>('dmc!');
// The social lists page over their whole group (the range ends before `<prefix>\xff`).
/** `sub!<follower>!<target>` -> target while the follow holds. */
export const subscriptionRows = rowGroup<string>((follower) => `sub!${follower}!`, String, '\xff');
/** `fol!<target>!<follower>` -> follower while the follow holds. */
export const followerRows = rowGroup<string>((target) => `fol!${target}!`, String, '\xff');
/** `re!<parentPostId>!<height, 12 digits>!<postId>` -> postId: a post's replies, oldest first. */
export const replyRows = rowGroup<string, string, { blockIndex: number; postId: string }>(
  (parent) => `re!${parent}!`,
  ({ blockIndex, postId }) => `${listNumber(blockIndex)}!${postId}`,
  '\xff',
);
/** `queue!<author>!<seq, 12 digits>` -> intentId while the intent is pending. */
export const queueRows = rowGroup<string, string, number>(
  (author) => `queue!${author}!`,
  (seq) => seq.toString().padStart(12, '0'),
  '\xff',
);
/** `like!<postId>!r!<address>` (enabled reactions) and `like!<postId>!i!<intentId>` (paid intents). */
export const likeRows = rowGroup<LikeRecord, string, { reaction: string } | { intent: string }>(
  (postId) => `like!${postId}!`,
  (like) => ('reaction' in like ? `r!${like.reaction}` : `i!${like.intent}`),
  '\xff',
);
/** `profile!<address>`. */
export const profileRow = row<ProfileRow>('profile!');

/** The feed's size and a cache of the per-address counts. */
export interface SocialState {
  feed: number;
  counters: RowCounters;
}

const fresh = (info: ChainInfo, feed: number): SocialState => ({ feed, counters: rowCounters(info.recordCache) });
/** The count rows a transaction numbers a list of. */
function countedBy(tx: SignedTx): string[] {
  if (isTx(tx, SOCIAL_POST_CREATE)) return [postCountRow.key(tx.from)];
  if (isTx(tx, SOCIAL_DM_SEND)) return [...new Set([tx.from, tx.recipient])].map(dmCountRow.key);
  return [];
}

/** Puts the next row of `owner`'s list in `list`, and its count in `count`. */
function append<T>(s: SocialState, list: NumberedRows<string, T>, count: typeof postCountRow, owner: string, value: T, ops: KvOp[]): void {
  const n = nextNumber(s.counters, count.key(owner), 'social');
  ops.push(list.put(owner, n, value), count.put(owner, n + 1));
}

function foldTx(s: SocialState, tx: SignedTx, blockIndex: number, ops: KvOp[]): void {
  if (isTx(tx, SOCIAL_POST_CREATE)) {
    ops.push(postRow.put(tx.postId, { body: tx.body, blobIds: tx.blobIds }));
    ops.push(feedRows.put(undefined, s.feed++, tx.postId));
    append(s, authorPostRows, postCountRow, tx.from, tx.postId, ops);
    if (tx.parentPostId) ops.push(replyRows.put(tx.parentPostId, { blockIndex, postId: tx.postId }, tx.postId));
  } else if (isTx(tx, SOCIAL_DM_SEND)) {
    const { dmId, from, recipient, ciphertext, nonceHex, ephemeralPubKey, contentHash, blobIds, timestamp } = tx;
    const value: DmRecord = { dmId, from, recipient, ciphertext, nonceHex, ephemeralPubKey, contentHash, blobIds, timestamp, blockIndex };
    for (const party of new Set([from, recipient])) append(s, dmRows, dmCountRow, party, value, ops);
  } else if (isTx(tx, SOCIAL_FOLLOW_SET)) {
    const { from, targetAddress } = tx;
    ops.push(tx.enabled ? subscriptionRows.put(from, targetAddress, targetAddress) : subscriptionRows.del(from, targetAddress));
    ops.push(tx.enabled ? followerRows.put(targetAddress, from, from) : followerRows.del(targetAddress, from));
  } else if (isTx(tx, SOCIAL_REACTION_SET)) {
    const like = { reaction: tx.from };
    const value: LikeRecord = { address: tx.from, kind: 'reaction', timestamp: tx.timestamp };
    ops.push(tx.enabled ? likeRows.put(tx.targetPostId, like, value) : likeRows.del(tx.targetPostId, like));
  } else if (isTx(tx, SOCIAL_PROFILE_SET)) {
    const { displayName, bio, avatarBlobId } = tx;
    ops.push(profileRow.put(tx.from, { displayName, bio, ...(avatarBlobId ? { avatarBlobId } : {}) }));
  }
}

/** Posts, timelines, messages, subscriptions, queues, likes and profiles. */
export const socialProjection: Projection<SocialState, { feed: number }> = {
  name: 'social',
  version: 3,
  init: (info) => fresh(info, 0),
  apply(state, ev: BlockEvent) {
    const ops: KvOp[] = [];
    for (const tx of ev.txs) foldTx(state, tx, ev.block.index, ops);
    trimCounts(state.counters);
    // Intents change without a transaction of their own (paid by a follow, expired by time).
    for (const i of ev.diff.records.intents.values()) {
      if (i.status === 'pending') ops.push(queueRows.put(i.author, i.seq, i.intentId));
      else {
        ops.push(queueRows.del(i.author, i.seq));
        if (i.status === 'paid') {
          // A paid intent carries when it was paid (settledAt); createdAt only if a record lacked it.
          const value: LikeRecord = { address: i.from, kind: 'intent', tokens: i.tokens, timestamp: i.settledAt ?? i.createdAt };
          ops.push(likeRows.put(i.postId, { intent: i.intentId }, value));
        }
      }
    }
    return { state, ops };
  },
  needs(s, ev) {
    const keys: string[] = [];
    for (const tx of ev.txs) for (const key of countedBy(tx)) keys.push(key);
    return keys.length === 0 ? keys : missingCounts(s.counters, keys);
  },
  take: (s, rows) => takeCounts(s.counters, rows),
  save: (s) => ({ feed: s.feed }),
  // Counts are read back as they are needed: a load (start, rollback) starts without them.
  load: (saved, info) => fresh(info, saved.feed),
};
