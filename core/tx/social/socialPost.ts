/**
 * Posts, profiles, reactions and direct messages (the live network's social types). The consensus
 * state keeps only what rules need: a post's author, parent and like count, who likes what, and
 * which DM ids are taken; bodies, profiles and ciphertexts live in the `social` read model.
 */
import { present, refuse } from '../../errors.ts';
import { defineRecord } from '../../record.ts';
import { f, defineTx } from '../../schema.ts';
import type { TxState } from '../../txState.ts';
import { feeOf, payFee, txHandler, type StateReader } from '../handler.ts';
import { BLOBS } from './socialBlob.ts';

/** Most blobs a post or a direct message names. */
const MAX_POST_BLOBS = 8;
/** Longest post body and DM ciphertext, in bytes. */
const MAX_BODY_BYTES = 16_384;

/** A post as the consensus state keeps it (its body is in the read model). */
export interface PostRef {
  postId: string;
  author: string;
  likeCount: number;
  timestamp: number;
  blockIndex: number;
  txHash: string;
  parentPostId?: string;
}

/** One account's likes of one post: an enabled reaction and how many of its funded likes were paid. */
export interface Liker {
  reaction: boolean;
  paid: number;
}

/** Post records, `p:<postId>`. */
export const POSTS = defineRecord<PostRef>()('posts', { prefix: 'p', id: 'postId', doc: 'post' });
/** Likers, `pl:<postId>:<address>`: present once the account reacted or had a funded like paid. */
export const LIKERS = defineRecord<Liker>()('likers', { prefix: 'pl', id: 'postId:address', doc: 'post liker' });
/** Direct-message ids taken, `dm:<dmId>`. */
export const DM_IDS = defineRecord<{ from: string; blockIndex: number }>()('dmIds', { prefix: 'dm', id: 'dmId', doc: 'direct-message id' });

const common = { fee: f.amount(), nonce: f.uint(), timestamp: f.uint() };
const blobIds = () => f.strings(MAX_POST_BLOBS, f.hex(64));
const flow = '`fee` moves from `from` to the block proposer.';

export const SOCIAL_POST_CREATE = defineTx({
  type: 'SOCIAL_POST_CREATE',
  family: 'social',
  fork: 1,
  doc: 'Publishes a post (a reply when parentPostId names an existing post). postId is unique; body at most 16,384 bytes; at most 8 distinct complete blobs; a post with neither body nor blobs is refused.',
  fields: {
    from: f.address(),
    postId: f.id(64, 1),
    body: f.text(MAX_BODY_BYTES),
    blobIds: blobIds(),
    parentPostId: f.optional(f.id(64, 1)),
    ...common,
  },
  moneyFlow: flow,
});

export const SOCIAL_PROFILE_SET = defineTx({
  type: 'SOCIAL_PROFILE_SET',
  family: 'social',
  fork: 1,
  doc: "Sets the sender's profile (replacing the previous one); avatarBlobId must name a complete blob.",
  fields: { from: f.address(), displayName: f.chars(64), bio: f.chars(280), avatarBlobId: f.optional(f.hex(64)), ...common },
  moneyFlow: flow,
});

export const SOCIAL_REACTION_SET = defineTx({
  type: 'SOCIAL_REACTION_SET',
  family: 'social',
  fork: 1,
  doc: 'Likes (enabled) or unlikes a post, free of charge beyond the fee; one reaction per account and post, and a change that changes nothing is refused.',
  fields: { from: f.address(), targetPostId: f.id(64, 1), reaction: f.oneOf(['like'] as const), enabled: f.bool(), ...common },
  moneyFlow: flow,
});

