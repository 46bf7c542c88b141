import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BLOB_EXPIRY_MS, BLOB_MAX_PENDING_BYTES, BLOBS } from '../../../core/tx/social/socialBlob.ts';
import { chunkKey } from '../../../core/chunks.ts';
import type { ChainState } from '../../../core/state.ts';
import { StateOverlay } from '../../../core/stateOverlay.ts';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { validateTx } from '../../../core/validateTx.ts';
import { blobChunkTx, blobFinalizeTx, blobInitTx, blobPartTx, bytesOf, testBlob } from '../../helpers/blobKit.ts';
import { DEV_GENESIS, DEV_KEYS, refusal, supplyGap, TwoNodeChain } from '../../helpers/coreSupport.ts';

const [, alice, bob] = DEV_KEYS;

/** The refusal validation gives `tx` against the chain's state at its next block. */
function refused(chain: TwoNodeChain, tx: SignedTx) {
  const env = { height: chain.head.index + 1, timestamp: chain.head.timestamp + 1000, genesis: DEV_GENESIS };
  return refusal(() => validateTx(tx, { ...env, state: new StateOverlay(chain.receiver) }));
}

const chunksInState = (s: ChainState) => s.records.blobChunks.size;

test('self-describing chunks land out of order across blocks and the last one completes the blob', () => {
  const chain = new TwoNodeChain(DEV_GENESIS);
  const b = testBlob(bytesOf(1000), 300);
  assert.equal(b.totalChunks, 4);
  chain.next([blobChunkTx(alice, b, 2, 0), blobChunkTx(alice, b, 0, 1)]);
  assert.equal(chain.receiver.records.blobs.get(b.blobId)?.status, 'pending');
  assert.equal(chunksInState(chain.receiver), 2);
  assert.equal(chain.receiver.records.blobPending.get(alice.address)?.bytes, 1000);
  chain.next([blobChunkTx(alice, b, 3, 2)]);
  const { block } = chain.next([blobChunkTx(alice, b, 1, 3)]);
  assert.equal(block.transactions.length, 1);
  const u = chain.receiver.records.blobs.get(b.blobId)!;
  assert.deepEqual([u.status, u.received, u.receivedBytes, u.owner], ['complete', 4, 1000, alice.address]);
  assert.equal(chunksInState(chain.receiver), 0, 'chunks leave the state at completion');
  assert.equal(chain.receiver.records.blobPending.get(alice.address), undefined, 'the pending reservation is released');
  assert.deepEqual(chain.proposer.records.blobs.get(b.blobId), u, 'proposer and receiver agree');
  assert.equal(supplyGap(chain.receiver), 0n);
});

test('a blob of one chunk completes in its one transaction', () => {
  const chain = new TwoNodeChain(DEV_GENESIS);
  const b = testBlob(bytesOf(10), 400_000);
  chain.next([blobChunkTx(alice, b, 0, 0)]);
  assert.equal(chain.receiver.records.blobs.get(b.blobId)?.status, 'complete');
  assert.equal(chunksInState(chain.receiver), 0);
});

test('the three-step form: INIT, chunks in any order, FINALIZE checks length and hash', () => {
  const chain = new TwoNodeChain(DEV_GENESIS);
  const b = testBlob(bytesOf(700), 250);
  assert.deepEqual(refused(chain, blobPartTx(alice, b, 0, 0)), { code: 'VALIDATION_FAILED', message: `blob ${b.blobId} was not started` });
  chain.next([blobInitTx(alice, b, 0)]);
  chain.next([blobPartTx(alice, b, 2, 1), blobPartTx(alice, b, 0, 2)]);
  assert.deepEqual(refused(chain, blobFinalizeTx(alice, b, 3)), {
    code: 'VALIDATION_FAILED',
    message: `blob ${b.blobId} is missing chunk 1 of 3`,
  });
  chain.next([blobPartTx(alice, b, 1, 3)]);
  assert.equal(chain.receiver.records.blobs.get(b.blobId)?.status, 'pending', 'the last chunk of the three-step form waits for FINALIZE');
  chain.next([blobFinalizeTx(alice, b, 4)]);
  assert.equal(chain.receiver.records.blobs.get(b.blobId)?.status, 'complete');
  assert.equal(chunksInState(chain.receiver), 0);
  assert.deepEqual(refused(chain, blobInitTx(alice, b, 5)).message, `blob ${b.blobId} was already started`);
});

test('a completing chunk whose bytes hash to something else is refused, and nothing of it is stored', () => {
  const chain = new TwoNodeChain(DEV_GENESIS);
  const b = testBlob(bytesOf(600), 300);
  chain.next([blobChunkTx(alice, b, 0, 0)]);
  const bad = blobChunkTx(alice, b, 1, 1, Buffer.from(bytesOf(300, 'other')).toString('base64'));
  assert.deepEqual(refused(chain, bad), {
    code: 'VALIDATION_FAILED',
    message: `blob ${b.blobId}: SHA-256 of its bytes is not contentHash ${b.contentHash}`,
  });
  const { block, dropped } = chain.next([bad]);
  assert.deepEqual([block.transactions.length, dropped.length], [0, 1]);
  assert.equal(chain.receiver.records.blobs.get(b.blobId)?.received, 1);
  chain.next([blobChunkTx(alice, b, 1, 1)]);
  assert.equal(chain.receiver.records.blobs.get(b.blobId)?.status, 'complete', 'the right bytes still complete it');
});

