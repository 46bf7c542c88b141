/**
 * Uploads and claims at admission and from fork 7: keys with no balance send nothing, the byte
 * floor prices what is not a chunk,
 * pending claims cannot be front-run, chunk bytes in the pool are bounded per sender and overall,
 * and from fork 7 a claim pays CLAIM_MIN_FEE_V7.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLAIM_MIN_FEE_V7 } from '../../../core/economics.ts';
import { ChainError } from '../../../core/errors.ts';
import { parseGenesis } from '../../../core/genesis.ts';
import { DEV_MNEMONIC, keyPairFromMnemonic, type KeyPair } from '../../../core/keys.ts';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { canonicalTx, signTx } from '../../../core/txCodec.ts';
import { forkOverridesFromEnv } from '../../../cli/forks.ts';
import { testnetGenesis } from '../../../cli/testnet.ts';
import { bytesOf, testBlob, type TestBlob } from '../../helpers/blobKit.ts';
import { DEV_KEYS, fixtureGenesis, openTestChain, type TestChain } from '../../helpers/testChain.ts';

/** Keys with no allocation. */
const fresh = (i: number) => keyPairFromMnemonic(DEV_MNEMONIC, 100 + i);

function sign(c: TestChain, key: KeyPair, nonce: number, body: Record<string, unknown>, fee = '0'): SignedTx {
  return signTx({ ...body, type: String(body.type), from: key.address, fee, nonce, timestamp: c.now() }, key) as SignedTx;
}

const blobStart = (b: TestBlob, index = 0) => ({
  type: 'SOCIAL_BLOB',
  blobId: b.blobId,
  contentType: b.contentType,
  totalBytes: b.totalBytes,
  totalChunks: b.totalChunks,
  contentHash: b.contentHash,
  chunkIndex: index,
  chunkDataBase64: b.chunks[index],
});
const blobInit = (b: TestBlob) => ({
  type: 'SOCIAL_BLOB_INIT',
  blobId: b.blobId,
  contentType: b.contentType,
  totalBytes: b.totalBytes,
  totalChunks: b.totalChunks,
  contentHash: b.contentHash,
});

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'admitted';
  } catch (e) {
    if (e instanceof ChainError) return e.code;
    throw e;
  }
}

test('fee-0 claims and uploads from 30 keys with no balance are all refused and the pool stays empty', async () => {
  const c = await openTestChain();
  try {
    const answers: string[] = [];
    for (let i = 0; i < 10; i++) {
      const b = testBlob(bytesOf(2000, `unfunded${i}`), 1000);
      answers.push(await code(c.node.submitTx(sign(c, fresh(i), 0, blobStart(b)))));
      answers.push(await code(c.node.submitTx(sign(c, fresh(i + 10), 0, blobInit(b)))));
      answers.push(await code(c.node.submitTx(sign(c, fresh(i + 20), 0, { type: 'WEB_SITE_REGISTER', siteId: `site${i}`, name: 'x' }))));
    }
    assert.deepEqual([...new Set(answers)], ['INSUFFICIENT_BALANCE'], answers.join(','));
    assert.equal(c.node.mempool.size, 0);
    // A key with a balance may still claim for free before fork 7 (the dev genesis does not schedule it).
    assert.equal(
      await code(c.node.submitTx(sign(c, DEV_KEYS[1], 0, { type: 'WEB_SITE_REGISTER', siteId: 'paid', name: 'x' }))),
      'admitted',
    );
  } finally {
    await c.destroy();
  }
});

test('a key with no balance sends nothing: fee-0 posts, profiles, follows and likes are refused and the pool stays empty', async () => {
  const c = await openTestChain();
  try {
    const answers: string[] = [];
    for (let i = 0; i < 10; i++) {
      const key = fresh(40 + i);
      const bodies = [
        { type: 'SOCIAL_POST_CREATE', postId: `free${i}`, body: 'x'.repeat(16_384), blobIds: [] },
        { type: 'SOCIAL_PROFILE_SET', displayName: `free ${i}`, bio: 'y'.repeat(280) },
        { type: 'SOCIAL_FOLLOW_SET', targetAddress: DEV_KEYS[1].address, enabled: true },
      ];
      for (const body of bodies) answers.push(await code(c.node.submitTx(sign(c, key, 0, body))));
    }
    assert.deepEqual([...new Set(answers)], ['INSUFFICIENT_BALANCE'], answers.join(','));
    assert.equal(c.node.mempool.size, 0);
    // Funded with one micro-unit, the same key may post at fee 0 (no byte floor by default).
    await c.node.submitTx(c.transfer(1, fresh(40).address, 1n));
    await c.produce();
    const post = { type: 'SOCIAL_POST_CREATE', postId: 'funded', body: 'x'.repeat(16_384), blobIds: [] };
    assert.equal(await code(c.node.submitTx(sign(c, fresh(40), 0, post))), 'admitted');
  } finally {
    await c.destroy();
  }
});

