/** The explorer's social lists over the recorded simulated chain: threads, followers, likes and the feed, paged with counts. */
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGenesis } from '../../../core/genesis.ts';
import type { TestChain } from '../../helpers/testChain.ts';
import { assertError, get, withChain } from '../../helpers/apiSupport.ts';

const lines = readFileSync(new URL('../../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const genesis = parseGenesis(lines[0].genesis);
const txs: Record<string, any>[] = lines.slice(2).flatMap((b: { transactions: Record<string, any>[] }) => b.transactions);

const simulated = (fn: (c: TestChain) => Promise<void>) =>
  withChain(
    async (c) => {
      for (const b of lines.slice(2)) await c.node.importBlock(b);
      await fn(c);
    },
    { genesis },
  );

/** Every item of a paged list, read `size` at a time; each page's count must be the list's. */
async function all(c: TestChain, path: string, key: string, size: number): Promise<{ count: number; items: unknown[] }> {
  const items: unknown[] = [];
  let count = -1;
  for (let offset = 0; ; offset += size) {
    const res = await get(c, `${path}?limit=${size}&offset=${offset}`);
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    if (count >= 0) assert.equal(res.body.count, count);
    count = res.body.count;
    items.push(...res.body[key]);
    if (res.body[key].length < size) return { count, items };
  }
}

test("a post's replies are its thread, oldest first, with their count", () =>
  simulated(async (c) => {
    const replies = txs.filter((x) => x.type === 'SOCIAL_POST_CREATE' && x.parentPostId);
    assert.ok(replies.length > 0, 'the fixture holds replies');
    for (const parent of new Set(replies.map((r) => r.parentPostId as string))) {
      const want = replies.filter((r) => r.parentPostId === parent).map((r) => r.postId);
      const got = await all(c, `/api/social/post/${parent}/replies`, 'replies', 2);
      assert.equal(got.count, want.length);
      assert.deepEqual(
        got.items.map((p: any) => p.postId),
        want,
      );
    }
  }));

test('followers mirror subscriptions: every follow that holds, under its target, with the count', () =>
  simulated(async (c) => {
    const holds = new Map<string, boolean>();
    for (const x of txs.filter((x) => x.type === 'SOCIAL_FOLLOW_SET')) holds.set(`${x.from} ${x.targetAddress}`, x.enabled);
    const followers = new Map<string, string[]>();
    for (const [pair, on] of holds) {
      const [from, target] = pair.split(' ');
      if (on) followers.set(target, [...(followers.get(target) ?? []), from]);
    }
    assert.ok(followers.size > 0, 'the fixture holds follows');
    for (const [target, from] of followers) {
      const got = await all(c, `/api/social/followers/${target}`, 'followers', 1);
      assert.deepEqual([got.count, got.items], [from.length, [...from].sort()]);
      for (const f of from) assert.ok((await get(c, `/api/social/subscriptions/${f}?limit=100`)).body.subscriptions.includes(target));
    }
    assert.deepEqual((await get(c, `/api/social/followers/ox${'12'.repeat(20)}`)).body, {
      address: `ox${'12'.repeat(20)}`,
      count: 0,
      followers: [],
    });
  }));

test("a post's likes page through, newest first, as the post lists them; the feed carries its count", () =>
  simulated(async (c) => {
    const liked = [...c.node.state().records.posts.values()].sort((a, b) => b.likeCount - a.likeCount)[0];
    const full = (await get(c, `/api/social/post/${liked.postId}`)).body.likes;
    assert.ok(full.length > 1, 'a post with likes');
    const paged = await all(c, `/api/social/post/${liked.postId}/likes`, 'likes', 1);
    assert.deepEqual([paged.count, paged.items], [full.length, full]);
    const posts = txs.filter((x) => x.type === 'SOCIAL_POST_CREATE').length;
    assert.equal((await get(c, '/api/social/feed?limit=1')).body.count, posts);
    assertError(await get(c, '/api/social/post/no-such-post/likes'), 404, 'NOT_FOUND');
    assertError(await get(c, '/api/social/post/no-such-post/replies'), 404, 'NOT_FOUND');
    assertError(await get(c, `/api/social/post/${liked.postId}/likes?offset=-1`), 400, 'INVALID_PARAMS');
  }));
