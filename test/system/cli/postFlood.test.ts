/**
 * Issue 34 row 7 against a real `ombra start` process: fee-0 16 KB posts from keys with no
 * balance are all refused (400 INSUFFICIENT_BALANCE) and nothing reaches a block, and under
 * `--min-fee-per-kb` a funded key's post pays its bytes (docs/economy.md "Claims and uploads").
 * test/bench/freePosts.ts measures the same flood for 60 s.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEV_MNEMONIC, keyPairFromMnemonic, type KeyPair } from '../../../core/keys.ts';
import { canonicalTx, signTx } from '../../../core/txCodec.ts';
import { startNodeProcess, waitFor, type NodeProcess } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS, tempDir } from '../../helpers/testChain.ts';

const tmp = tempDir('ombra-flood-');
let node: NodeProcess;

before(async () => {
  node = await startNodeProcess(
    ['--dev', '--data-dir', join(tmp.dir, 'data'), '--rate-limits', 'off', '--min-fee-per-kb', '100'],
    {},
    60_000,
  );
});
after(async () => {
  node?.child.kill('SIGTERM');
  await node?.exited;
  tmp.cleanup();
});

const post = async (tx: unknown) => {
  const res = await fetch(`${node.url}/api/chain/tx`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(tx),
  });
  return { status: res.status, body: (await res.json()) as { code?: string; error?: string; hash?: string } };
};
const postTx = (key: KeyPair, nonce: number, fee: string) =>
  signTx(
    {
      type: 'SOCIAL_POST_CREATE',
      from: key.address,
      postId: `${key.address.slice(2, 10)}n${nonce}f${fee}`,
      body: randomBytes(12_288).toString('base64'),
      blobIds: [],
      fee,
      nonce,
      timestamp: Date.now(),
    },
    key,
  );

test('200 fee-0 16 KB posts from 10 keys with no balance: every one 400 INSUFFICIENT_BALANCE, none in the pool or a block', async () => {
  const keys = Array.from({ length: 10 }, (_, i) => keyPairFromMnemonic(DEV_MNEMONIC, 7000 + i));
  const answers = new Map<string, number>();
  await Promise.all(
    keys.map(async (key) => {
      for (let nonce = 0; nonce < 20; nonce++) {
        const r = await post(postTx(key, 0, '0'));
        const k = `${r.status} ${r.body.code}`;
        answers.set(k, (answers.get(k) ?? 0) + 1);
      }
    }),
  );
  assert.deepEqual([...answers], [['400 INSUFFICIENT_BALANCE', 200]]);
  const pending = (await (await fetch(`${node.url}/api/mempool`)).json()) as { total: number };
  assert.equal(pending.total, 0, JSON.stringify(pending));
  for (const key of keys.slice(0, 3)) {
    const posts = (await (await fetch(`${node.url}/api/social/author/${key.address}/posts`)).json()) as { count: number };
    assert.equal(posts.count, 0);
  }
});

test('under --min-fee-per-kb 100 a funded fee-0 16 KB post is refused, and admitted once it pays its bytes', async () => {
  const key = DEV_KEYS[2];
  const nonce = ((await (await fetch(`${node.url}/api/wallet/balance/${key.address}`)).json()) as { nonce: number }).nonce;
  const free = await post(postTx(key, nonce, '0'));
  assert.equal(free.status, 422, JSON.stringify(free.body));
  assert.equal(free.body.code, 'VALIDATION_FAILED');
  assert.match(free.body.error ?? '', /per 1,000 bytes/);
  const probe = postTx(key, nonce, '0');
  const floor = Math.ceil((Buffer.byteLength(JSON.stringify(canonicalTx(probe))) * 100) / 1000) + 10;
  const paid = await post(postTx(key, nonce, String(floor)));
  assert.equal(paid.status, 200, JSON.stringify(paid.body));
  await waitFor(
    async () => {
      const r = (await (await fetch(`${node.url}/api/chain/tx/${paid.body.hash}`)).json()) as { status?: string };
      return r.status === 'confirmed' ? true : undefined;
    },
    30_000,
    100,
  );
});
