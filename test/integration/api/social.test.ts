/** /api/social against a node: every route after real traffic, blobs served byte-identical, refusals typed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KeyPair } from '../../../core/keys.ts';
import { LIKE_CAPS } from '../../../core/tx/social/socialLike.ts';
import { signTx } from '../../../core/txCodec.ts';
import { bytesOf, testBlob } from '../../helpers/blobKit.ts';
import { DEV_KEYS, openTestChain, type TestChain } from '../../helpers/testChain.ts';

const [, alice, bob, carol] = DEV_KEYS;

/** Signs `fields` from `key` at its next nonce and posts it; returns the answer. */
async function send(c: TestChain, key: KeyPair, fields: Record<string, unknown> & { type: string }) {
  const nonce = (await c.queries.account(key.address)).nonce + c.node.mempool.pending(key.address).count;
  const tx = signTx({ ...fields, from: key.address, fee: '10', nonce, timestamp: c.now() }, key);
  const res = await c.app.request('/api/chain/tx', {
    method: 'POST',
    body: JSON.stringify(tx),
    headers: { 'Content-Type': 'application/json' },
  });
  return { res, body: (await res.json()) as Record<string, unknown>, hash: tx.hash };
}

async function get(c: TestChain, path: string): Promise<{ res: Response; body: any }> {
  const res = await c.app.request(path);
  return { res, body: res.headers.get('content-type')?.startsWith('application/json') ? await res.json() : await res.arrayBuffer() };
}