test('hostile chunks are refused: duplicate, beyond totalChunks, overflowing totalBytes, another uploader, another header', () => {
  const chain = new TwoNodeChain(DEV_GENESIS);
  const b = testBlob(bytesOf(900), 300);
  chain.next([blobChunkTx(alice, b, 0, 0)]);
  assert.deepEqual(refused(chain, blobChunkTx(alice, b, 0, 1)).message, `chunk 0 of blob ${b.blobId} already landed`);
  assert.deepEqual(refused(chain, blobPartTx(alice, b, 0, 1)).message, `chunk 0 of blob ${b.blobId} already landed`);
  assert.deepEqual(refused(chain, blobPartTx(alice, b, 3, 1, b.chunks[1])).message, 'chunkIndex 3 is beyond totalChunks 3');
  const big = Buffer.from(bytesOf(700)).toString('base64');
  assert.match(refused(chain, blobPartTx(alice, b, 1, 1, big)).message, /beyond totalBytes 900/);
  assert.deepEqual(refused(chain, blobChunkTx(bob, b, 1, 0)).message, `blob ${b.blobId} belongs to ${alice.address}`);
  assert.deepEqual(refused(chain, blobPartTx(bob, b, 1, 0)).message, `blob ${b.blobId} belongs to ${alice.address}`);
  assert.deepEqual(refused(chain, blobFinalizeTx(bob, b, 0)).message, `blob ${b.blobId} belongs to ${alice.address}`);
  const other = { ...b, contentType: 'image/png' };
  assert.deepEqual(refused(chain, blobChunkTx(alice, other, 1, 1)).message, `blob ${b.blobId} was started with another header`);
  const tooMany = { ...testBlob(bytesOf(3), 1), totalChunks: 4 };
  assert.match(refused(chain, blobChunkTx(alice, tooMany, 0, 1)).message, /totalChunks 4 exceeds totalBytes 3/);
});

test('an oversized or non-canonical chunk is refused by its schema (INVALID_PARAMS)', () => {
  const chain = new TwoNodeChain(DEV_GENESIS);
  const b = testBlob(bytesOf(400_001), 400_001);
  assert.equal(refused(chain, blobChunkTx(alice, b, 0, 0)).code, 'INVALID_PARAMS');
  const small = testBlob(bytesOf(1), 1);
  assert.equal(refused(chain, blobChunkTx(alice, small, 0, 0, 'QR==')).code, 'INVALID_PARAMS', 'stray bits');
  assert.equal(refused(chain, blobChunkTx(alice, small, 0, 0, 'QQ')).code, 'INVALID_PARAMS', 'unpadded');
  assert.equal(refused(chain, blobChunkTx(alice, small, 0, 0, '')).code, 'INVALID_PARAMS', 'empty');
});

test("an account's pending uploads may declare at most 64 MiB at once", () => {
  const chain = new TwoNodeChain(DEV_GENESIS);
  const declare = (id: string, totalBytes: number) => ({
    blobId: id.repeat(64),
    contentType: 'video/mp4',
    totalBytes,
    totalChunks: 1_000,
    contentHash: 'ab'.repeat(32),
    chunks: [],
  });
  chain.next([blobInitTx(alice, declare('a', 50_000_000), 0)]);
  const over = declare('b', BLOB_MAX_PENDING_BYTES - 50_000_000 + 1);
  assert.match(refused(chain, blobInitTx(alice, over, 1)).message, /more than 67108864/);
  chain.next([blobInitTx(alice, declare('b', BLOB_MAX_PENDING_BYTES - 50_000_000), 1)]);
  assert.equal(chain.receiver.records.blobPending.get(alice.address)?.bytes, BLOB_MAX_PENDING_BYTES);
  const bobs = declare('c', over.totalBytes);
  assert.equal(chain.next([blobInitTx(bob, bobs, 0)]).block.transactions.length, 1, 'another account has its own cap');
  assert.equal(chain.receiver.records.blobPending.get(bob.address)?.bytes, over.totalBytes);
});

test('an upload still pending a day after it started expires at the first block at or after that: chunks dropped, id kept', () => {
  const chain = new TwoNodeChain(DEV_GENESIS);
  const b = testBlob(bytesOf(600), 300);
  const start = chain.next([blobChunkTx(alice, b, 0, 0)]).block.timestamp;
  chain.next([], undefined, start + BLOB_EXPIRY_MS - 1000);
  assert.equal(chain.receiver.records.blobs.get(b.blobId)?.status, 'pending');
  const { received } = chain.next([], undefined, start + BLOB_EXPIRY_MS);
  const u = chain.receiver.records.blobs.get(b.blobId)!;
  assert.deepEqual([u.status, u.closedAt], ['expired', start + BLOB_EXPIRY_MS]);
  assert.equal(chunksInState(chain.receiver), 0);
  assert.deepEqual([...(received.diff.removed?.blobChunks ?? [])], [chunkKey(b.blobId, 0)]);
  assert.equal(chain.receiver.records.blobPending.get(alice.address), undefined);
  assert.deepEqual(refused(chain, blobChunkTx(alice, b, 1, 1)).message, `blob ${b.blobId} is expired`);
  assert.deepEqual(refused(chain, blobChunkTx(bob, b, 1, 0)).message, `blob ${b.blobId} belongs to ${alice.address}`);
  assert.ok(BLOBS.UPLOADS.isOpen?.(u) === false);
});