test('the byte floor (minFeePerKB) refuses a fee below it per 1,000 bytes, rounded up; chunks are exempt', async () => {
  const c = await openTestChain({ mempool: { minFeePerKB: 100n } });
  try {
    const key = DEV_KEYS[1];
    const post = (nonce: number, fee: string) =>
      sign(c, key, nonce, { type: 'SOCIAL_POST_CREATE', postId: `p${nonce}${fee}`, body: 'x'.repeat(16_384), blobIds: [] }, fee);
    const floorOf = (fee: string) => Math.ceil((Buffer.byteLength(JSON.stringify(canonicalTx(post(0, fee)))) * 100) / 1000);
    // The fee's own digits count in the bytes: the least fee that covers its own transaction.
    let fee = floorOf('0');
    while (fee < floorOf(String(fee))) fee++;
    assert.ok(fee > 1640, `a 16 KB post needs more than 1,640 micro-units at 100 per KB: ${fee}`);
    assert.equal(await code(c.node.submitTx(post(0, '0'))), 'VALIDATION_FAILED');
    assert.equal(await code(c.node.submitTx(post(0, String(fee - 1)))), 'VALIDATION_FAILED');
    assert.equal(await code(c.node.submitTx(post(0, String(fee)))), 'admitted');
    // A chunk's bytes are priced by storage and the upload budgets, not by the byte floor.
    const b = testBlob(bytesOf(2000, 'floor'), 1000);
    assert.equal(await code(c.node.submitTx(sign(c, key, 1, blobStart(b)))), 'admitted');
    assert.equal(c.node.mempool.size, 2);
  } finally {
    await c.destroy();
  }
});

test('a blob id or site id claimed by a pending transaction cannot be taken by another sender, whatever its fee', async () => {
  const c = await openTestChain();
  try {
    const b = testBlob(bytesOf(2000, 'front'), 1000);
    await c.node.submitTx(sign(c, DEV_KEYS[1], 0, blobInit(b)));
    await c.node.submitTx(sign(c, DEV_KEYS[1], 1, { type: 'WEB_SITE_REGISTER', siteId: 'mine', name: 'x' }));
    const thief = DEV_KEYS[2];
    assert.equal(await code(c.node.submitTx(sign(c, thief, 0, blobInit(b), '1000000'))), 'VALIDATION_FAILED');
    assert.equal(await code(c.node.submitTx(sign(c, thief, 0, blobStart(b), '1000000'))), 'VALIDATION_FAILED');
    assert.equal(
      await code(c.node.submitTx(sign(c, thief, 0, { type: 'WEB_SITE_REGISTER', siteId: 'mine', name: 'y' }, '1000000'))),
      'VALIDATION_FAILED',
    );
    await c.produce();
    const blob = c.node.state().records.blobs.get(b.blobId) as { owner: string };
    assert.equal(blob.owner, DEV_KEYS[1].address, 'the first claimant owns the blob id');
    // Once the claim left the pool, the id is no longer held by the pool: the chain refuses the thief.
    assert.equal(await code(c.node.submitTx(sign(c, thief, 0, blobInit(b), '1000000'))), 'VALIDATION_FAILED');
    assert.equal(c.node.mempool.size, 0);
  } finally {
    await c.destroy();
  }
});

