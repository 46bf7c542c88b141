/**
 * Follows and funded likes. SOCIAL_LIKE_INTENT (the spec's) moves `tokens` from the liker: to the
 * author at once when the liker follows the author (`paid`), otherwise into escrow (`pending` in
 * the author's queue) until the liker follows the author (every pending intent of the pair is paid
 * in that block) or `likeExpiryMs` passes (`expired`: refunded at the first block at or after
 * `expiresAt`). Intents expire in creation order, so a FIFO of intent ids makes the begin-block
 * hook O(intents expiring), and a pair's pending ids make a follow O(intents it pays).
 */
import { present, refuse, refuseUnless } from '../../errors.ts';
import { defineRecord } from '../../record.ts';
import { f, defineTx } from '../../schema.ts';
import type { TxState } from '../../txState.ts';
import { feeOf, payFee, txHandler, type TxContext } from '../handler.ts';
import { POSTS, setLiker } from './socialPost.ts';

/** The like caps record (GET /api/social/caps), the live network's values. */
export const LIKE_CAPS = {
  maxTokensPerLikeHard: 10_000,
  maxDailyTokensHard: 10_000_000,
  queueCapPerAuthor: 10_000,
  likeExpiryMs: 86_400_000,
} as const;
const DAY_MS = 86_400_000;

/** A funded like; `seq` is its place in the expiry order (not served). */
export interface LikeIntent {
  intentId: string;
  from: string;
  author: string;
  postId: string;
  tokens: number;
  status: 'pending' | 'paid' | 'expired';
  createdAt: number;
  expiresAt: number;
  settledAt?: number;
  blockIndex: number;
  seq: number;
}

/** Follows, `fo:<follower>:<target>` (removed on unfollow). */
const FOLLOWS = defineRecord<{ since: number }>()('follows', { prefix: 'fo', id: 'follower:target', doc: 'follow' });
/** Like intents, `li:<intentId>` (the intent id is its transaction hash). */
export const INTENTS = defineRecord<LikeIntent>()('intents', { prefix: 'li', id: 'intentId', doc: 'like intent' });
/** Pending intent ids of one liker to one author, oldest first, `lp:<from>:<author>`. */
const LIKE_PAIRS = defineRecord<{ intentIds: string[] }>()('likePairs', {
  prefix: 'lp',
  id: 'from:author',
  doc: 'pending likes of a pair',
});
/** Pending intents per author, `lq:<author>` (queueCapPerAuthor). */
export const LIKE_QUEUES = defineRecord<{ pending: number }>()('likeQueues', { prefix: 'lq', id: 'author', doc: 'like queue size' });
/** Tokens a liker's intents took on one UTC day, `ld:<from>` (maxDailyTokensHard). */
export const LIKE_DAILY = defineRecord<{ day: number; tokens: number }>()('likeDaily', {
  prefix: 'ld',
  id: 'from',
  doc: 'daily like tokens',
});
/** The expiry order, `lo:<seq>` -> intentId, and its bounds, `lc:clock`. */
const LIKE_ORDER = defineRecord<{ intentId: string }>()('likeOrder', { prefix: 'lo', id: 'seq', doc: 'like expiry order' });
const LIKE_CLOCK = defineRecord<{ head: number; tail: number }>()('likeClock', {
  prefix: 'lc',
  id: '"clock"',
  doc: 'like expiry bounds',
});

const common = { fee: f.amount(), nonce: f.uint(), timestamp: f.uint() };
const follows = (s: { get: TxState['get'] }, follower: string, target: string) => s.get(FOLLOWS, `${follower}:${target}`) !== undefined;

export const SOCIAL_FOLLOW_SET = defineTx({
  type: 'SOCIAL_FOLLOW_SET',
  family: 'social',
  fork: 1,
  doc: "Follows (enabled) or unfollows an account. A follow is a like-funding subscription: the follower's pending funded likes of the target are paid to it in the same block, and later ones are paid at once. Following yourself, or a change that changes nothing, is refused.",
  fields: { from: f.address(), targetAddress: f.address(), enabled: f.bool(), ...common },
  moneyFlow:
    "`fee` moves from `from` to the block proposer; on a follow, the escrow of `from`'s pending like intents to `targetAddress` moves to `targetAddress`.",
});

const SOCIAL_LIKE_INTENT = defineTx({
  type: 'SOCIAL_LIKE_INTENT',
  family: 'social',
  fork: 1,
  doc: "A funded like of `author`'s post `postId`: `tokens` micro-OMBRA (1..10,000; a liker's intents created in one UTC day take at most 10,000,000; at most 10,000 pending per author). Paid at once when the liker follows the author, otherwise pending until the liker follows (paid) or likeExpiryMs (86,400,000) passes (refunded). The intent id is the transaction hash.",
  fields: { from: f.address(), author: f.address(), postId: f.id(64, 1), tokens: f.uint(), ...common },
  moneyFlow:
    '`tokens` move from `from` to `author` when `from` follows `author`, otherwise into `escrow` (paid to `author` when `from` follows, refunded to `from` at expiry); `fee` moves from `from` to the block proposer.',
});

/** Moves a paid intent's tokens to the author and counts the like. */
function settle(s: TxState, intent: LikeIntent, status: 'paid' | 'expired', ctx: TxContext): void {
  const tokens = BigInt(intent.tokens);
  s.supply.escrow -= tokens;
  s.account(status === 'paid' ? intent.author : intent.from).balance += tokens;
  if (status === 'paid') setLiker(s, intent.postId, intent.from, (l) => ({ ...l, paid: l.paid + 1 }));
  s.put(INTENTS, intent.intentId, { ...intent, status, settledAt: ctx.timestamp });
  const q = present(s.get(LIKE_QUEUES, intent.author), `${intent.author}'s like queue`).pending - 1;
  if (q === 0) s.remove(LIKE_QUEUES, intent.author);
  else s.put(LIKE_QUEUES, intent.author, { pending: q });
}

