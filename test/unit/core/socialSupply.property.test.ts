/**
 * Random social traffic (posts, funded likes, follows and unfollows, reactions, day-long waits)
 * built by a proposer and re-applied by a receiver: every micro-unit stays accounted for with
 * like escrow and refunds, escrow is exactly the pending intents' tokens, intents only move
 * pending -> paid | expired, and likeCount is the number of distinct accounts that like a post.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainState } from '../../../core/state.ts';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { LIKE_CAPS } from '../../../core/tx/social/socialLike.ts';
import { followTx, likeTx, postTx, reactTx } from '../../helpers/socialKit.ts';
import { DEV_GENESIS, DEV_KEYS, supplyGap, TwoNodeChain } from '../../helpers/coreSupport.ts';

const USERS = [1, 2, 3, 4];
const POST_IDS = ['a', 'b', 'c'];

type Op =
  | { k: 'post'; who: number; post: number }
  | { k: 'like'; who: number; post: number; tokens: number }
  | { k: 'follow'; who: number; whom: number; on: boolean }
  | { k: 'react'; who: number; post: number; on: boolean };
type Step = { ops: Op[]; waitMs: number };

const who = fc.constantFrom(...USERS);
const post = fc.nat({ max: POST_IDS.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant('post' as const), who, post }),
  { weight: 3, arbitrary: fc.record({ k: fc.constant('like' as const), who, post, tokens: fc.integer({ min: 0, max: 10_001 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('follow' as const), who, whom: who, on: fc.boolean() }) },
  fc.record({ k: fc.constant('react' as const), who, post, on: fc.boolean() }),
);
const step: fc.Arbitrary<Step> = fc.record({
  ops: fc.array(op, { maxLength: 6 }),
  waitMs: fc.constantFrom(1000, 1000, 1000, LIKE_CAPS.likeExpiryMs / 2, LIKE_CAPS.likeExpiryMs),
});

function checkState(s: ChainState, statuses: Map<string, string>): void {
  assert.equal(supplyGap(s), 0n, 'supply identity');
  let pending = 0n;
  for (const i of s.records.intents.values()) {
    const was = statuses.get(i.intentId);
    assert.ok(was === undefined || was === i.status || was === 'pending', `intent ${was} -> ${i.status}`);
    statuses.set(i.intentId, i.status);
    if (i.status === 'pending') pending += BigInt(i.tokens);
  }
  assert.equal(s.supply.escrow, pending, 'escrow is the pending intents');
  for (const p of s.records.posts.values()) {
    const fans = new Set<string>();
    for (const i of s.records.intents.values()) if (i.postId === p.postId && i.status === 'paid') fans.add(i.from);
    for (const [key, l] of s.records.likers) if (key.startsWith(`${p.postId}:`) && l.reaction) fans.add(key.slice(p.postId.length + 1));
    assert.equal(p.likeCount, fans.size, `likeCount of ${p.postId}`);
  }
}

test('random social traffic keeps every micro-unit accounted for, and both nodes agree', () => {
  const seen = new Set<string>();
  fc.assert(
    fc.property(fc.array(step, { minLength: 2, maxLength: 8 }), (steps) => {
      const chain = new TwoNodeChain(DEV_GENESIS);
      const nonces = new Map<number, number>();
      const statuses = new Map<string, string>();
      const next = (i: number) => {
        const n = chain.proposer.accounts.get(DEV_KEYS[i].address)?.nonce ?? 0;
        const k = Math.max(n, nonces.get(i) ?? 0);
        nonces.set(i, k + 1);
        return k;
      };
      for (const { ops, waitMs } of steps) {
        nonces.clear();
        const posts = chain.proposer.records.posts;
        const txs: SignedTx[] = ops.map((o) => {
          const key = DEV_KEYS[o.who];
          if (o.k === 'post') return postTx(key, POST_IDS[o.post], next(o.who));
          if (o.k === 'follow') return followTx(key, DEV_KEYS[o.whom].address, o.on, next(o.who));
          if (o.k === 'react') return reactTx(key, POST_IDS[o.post], o.on, next(o.who));
          const author = posts.get(POST_IDS[o.post])?.author ?? DEV_KEYS[1].address;
          return likeTx(key, author, POST_IDS[o.post], o.tokens, next(o.who));
        });
        const { block, received } = chain.next(txs, undefined, chain.head.timestamp + waitMs);
        assert.equal(received.stateRoot, block.stateRoot);
        assert.deepEqual(chain.receiver.supply, chain.proposer.supply);
        checkState(chain.receiver, statuses);
      }
      for (const x of statuses.values()) seen.add(x);
    }),
    // Seeded: the coverage assertion below must hold on every run, not in most of them.
    { numRuns: 40, seed: 20261123 },
  );
  assert.deepEqual([...seen].sort(), ['expired', 'paid', 'pending'], 'the traffic reaches every intent status');
});