test('chunk bytes in the pool are bounded per sender, and a full chunk budget evicts only lower-fee chunks of others', async () => {
  const c = await openTestChain({ mempool: { maxUploadBytesPerSender: 3 * 1024 * 1024, maxUploadBytes: 5 * 1024 * 1024 } });
  try {
    const big = (i: number) => testBlob(bytesOf(8 * 400_000, `big${i}`), 400_000);
    const a = big(1);
    // One chunk is ~533 KB of base64: five fit a sender's 3 MiB, the sixth does not.
    const sent: string[] = [];
    for (let i = 0; i < 6; i++) sent.push(await code(c.node.submitTx(sign(c, DEV_KEYS[1], i, blobStart(a, i)))));
    assert.deepEqual(sent, ['admitted', 'admitted', 'admitted', 'admitted', 'admitted', 'MEMPOOL_FULL']);
    const b = big(2);
    const more: string[] = [];
    for (let i = 0; i < 5; i++) more.push(await code(c.node.submitTx(sign(c, DEV_KEYS[2], i, blobStart(b, i)))));
    assert.deepEqual(more, ['admitted', 'admitted', 'admitted', 'admitted', 'MEMPOOL_FULL'], 'the overall 5 MiB is full at nine chunks');
    assert.ok(c.node.mempool.uploadBytes <= 5 * 1024 * 1024);
    // A higher fee takes the room of the lowest-fee chunk at a run's tail.
    const d = big(3);
    assert.equal(await code(c.node.submitTx(sign(c, DEV_KEYS[3], 0, blobStart(d, 0), '10'))), 'admitted');
    assert.equal(c.node.mempool.size, 9);
    assert.ok(c.node.mempool.uploadBytes <= 5 * 1024 * 1024);
  } finally {
    await c.destroy();
  }
});

test('from fork 7 (genesis forks.7, or OMBRA_FORK_HEIGHT_V7) a claim pays CLAIM_MIN_FEE_V7; chunks of a started blob do not', async () => {
  const genesis = fixtureGenesis();
  const withV7 = parseGenesis({ ...genesis, forks: { ...genesis.forks, 7: 2 } });
  assert.equal(withV7.forks[7], 2);
  assert.throws(() => parseGenesis({ ...genesis, forks: { ...genesis.forks, 7: -1 } }), /forks.7 must be a block height/);
  assert.deepEqual(forkOverridesFromEnv({ OMBRA_FORK_HEIGHT_V7: '12' }), { 7: 12 });
  const c = await openTestChain({ genesis: withV7 });
  try {
    const key = DEV_KEYS[1];
    const b = testBlob(bytesOf(2000, 'v7'), 1000);
    // Height 1 is before the fork: a free claim is still valid.
    assert.equal(await code(c.node.submitTx(sign(c, key, 0, { type: 'WEB_SITE_REGISTER', siteId: 'early', name: 'x' }))), 'admitted');
    await c.produce();
    assert.equal(c.node.nextHeight(), 2);
    const below = String(CLAIM_MIN_FEE_V7 - 1n);
    for (const body of [blobStart(b), blobInit(b), { type: 'WEB_SITE_REGISTER', siteId: 'late', name: 'x' }])
      assert.equal(await code(c.node.submitTx(sign(c, key, 1, body, below))), 'VALIDATION_FAILED', String(body.type));
    await c.node.submitTx(sign(c, key, 1, blobStart(b), String(CLAIM_MIN_FEE_V7)));
    await c.produce();
    assert.equal(
      await code(c.node.submitTx(sign(c, key, 2, blobStart(b, 1)))),
      'admitted',
      'the chunk that only adds to its blob claims nothing',
    );
    await c.produce();
    assert.equal((c.node.state().records.blobs.get(b.blobId) as { status: string }).status, 'complete');
  } finally {
    await c.destroy();
  }
});

test('`ombra testnet` schedules fork 7 at genesis: a fee-0 claim from a funded key is refused from block 1', async () => {
  const genesis = parseGenesis(testnetGenesis(1, 1000, 'claims', Date.now()));
  assert.equal(genesis.forks[7], 0);
  const c = await openTestChain({ genesis });
  try {
    const site = (siteId: string) => ({ type: 'WEB_SITE_REGISTER', siteId, name: 'x' });
    assert.equal(await code(c.node.submitTx(sign(c, DEV_KEYS[1], 0, site('free')))), 'VALIDATION_FAILED');
    assert.equal(await code(c.node.submitTx(sign(c, DEV_KEYS[1], 0, site('paid'), String(CLAIM_MIN_FEE_V7)))), 'admitted');
  } finally {
    await c.destroy();
  }
});
