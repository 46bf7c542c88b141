import { test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { StateOverlay } from '../../../core/stateOverlay.ts';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { LIKE_CAPS, LIKE_DAILY, LIKE_QUEUES } from '../../../core/tx/social/socialLike.ts';
import { validateTx } from '../../../core/validateTx.ts';
import { followTx, likeTx, postTx, reactTx } from '../../helpers/socialKit.ts';
import { DEV_GENESIS, DEV_KEYS, refusal, supplyGap, TwoNodeChain } from '../../helpers/coreSupport.ts';

const [, author, liker, other] = DEV_KEYS;

/** Validates `tx` against the chain's state, `seed` written over it first. */
function validate(chain: TwoNodeChain, tx: SignedTx, seed?: (s: StateOverlay) => void) {
  const state = new StateOverlay(chain.receiver);
  seed?.(state);
  return validateTx(tx, { height: chain.head.index + 1, timestamp: chain.head.timestamp + 1000, genesis: DEV_GENESIS, state });
}

const refused = (chain: TwoNodeChain, tx: SignedTx, seed?: (s: StateOverlay) => void) => refusal(() => validate(chain, tx, seed));

const balance = (c: TwoNodeChain, k: { address: string }) => c.receiver.accounts.get(k.address)!.balance;

test('a like to an author the liker does not follow waits in escrow, in queue order, and a follow pays them all', () => {
  const c = new TwoNodeChain(DEV_GENESIS);
  c.next([postTx(author, 'p1', 0), postTx(author, 'p2', 1)]);
  const before = balance(c, author);
  const a = likeTx(liker, author.address, 'p1', 300, 0);
  const b = likeTx(liker, author.address, 'p2', 200, 1);
  const d = likeTx(other, author.address, 'p1', 50, 0);
  c.next([a, b, d]);
  const intents = c.receiver.records.intents;
  assert.deepEqual(
    [a, b, d].map((x) => intents.get(x.hash)?.status),
    ['pending', 'pending', 'pending'],
  );
  assert.deepEqual(
    [a, b, d].map((x) => intents.get(x.hash)?.seq),
    [0, 1, 2],
    'queue order is arrival order',
  );
  assert.equal(c.receiver.supply.escrow, 550n);
  assert.equal(c.receiver.records.likeQueues.get(author.address)?.pending, 3);
  assert.equal(c.receiver.records.posts.get('p1')?.likeCount, 0, 'a pending intent is not a like yet');
  const { block } = c.next([followTx(liker, author.address, true, 2)]);
  assert.deepEqual(
    [a, b, d].map((x) => intents.get(x.hash)?.status),
    ['paid', 'paid', 'pending'],
  );
  assert.equal(intents.get(a.hash)?.settledAt, block.timestamp);
  assert.equal(balance(c, author), before + 500n);
  assert.equal(c.receiver.supply.escrow, 50n);
  assert.equal(c.receiver.records.likeQueues.get(author.address)?.pending, 1);
  assert.deepEqual([c.receiver.records.posts.get('p1')?.likeCount, c.receiver.records.posts.get('p2')?.likeCount], [1, 1]);
  assert.equal(supplyGap(c.receiver), 0n);
});

test('a follower’s like is paid in its own block; likeCount counts accounts, not likes', () => {
  const c = new TwoNodeChain(DEV_GENESIS);
  c.next([postTx(author, 'p1', 0), followTx(liker, author.address, true, 0)]);
  const before = balance(c, author);
  const a = likeTx(liker, author.address, 'p1', 1000, 1);
  c.next([a, reactTx(liker, 'p1', true, 2), likeTx(liker, author.address, 'p1', 1, 3)]);
  assert.equal(c.receiver.records.intents.get(a.hash)?.status, 'paid');
  assert.equal(balance(c, author), before + 1001n);
  assert.equal(c.receiver.supply.escrow, 0n);
  assert.equal(c.receiver.records.posts.get('p1')?.likeCount, 1);
  c.next([reactTx(other, 'p1', true, 0), reactTx(liker, 'p1', false, 4)]);
  assert.equal(c.receiver.records.posts.get('p1')?.likeCount, 2, 'paid likes keep the liker counted after an unreaction');
  c.next([reactTx(other, 'p1', false, 1)]);
  assert.equal(c.receiver.records.posts.get('p1')?.likeCount, 1);
  assert.equal(supplyGap(c.receiver), 0n);
});

test('an unpaid like expires at the first block at or after createdAt + likeExpiryMs and is refunded', () => {
  const c = new TwoNodeChain(DEV_GENESIS);
  c.next([postTx(author, 'p1', 0)]);
  const a = likeTx(liker, author.address, 'p1', 700, 0);
  const created = c.next([a]).block.timestamp;
  const after = balance(c, liker);
  c.next([], undefined, created + LIKE_CAPS.likeExpiryMs - 1000);
  assert.equal(c.receiver.records.intents.get(a.hash)?.status, 'pending');
  c.next([], undefined, created + LIKE_CAPS.likeExpiryMs);
  const i = c.receiver.records.intents.get(a.hash)!;
  assert.deepEqual([i.status, i.expiresAt, i.settledAt], ['expired', created + LIKE_CAPS.likeExpiryMs, created + LIKE_CAPS.likeExpiryMs]);
  assert.equal(balance(c, liker), after + 700n);
  assert.equal(c.receiver.supply.escrow, 0n);
  assert.equal(c.receiver.records.likeQueues.get(author.address), undefined);
  assert.equal(c.receiver.records.likePairs.size, 0);
  c.next([followTx(liker, author.address, true, 1)]);
  assert.equal(c.receiver.records.intents.get(a.hash)?.status, 'expired', 'a later follow pays nothing expired');
  assert.equal(supplyGap(c.receiver), 0n);
});

test('the caps hold at their limits: per like, per UTC day, per author queue', () => {
  const c = new TwoNodeChain(DEV_GENESIS);
  c.next([postTx(author, 'p1', 0)]);
  assert.deepEqual(refused(c, likeTx(liker, author.address, 'p1', 10_001, 0)), {
    code: 'VALIDATION_FAILED',
    message: 'tokens must be 1..10000',
  });
  assert.deepEqual(refused(c, likeTx(liker, author.address, 'p1', 0, 0)).message, 'tokens must be 1..10000');
  const day = Math.floor((c.head.timestamp + 1000) / 86_400_000);
  const nearlySpent = (s: StateOverlay) => s.put(LIKE_DAILY, liker.address, { day, tokens: LIKE_CAPS.maxDailyTokensHard - 1 });
  assert.match(refused(c, likeTx(liker, author.address, 'p1', 2, 0), nearlySpent).message, /more than 10000000/);
  const yesterday = (s: StateOverlay) => s.put(LIKE_DAILY, liker.address, { day: day - 1, tokens: LIKE_CAPS.maxDailyTokensHard });
  assert.doesNotThrow(() => validate(c, likeTx(liker, author.address, 'p1', 10_000, 0), yesterday), 'a new day starts from zero');
  const full = (s: StateOverlay) => s.put(LIKE_QUEUES, author.address, { pending: LIKE_CAPS.queueCapPerAuthor });
  assert.match(refused(c, likeTx(liker, author.address, 'p1', 1, 0), full).message, /already has 10000 pending/);
  c.next([likeTx(liker, author.address, 'p1', 10_000, 0)]);
  assert.equal(c.receiver.records.likeDaily.get(liker.address)?.tokens, 10_000);
});

test('hostile social transactions are refused and change nothing', () => {
  const c = new TwoNodeChain(DEV_GENESIS);
  c.next([postTx(author, 'p1', 0)]);
  const cases: [SignedTx, RegExp][] = [
    [likeTx(liker, author.address, 'nope', 5, 0), /post nope does not exist/],
    [likeTx(liker, other.address, 'p1', 5, 0), /is by ox[0-9a-f]+, not/],
    [likeTx(author, author.address, 'p1', 5, 1), /its own post/],
    [followTx(liker, liker.address, true, 0), /cannot follow itself/],
    [followTx(liker, author.address, false, 0), /does not follow/],
    [reactTx(liker, 'p1', false, 0), /already off/],
    [reactTx(liker, 'zz', true, 0), /post zz does not exist/],
    [postTx(author, 'p1', 1), /post p1 already exists/],
    [postTx(author, 'p9', 1, { parentPostId: 'nope' }), /parent post nope does not exist/],
    [postTx(author, 'p9', 1, { body: '' }), /needs a body or blobs/],
    [postTx(author, 'p9', 1, { blobIds: ['ab'.repeat(32)] }), /is not a complete blob/],
  ];
  for (const [tx, why] of cases) assert.match(refused(c, tx).message, literal(why), tx.type);
  const root = c.head.stateRoot;
  const { block, dropped } = c.next(cases.map(([tx]) => tx));
  assert.equal(block.transactions.length, 0);
  assert.equal(dropped.length, cases.length);
  assert.notEqual(block.stateRoot, root);
  assert.equal(c.receiver.records.intents.size + c.receiver.records.follows.size + c.receiver.records.likers.size, 0);
});