const follow = txHandler(SOCIAL_FOLLOW_SET, {
  check(tx, state) {
    if (tx.targetAddress === tx.from) refuse('an account cannot follow itself');
    const on = follows(state, tx.from, tx.targetAddress);
    if (on === tx.enabled) refuse(`${tx.from} ${on ? 'already follows' : 'does not follow'} ${tx.targetAddress}`);
  },
  apply(tx, s, ctx) {
    const key = `${tx.from}:${tx.targetAddress}`;
    if (!tx.enabled) s.remove(FOLLOWS, key);
    else {
      s.put(FOLLOWS, key, { since: ctx.timestamp });
      const pair = s.get(LIKE_PAIRS, key);
      if (pair) {
        // Pending funded likes of the target wait for exactly this: pay them all, oldest first.
        for (const id of pair.intentIds) settle(s, present(s.get(INTENTS, id), `intent ${id}`), 'paid', ctx);
        s.remove(LIKE_PAIRS, key);
      }
    }
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

const like = txHandler(SOCIAL_LIKE_INTENT, {
  cost: (tx) => ({ balance: feeOf(tx) + BigInt(tx.tokens), storage: 0n }),
  check(tx, state, ctx) {
    const caps = LIKE_CAPS;
    if (tx.tokens < 1 || tx.tokens > caps.maxTokensPerLikeHard) refuse(`tokens must be 1..${caps.maxTokensPerLikeHard}`);
    const post = state.get(POSTS, tx.postId);
    refuseUnless(post, `post ${tx.postId} does not exist`);
    if (post.author !== tx.author) refuse(`post ${tx.postId} is by ${post.author}, not ${tx.author}`);
    if (tx.author === tx.from) refuse('an account cannot fund a like of its own post');
    const daily = state.get(LIKE_DAILY, tx.from);
    const today = daily?.day === Math.floor(ctx.timestamp / DAY_MS) ? daily.tokens : 0;
    if (today + tx.tokens > caps.maxDailyTokensHard)
      refuse(`today's funded likes would take ${today + tx.tokens} tokens, more than ${caps.maxDailyTokensHard}`);
    const queued = state.get(LIKE_QUEUES, tx.author)?.pending ?? 0;
    if (!follows(state, tx.from, tx.author) && queued >= caps.queueCapPerAuthor)
      refuse(`${tx.author} already has ${caps.queueCapPerAuthor} pending funded likes`);
  },
  apply(tx, s, ctx) {
    const day = Math.floor(ctx.timestamp / DAY_MS);
    const daily = s.get(LIKE_DAILY, tx.from);
    s.put(LIKE_DAILY, tx.from, { day, tokens: (daily?.day === day ? daily.tokens : 0) + tx.tokens });
    const clock = s.get(LIKE_CLOCK, 'clock') ?? { head: 0, tail: 0 };
    const intent: LikeIntent = {
      intentId: tx.hash,
      from: tx.from,
      author: tx.author,
      postId: tx.postId,
      tokens: tx.tokens,
      status: 'pending',
      createdAt: ctx.timestamp,
      expiresAt: ctx.timestamp + LIKE_CAPS.likeExpiryMs,
      blockIndex: ctx.height,
      seq: clock.tail,
    };
    s.account(tx.from).balance -= BigInt(tx.tokens);
    s.supply.escrow += BigInt(tx.tokens);
    s.put(LIKE_QUEUES, tx.author, { pending: (s.get(LIKE_QUEUES, tx.author)?.pending ?? 0) + 1 });
    if (follows(s, tx.from, tx.author)) settle(s, intent, 'paid', ctx);
    else {
      s.put(INTENTS, intent.intentId, intent);
      const key = `${tx.from}:${tx.author}`;
      s.put(LIKE_PAIRS, key, { intentIds: [...(s.get(LIKE_PAIRS, key)?.intentIds ?? []), intent.intentId] });
      s.put(LIKE_ORDER, String(clock.tail), { intentId: intent.intentId });
      s.put(LIKE_CLOCK, 'clock', { head: clock.head, tail: clock.tail + 1 });
    }
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** Begin-block hook: refunds, oldest first, the pending intents whose expiresAt has come. */
function expireLikes(s: TxState, ctx: TxContext): void {
  const clock = s.get(LIKE_CLOCK, 'clock');
  if (!clock) return;
  let head = clock.head;
  for (; head < clock.tail; head++) {
    const id = present(s.get(LIKE_ORDER, String(head)), `like order ${head}`).intentId;
    const intent = present(s.get(INTENTS, id), `intent ${id}`);
    if (intent.status === 'pending') {
      if (intent.expiresAt > ctx.timestamp) break;
      settle(s, intent, 'expired', ctx);
      const key = `${intent.from}:${intent.author}`;
      const rest = present(s.get(LIKE_PAIRS, key), `like pair ${key}`).intentIds.filter((x) => x !== id);
      if (rest.length) s.put(LIKE_PAIRS, key, { intentIds: rest });
      else s.remove(LIKE_PAIRS, key);
    }
    s.remove(LIKE_ORDER, String(head));
  }
  if (head !== clock.head) s.put(LIKE_CLOCK, 'clock', { head, tail: clock.tail });
}

/** The follow and funded-like handlers, records and expiry hook. */
export const likeParts = {
  follow,
  like,
  records: [FOLLOWS, INTENTS, LIKE_PAIRS, LIKE_QUEUES, LIKE_DAILY, LIKE_ORDER, LIKE_CLOCK] as const,
  expire: expireLikes,
};