test('blobs, posts, reactions, funded likes, follows, DMs and profiles, read back through every route', async () => {
  const c = await openTestChain();
  try {
    await c.produce();
    const png = testBlob(bytesOf(120_000, 'png'), 50_000, 'image/png');
    for (const i of [2, 0, 1]) {
      const { blobId, contentType, totalBytes, totalChunks, contentHash } = png;
      const r = await send(c, alice, {
        type: 'SOCIAL_BLOB',
        blobId,
        contentType,
        totalBytes,
        totalChunks,
        chunkIndex: i,
        contentHash,
        chunkDataBase64: png.chunks[i],
      });
      assert.equal(r.res.status, 200, JSON.stringify(r.body));
      await c.produce();
    }
    const blob = await c.app.request(`/api/social/blob/${png.blobId}`);
    assert.deepEqual([blob.status, blob.headers.get('content-type'), blob.headers.get('etag')], [200, 'image/png', `"${png.contentHash}"`]);
    assert.equal(blob.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.deepEqual(new Uint8Array(await blob.arrayBuffer()), bytesOf(120_000, 'png'));
    const again = await c.app.request(`/api/social/blob/${png.blobId}`, { headers: { 'If-None-Match': `"${png.contentHash}"` } });
    assert.equal(again.status, 304);

    const incomplete = testBlob(bytesOf(10, 'x'), 5);
    const refused = await send(c, alice, { type: 'SOCIAL_POST_CREATE', postId: 'bad', body: 'x', blobIds: [incomplete.blobId] });
    assert.deepEqual([refused.res.status, refused.body.code], [422, 'VALIDATION_FAILED']);
    await send(c, alice, { type: 'SOCIAL_POST_CREATE', postId: 'hello', body: 'first post', blobIds: [png.blobId] });
    await send(c, alice, { type: 'SOCIAL_PROFILE_SET', displayName: 'Alice ✨', bio: 'posts pictures', avatarBlobId: png.blobId });
    await c.produce();
    await send(c, bob, { type: 'SOCIAL_POST_CREATE', postId: 'reply', body: 'nice', blobIds: [], parentPostId: 'hello' });
    await send(c, carol, { type: 'SOCIAL_REACTION_SET', targetPostId: 'hello', reaction: 'like', enabled: true });
    const pending = await send(c, bob, { type: 'SOCIAL_LIKE_INTENT', author: alice.address, postId: 'hello', tokens: 400 });
    const dm = {
      type: 'SOCIAL_DM_SEND',
      dmId: 'dm-1',
      recipient: bob.address,
      ciphertext: Buffer.from('sealed box bytes').toString('base64'),
      nonceHex: 'cd'.repeat(24),
      ephemeralPubKey: 'ef'.repeat(32),
      contentHash: 'ab'.repeat(32),
      blobIds: [],
    };
    const sent = await send(c, alice, dm);
    await c.produce();
    // The recipient's address history shows the message it was named in, as the sender's does.
    const inbox = (await get(c, `/api/address/${bob.address}/txs`)).body;
    assert.ok(
      inbox.txs.some((x: { hash: string }) => x.hash === sent.hash),
      "the DM is in the recipient's history",
    );

    const queue = (await get(c, `/api/social/queue/${alice.address}`)).body;
    assert.deepEqual([queue.count, queue.intents[0].intentId, queue.intents[0].status], [1, pending.hash, 'pending']);
    assert.equal('seq' in queue.intents[0], false);
    await send(c, bob, { type: 'SOCIAL_FOLLOW_SET', targetAddress: alice.address, enabled: true });
    await c.produce();
    const paid = await send(c, bob, { type: 'SOCIAL_LIKE_INTENT', author: alice.address, postId: 'hello', tokens: 5 });
    await c.produce();

    assert.deepEqual((await get(c, '/api/social/caps')).body, { ...LIKE_CAPS });
    const feed = (await get(c, '/api/social/feed?limit=1')).body;
    assert.deepEqual(
      feed.posts.map((p: { postId: string }) => p.postId),
      ['reply'],
    );
    const post = (await get(c, '/api/social/post/hello')).body;
    assert.deepEqual([post.author, post.body, post.blobIds, post.likeCount], [alice.address, 'first post', [png.blobId], 2]);
    assert.deepEqual(post.likes.map((l: { kind: string; address: string }) => [l.kind, l.address]).sort(), [
      ['intent', bob.address],
      ['intent', bob.address],
      ['reaction', carol.address],
    ]);
    const reply = (await get(c, '/api/social/post/reply')).body;
    assert.equal(reply.parentPostId, 'hello');
    const timeline = (await get(c, `/api/social/author/${alice.address.toUpperCase().replace('OX', 'ox')}/posts`)).body;
    assert.deepEqual([timeline.author, timeline.count, timeline.posts[0].postId], [alice.address, 1, 'hello']);
    assert.deepEqual((await get(c, `/api/social/subscriptions/${bob.address}`)).body, {
      subscriber: bob.address,
      count: 1,
      subscriptions: [alice.address],
    });
    assert.deepEqual((await get(c, `/api/social/queue/${alice.address}`)).body, { author: alice.address, count: 0, intents: [] });
    assert.deepEqual((await get(c, `/api/social/intents/${pending.hash}`)).body.status, 'paid');
    assert.deepEqual((await get(c, `/api/social/intents/${paid.hash}`)).body.status, 'paid');
    for (const who of [alice, bob]) {
      const box = (await get(c, `/api/social/dms/${who.address}`)).body;
      assert.deepEqual([box.count, box.messages[0].ciphertext, box.messages[0].from], [1, dm.ciphertext, alice.address]);
    }
    assert.deepEqual((await get(c, `/api/social/profile/${alice.address}`)).body, {
      address: alice.address,
      displayName: 'Alice ✨',
      bio: 'posts pictures',
      avatarBlobId: png.blobId,
    });
    // The account answer carries the profile (the explorer's address page reads it there), and none without one.
    assert.deepEqual(
      (await get(c, `/api/chain/account/${alice.address}`)).body.profile,
      (await get(c, `/api/social/profile/${alice.address}`)).body,
    );
    assert.ok(!('profile' in (await get(c, `/api/chain/account/${bob.address}`)).body));
  } finally {
    await c.destroy();
  }
});

test('unknown ids answer 404, junk parameters 400, and an incomplete blob is not served', async () => {
  const c = await openTestChain();
  try {
    const cases: [string, number][] = [
      ['/api/social/post/nope', 404],
      ['/api/social/post/bad%20id', 400],
      [`/api/social/intents/${'ab'.repeat(32)}`, 404],
      ['/api/social/intents/xyz', 400],
      [`/api/social/profile/${alice.address}`, 404],
      ['/api/social/profile/ox12', 400],
      [`/api/social/blob/${'cd'.repeat(32)}`, 404],
      ['/api/social/feed?limit=-1', 400],
      [`/api/social/dms/${alice.address}?offset=x`, 400],
    ];
    for (const [path, status] of cases) {
      const { res, body } = await get(c, path);
      assert.equal(res.status, status, path);
      assert.ok(typeof body.error === 'string' && typeof body.code === 'string', path);
    }
    const feed = (await get(c, '/api/social/feed?limit=1000')).body;
    assert.deepEqual(feed, { count: 0, posts: [] });
  } finally {
    await c.destroy();
  }
});
