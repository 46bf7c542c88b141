/**
 * IMAGE_MINT / AUDIO_MINT claims against a blob's facts, drawn at random around the truth: a mint
 * passes the check exactly when its format, size or rate equal the file's, its duration is within
 * 50 ms or 1 %, and its token id is derived from its claims; every refusal is VALIDATION_FAILED.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { genesisState } from '../../../core/applyBlock.ts';
import { ChainError } from '../../../core/errors.ts';
import { sha256Hex } from '../../../core/hash.ts';
import { AUDIO_FORMATS, IMAGE_FORMATS, type MediaFacts, mediaFacts } from '../../../core/media/mediaFacts.ts';
import { StateOverlay } from '../../../core/stateOverlay.ts';
import type { SignedTx, TxContext } from '../../../core/tx/handler.ts';
import { mediaTokenId } from '../../../core/tx/media.ts';
import { TX_HANDLERS } from '../../../core/tx/registry.ts';
import { BLOBS } from '../../../core/tx/social/socialBlob.ts';
import { TASKS } from '../../../core/tx/task/task.ts';
import { FIXTURES } from '../../helpers/mediaFixtures.ts';
import { DEV_GENESIS, DEV_KEYS } from '../../helpers/coreSupport.ts';

const SUBMITTER = DEV_KEYS[1].address;
const MINER_ID = sha256Hex('miner');
const REWARD = sha256Hex('reward tx');
const ctx: TxContext = { height: 10, timestamp: DEV_GENESIS.timestamp + 10_000, genesis: DEV_GENESIS };

/** A state holding one rewarded task of `taskType` whose best answer is a complete blob of `bytes`. */
function stateWith(taskType: 'image' | 'audio', bytes: Uint8Array) {
  const s = new StateOverlay(genesisState(DEV_GENESIS).state);
  const blobId = sha256Hex(`blob:${sha256Hex(bytes)}`);
  const taskId = `task-${blobId.slice(0, 8)}`;
  s.put(TASKS, taskId, {
    taskId,
    submitter: SUBMITTER,
    taskType,
    prompt: 'make it',
    fee: '20000',
    timeoutMs: 60_000,
    submittedAt: DEV_GENESIS.timestamp,
    submitBlock: 1,
    submitTxHash: sha256Hex('submit'),
    status: 'rewarded',
    responses: [{ minerId: MINER_ID, miner: DEV_KEYS[2].address, contentHash: sha256Hex(blobId), txHash: sha256Hex('response') }],
    bestMinerId: MINER_ID,
    rewardTxHash: REWARD,
  });
  s.put(BLOBS.UPLOADS, blobId, {
    id: blobId,
    contentType: 'application/octet-stream',
    totalBytes: bytes.length,
    totalChunks: 1,
    contentHash: sha256Hex(bytes),
    owner: DEV_KEYS[2].address,
    status: 'complete',
    received: 1,
    receivedBytes: bytes.length,
    createdAt: DEV_GENESIS.timestamp,
    blockIndex: 2,
    txHash: sha256Hex('chunk'),
    media: mediaFacts(bytes),
  });
  return { s, blobId, taskId };
}

/** Runs the type's check on a mint claiming `claims`; true when it passes, false on VALIDATION_FAILED. */
function passes(s: StateOverlay, blobId: string, taskId: string, claims: MediaFacts): boolean {
  const type = 'width' in claims ? 'IMAGE_MINT' : 'AUDIO_MINT';
  const seedHash = sha256Hex(`make it${MINER_ID}${REWARD}`);
  const tx = {
    type,
    from: SUBMITTER,
    tokenId: mediaTokenId(taskId, blobId, claims),
    blobId,
    ...claims,
    owner: SUBMITTER,
    taskId,
    minerId: MINER_ID,
    seedHash,
  };
  try {
    TX_HANDLERS.get(type)!.check!(tx as unknown as SignedTx, s, ctx);
    return true;
  } catch (e) {
    assert.ok(e instanceof ChainError);
    assert.equal((e as ChainError).code, 'VALIDATION_FAILED');
    return false;
  }
}

const images = FIXTURES.filter((f) => 'width' in f.facts);
const audio = FIXTURES.filter((f) => 'sampleRate' in f.facts);

test("an image mint passes exactly when format, width and height are the file's", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...images),
      fc.constantFrom(...IMAGE_FORMATS),
      fc.integer({ min: -2, max: 2 }),
      fc.integer({ min: -2, max: 2 }),
      (f, format, dw, dh) => {
        const truth = f.facts as { format: string; width: number; height: number };
        const { s, blobId, taskId } = stateWith('image', f.bytes);
        const claims = { format, width: truth.width + dw, height: truth.height + dh };
        assert.equal(passes(s, blobId, taskId, claims), format === truth.format && dw === 0 && dh === 0);
      },
    ),
    { numRuns: 300 },
  );
});

test("an audio mint passes exactly when format and rate are the file's and the duration is within 50 ms or 1 %", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...audio),
      fc.constantFrom(...AUDIO_FORMATS),
      fc.boolean(),
      fc.integer({ min: -120, max: 120 }),
      (f, format, sameRate, dms) => {
        const truth = f.facts as { format: string; sampleRate: number; durationMs: number };
        const { s, blobId, taskId } = stateWith('audio', f.bytes);
        const durationMs = Math.max(0, truth.durationMs + dms);
        const claims = { format, sampleRate: sameRate ? truth.sampleRate : truth.sampleRate + 1, durationMs };
        const d = Math.abs(durationMs - truth.durationMs);
        const within = d <= Math.max(50, truth.durationMs / 100);
        assert.equal(passes(s, blobId, taskId, claims), format === truth.format && sameRate && within);
      },
    ),
    { numRuns: 300 },
  );
});

test('the 1 % tolerance takes over from 50 ms for files longer than 5 s', () => {
  const { s, blobId, taskId } = stateWith('audio', FIXTURES.find((f) => f.name === 'audio.wav')!.bytes);
  // Same state, a longer file's facts: put a 60 s duration on the blob record.
  const u = s.get(BLOBS.UPLOADS, blobId)!;
  s.put(BLOBS.UPLOADS, blobId, { ...u, media: { format: 'audio:wav', sampleRate: 8000, durationMs: 60_000 } });
  assert.ok(passes(s, blobId, taskId, { format: 'audio:wav', sampleRate: 8000, durationMs: 60_600 }));
  assert.ok(!passes(s, blobId, taskId, { format: 'audio:wav', sampleRate: 8000, durationMs: 60_601 }));
  assert.ok(passes(s, blobId, taskId, { format: 'audio:wav', sampleRate: 8000, durationMs: 59_400 }));
  assert.ok(!passes(s, blobId, taskId, { format: 'audio:wav', sampleRate: 8000, durationMs: 59_399 }));
});
