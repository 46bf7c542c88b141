/**
 * The social read model, rows only, folded from each block's social transactions and the
 * consensus records they changed:
 * - `post!<postId>` -> {body, blobIds} (the rest of a post is its consensus record);
 * - `feed!<n>` and `by!<author>!<n>` -> postId, numbered in chain order from 0 (newest last);
 * - `dm!<address>!<n>` -> the message, for its sender and its recipient, numbered the same way;
 * - `byc!<author>`, `dmc!<address>` -> how many rows that author's posts and that address's messages hold;
 * - `sub!<follower>!<target>` -> target while the follow holds;
 * - `queue!<author>!<seq>` -> intentId while the intent is pending (queue order);
 * - `like!<postId>!r!<address>` (enabled reactions) and `like!<postId>!i!<intentId>` (paid intents);
 * - `profile!<address>` -> {displayName, bio, avatarBlobId?}.
 *
 * The numbered lists make a page at any offset one range read. In memory: the feed's size (saved
 * with the checkpoint) and a bounded cache of the per-address counts (projections/rowCounters.ts).
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
import { listNumber, missingCounts, nextNumber, type RowCounters, rowCounters, takeCounts, trimCounts } from './rowCounters.ts';

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

/** The feed's size and a cache of the per-address counts. */
export interface SocialState {
  feed: number;
  counters: RowCounters;
}

/** The row counting an author's posts. */
export const postCountKey = (author: string): string => `byc!${author}`;
/** The row counting an address's messages (sent and received). */
export const dmCountKey = (address: string): string => `dmc!${address}`;

const fresh = (info: ChainInfo, feed: number): SocialState => ({ feed, counters: rowCounters(info.recordCache) });
/** Row key of a pending intent in its author's queue. */
const queueKey = (author: string, seq: number) => `queue!${author}!${seq.toString().padStart(12, '0')}`;

/** The count rows a transaction numbers a list of. */
function countedBy(tx: SignedTx): string[] {
  if (isTx(tx, SOCIAL_POST_CREATE)) return [postCountKey(tx.from)];
  if (isTx(tx, SOCIAL_DM_SEND)) return [...new Set([tx.from, tx.recipient])].map(dmCountKey);
  return [];
}

/** Puts the next row of the list `key` counts: `<prefix><n>`, and the count. */
function append(s: SocialState, key: string, prefix: string, value: unknown, ops: KvOp[]): void {
  const n = nextNumber(s.counters, key, 'social');
  ops.push({ type: 'put', key: `${prefix}${listNumber(n)}`, value, fresh: true }, { type: 'put', key, value: n + 1 });
}

function foldTx(s: SocialState, tx: SignedTx, blockIndex: number, ops: KvOp[]): void {
  if (isTx(tx, SOCIAL_POST_CREATE)) {
    ops.push({ type: 'put', key: `post!${tx.postId}`, value: { body: tx.body, blobIds: tx.blobIds } });
    ops.push({ type: 'put', key: `feed!${listNumber(s.feed++)}`, value: tx.postId, fresh: true });
    append(s, postCountKey(tx.from), `by!${tx.from}!`, tx.postId, ops);
  } else if (isTx(tx, SOCIAL_DM_SEND)) {
    const { dmId, from, recipient, ciphertext, nonceHex, ephemeralPubKey, contentHash, blobIds, timestamp } = tx;
    const value: DmRecord = { dmId, from, recipient, ciphertext, nonceHex, ephemeralPubKey, contentHash, blobIds, timestamp, blockIndex };
    for (const party of new Set([from, recipient])) append(s, dmCountKey(party), `dm!${party}!`, value, ops);
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
export const socialProjection: Projection<SocialState> = {
  name: 'social',
  version: 2,
  init: (info) => fresh(info, 0),
  apply(state, ev: BlockEvent) {
    const ops: KvOp[] = [];
    for (const tx of ev.txs) foldTx(state, tx, ev.block.index, ops);
    trimCounts(state.counters);
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
  needs: (s, ev) => missingCounts(s.counters, ev.txs.flatMap(countedBy)),
  take: (s, rows) => takeCounts(s.counters, rows),
  save: (s) => ({ feed: s.feed }),
  // Counts are read back as they are needed: a load (start, rollback) starts without them.
  load: (saved, info) => fresh(info, (saved as { feed: number }).feed),
};