export const SOCIAL_DM_SEND = defineTx({
  type: 'SOCIAL_DM_SEND',
  family: 'social',
  fork: 1,
  doc: 'Sends a direct message as NaCl box ciphertext (base64, at most 16,384 bytes); the node never decrypts it. dmId is unique; blobIds must be complete blobs.',
  fields: {
    from: f.address(),
    dmId: f.id(64, 1),
    recipient: f.address(),
    ciphertext: f.base64(MAX_BODY_BYTES, 1),
    nonceHex: f.hex(48),
    ephemeralPubKey: f.hex(64),
    contentHash: f.hex(64),
    blobIds: blobIds(),
    ...common,
  },
  moneyFlow: flow,
});

/** Refuses unless every id names a distinct complete blob. */
function checkBlobs(state: StateReader, ids: readonly string[]): void {
  if (new Set(ids).size !== ids.length) refuse('blobIds must not repeat');
  for (const id of ids) if (state.get(BLOBS.UPLOADS, id)?.status !== 'complete') refuse(`blob ${id} is not a complete blob`);
}

/** The liker record id of `address` on `postId`. */
const likerKey = (postId: string, address: string) => `${postId}:${address}`;

/** Updates an account's likes of a post and the post's likeCount (distinct accounts that like it). */
export function setLiker(s: TxState, postId: string, address: string, change: (l: Liker) => Liker): void {
  const key = likerKey(postId, address);
  const before = s.get(LIKERS, key) ?? { reaction: false, paid: 0 };
  const after = change(before);
  const likes = (l: Liker) => l.reaction || l.paid > 0;
  if (likes(after)) s.put(LIKERS, key, after);
  else if (s.get(LIKERS, key)) s.remove(LIKERS, key);
  const delta = Number(likes(after)) - Number(likes(before));
  if (delta === 0) return;
  const post = present(s.get(POSTS, postId), `post ${postId}`);
  s.put(POSTS, postId, { ...post, likeCount: post.likeCount + delta });
}

const post = txHandler(SOCIAL_POST_CREATE, {
  check(tx, state) {
    if (state.get(POSTS, tx.postId)) refuse(`post ${tx.postId} already exists`);
    if (tx.parentPostId !== undefined && !state.get(POSTS, tx.parentPostId)) refuse(`parent post ${tx.parentPostId} does not exist`);
    if (tx.body.length === 0 && tx.blobIds.length === 0) refuse('a post needs a body or blobs');
    checkBlobs(state, tx.blobIds);
  },
  apply(tx, s, ctx) {
    const { postId, parentPostId } = tx;
    const ref: PostRef = { postId, author: tx.from, likeCount: 0, timestamp: tx.timestamp, blockIndex: ctx.height, txHash: tx.hash };
    s.put(POSTS, postId, parentPostId === undefined ? ref : { ...ref, parentPostId });
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

const profile = txHandler(SOCIAL_PROFILE_SET, {
  check(tx, state) {
    if (tx.avatarBlobId !== undefined) checkBlobs(state, [tx.avatarBlobId]);
  },
  apply: (tx, s, ctx) => payFee(s, tx.from, feeOf(tx), ctx),
});

const reaction = txHandler(SOCIAL_REACTION_SET, {
  check(tx, state) {
    if (!state.get(POSTS, tx.targetPostId)) refuse(`post ${tx.targetPostId} does not exist`);
    const on = state.get(LIKERS, likerKey(tx.targetPostId, tx.from))?.reaction ?? false;
    if (on === tx.enabled) refuse(`the ${tx.reaction} reaction to post ${tx.targetPostId} is already ${on ? 'on' : 'off'}`);
  },
  apply(tx, s, ctx) {
    setLiker(s, tx.targetPostId, tx.from, (l) => ({ ...l, reaction: tx.enabled }));
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

const dm = txHandler(SOCIAL_DM_SEND, {
  check(tx, state) {
    if (state.get(DM_IDS, tx.dmId)) refuse(`dmId ${tx.dmId} is taken`);
    checkBlobs(state, tx.blobIds);
  },
  apply(tx, s, ctx) {
    s.put(DM_IDS, tx.dmId, { from: tx.from, blockIndex: ctx.height });
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** The post, profile, reaction and DM handlers. */
export const postHandlers = { post, profile, reaction, dm };
