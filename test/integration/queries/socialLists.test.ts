/**
 * Social lists as numbered rows (projections/social.ts): every page of the feed, of each author's
 * posts and of each address's messages, at offsets spread across and past hundreds of rows,
 * equals the list computed the slow way from the blocks (every post or message in chain order,
 * newest first, sliced); on a node caching one address's counts, restarted halfway, and again
 * after another restart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../../core/block.ts';
import { signTx } from '../../../core/txCodec.ts';
import { socialProjection } from '../../../projections/social.ts';
import { pageOffsets } from '../../helpers/pageOffsets.ts';
import { DEV_KEYS, openTestChain, type TestChain } from '../../helpers/testChain.ts';

const USERS = DEV_KEYS.slice(1, 6);

/** Signs `fields` from dev user `u` at its next nonce into the mempool. */
async function send(c: TestChain, u: number, fields: Record<string, unknown> & { type: string }): Promise<void> {
  const key = USERS[u];
  const nonce = (await c.queries.account(key.address)).nonce + c.node.mempool.pending(key.address).count;
  await c.node.submitTx(signTx({ ...fields, from: key.address, fee: '10', nonce, timestamp: c.now() }, key));
}

/** `blocks` blocks of posts and messages between the users (some to oneself). */
async function traffic(c: TestChain, blocks: number, round: number): Promise<void> {
  for (let b = 0; b < blocks; b++) {
    for (let i = 0; i < 12; i++) {
      const n = (round * 1000 + b) * 12 + i;
      const u = (b * 3 + i) % USERS.length;
      if (i % 3 === 2) {
        const to = USERS[(u + (i % 4)) % USERS.length].address;
        await send(c, u, {
          type: 'SOCIAL_DM_SEND',
          dmId: `dm-${n}`,
          recipient: to,
          ciphertext: Buffer.from(`box ${n}`).toString('base64'),
          nonceHex: 'cd'.repeat(24),
          ephemeralPubKey: 'ef'.repeat(32),
          contentHash: 'ab'.repeat(32),
          blobIds: [],
        });
      } else await send(c, u, { type: 'SOCIAL_POST_CREATE', postId: `post-${n}`, body: `post ${n}`, blobIds: [] });
    }
    await c.produce();
  }
}

/** Every list, the slow way: its path, the field of its answer, and its ids newest first. */
function lists(blocks: readonly Block[]): { path: string; field: string; id: string; ids: string[] }[] {
  const txs = blocks.flatMap((b) => b.transactions).reverse();
  const posts = txs.filter((x) => x.type === 'SOCIAL_POST_CREATE');
  const dms = txs.filter((x) => x.type === 'SOCIAL_DM_SEND');
  return [
    { path: '/api/social/feed?', field: 'posts', id: 'postId', ids: posts.map((x) => x.postId as string) },
    ...USERS.flatMap(({ address: a }) => [
      {
        path: `/api/social/author/${a}/posts?`,
        field: 'posts',
        id: 'postId',
        ids: posts.filter((x) => x.from === a).map((x) => x.postId as string),
      },
      {
        path: `/api/social/dms/${a}?`,
        field: 'messages',
        id: 'dmId',
        ids: dms.filter((x) => x.from === a || x.recipient === a).map((x) => x.dmId as string),
      },
    ]),
  ];
}

async function checkLists(c: TestChain, what: string): Promise<number> {
  const blocks = await c.node.store.blocksIn(1, c.node.head().index);
  let pages = 0;
  for (const list of lists(blocks))
    for (const offset of pageOffsets(list.ids.length))
      for (const limit of [1, 7, 100]) {
        const path = `${list.path}offset=${offset}&limit=${limit}`;
        const body = (await (await c.app.request(path)).json()) as Record<string, unknown>;
        const got = (body[list.field] as Record<string, string>[]).map((x) => x[list.id]);
        assert.deepEqual(got, list.ids.slice(offset, offset + limit), `${what}: ${path}`);
        if ('count' in body) assert.equal(body.count, list.ids.length, `${what}: ${path} count`);
        pages++;
      }
  return pages;
}

test('posts and messages on a node caching one count, restarted: every page of every list is the list sliced', async () => {
  let c = await openTestChain({ recordCache: 1 });
  try {
    await traffic(c, 20, 0);
    await c.close();
    c = await openTestChain({ recordCache: 1, dir: c.dir, clock: c.now() });
    await traffic(c, 20, 1);
    assert.ok(c.node.runner.state(socialProjection).counters.counts.size <= 1, 'at most one count in memory');
    assert.equal(c.node.runner.state(socialProjection).feed, 320);
    assert.ok((await checkLists(c, 'imported')) > 100);
    await c.close();
    c = await openTestChain({ recordCache: 1, dir: c.dir, clock: c.now() });
    await checkLists(c, 'after a restart');
  } finally {
    await c.destroy();
  }
});
