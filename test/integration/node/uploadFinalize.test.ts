/**
 * Completing an upload at admission costs the chunks landed since the last check, not the whole
 * upload each time, and a sender whose completions keep failing is rate-bounded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChainError } from '../../../core/errors.ts';
import { MempoolPolicyError } from '../../../node/mempool/mempoolOptions.ts';
import { blobChunkTx, blobFinalizeTx, blobInitTx, blobPartTx, bytesOf, testBlob } from '../../helpers/blobKit.ts';
import { DEV_KEYS, openTestChain, type TestChain } from '../../helpers/testChain.ts';

/** Counts reads of pending blob chunks from the node's state while `fn` runs. */
async function chunkReads(c: TestChain, fn: () => Promise<unknown>): Promise<number> {
  const map = c.node.state().records.blobChunks as Map<string, unknown>;
  let n = 0;
  map.get = function (k: string) {
    n++;
    return Map.prototype.get.call(this, k);
  };
  try {
    await fn();
  } finally {
    delete (map as Partial<Map<string, unknown>>).get;
  }
  return n;
}

async function refusal(p: Promise<unknown>): Promise<ChainError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ChainError) return e;
    throw e;
  }
  throw new Error('admitted');
}

test('a repeated FINALIZE of a blob whose hash is wrong reads no chunk after the first refusal, and the fifth is RATE_LIMITED', async () => {
  const c = await openTestChain();
  try {
    const key = DEV_KEYS[1];
    const b = { ...testBlob(bytesOf(30_000, 'wrong'), 1000), contentHash: 'ab'.repeat(32) };
    let nonce = 0;
    await c.node.submitTx(blobInitTx(key, b, nonce++));
    await c.produce();
    for (let i = 0; i < b.totalChunks; i++) await c.node.submitTx(blobPartTx(key, b, i, nonce++));
    await c.produce();
    const first = await chunkReads(c, async () => {
      const e = await refusal(c.node.submitTx(blobFinalizeTx(key, b, nonce)));
      assert.equal(e.code, 'VALIDATION_FAILED');
      assert.match(e.message, /SHA-256 of its bytes is not contentHash/);
    });
    // Pending chunks live on disk (cacheCap 0): the first check reads each, misses, loads all in one round, reads again.
    assert.ok(first >= b.totalChunks && first <= 3 * b.totalChunks, `the first check reads every chunk (${first})`);
    for (let attempt = 2; attempt <= 4; attempt++) {
      const reads = await chunkReads(c, async () => {
        assert.equal((await refusal(c.node.submitTx(blobFinalizeTx(key, b, nonce)))).code, 'VALIDATION_FAILED');
      });
      assert.equal(reads, 0, `attempt ${attempt} reads no chunk`);
    }
    const limited = await refusal(c.node.submitTx(blobFinalizeTx(key, b, nonce)));
    assert.equal(limited.code, 'RATE_LIMITED');
    assert.ok(limited instanceof MempoolPolicyError, 'a policy refusal: gossip ignores it rather than scoring the relaying peer down');
    assert.equal(c.node.mempool.size, 0, 'no refused completion entered the pool');
    // The window passes: the sender may try again.
    c.advance(61_000);
    assert.equal((await refusal(c.node.submitTx(blobFinalizeTx(key, b, nonce)))).code, 'VALIDATION_FAILED');
  } finally {
    await c.destroy();
  }
});

test('a blob sent in order completes with its last chunk after hashing only that chunk at admission', async () => {
  const c = await openTestChain();
  try {
    const key = DEV_KEYS[2];
    const b = testBlob(bytesOf(20_000, 'right'), 1000);
    for (let i = 0; i < b.totalChunks - 1; i++) await c.node.submitTx(blobChunkTx(key, b, i, i));
    await c.produce();
    // A wrong last chunk is refused, then the right one admitted; the landed run is hashed once.
    const wrong = Buffer.alloc(1000, 7).toString('base64');
    const reads = [];
    reads.push(await chunkReads(c, () => refusal(c.node.submitTx(blobChunkTx(key, b, b.totalChunks - 1, b.totalChunks - 1, wrong)))));
    reads.push(await chunkReads(c, () => c.node.submitTx(blobChunkTx(key, b, b.totalChunks - 1, b.totalChunks - 1))));
    assert.ok(reads[0] >= b.totalChunks - 1 && reads[1] <= 2, `chunk reads ${reads}`);
    await c.produce();
    const u = c.node.state().records.blobs.get(b.blobId) as { status: string };
    assert.equal(u.status, 'complete');
  } finally {
    await c.destroy();
  }
});
