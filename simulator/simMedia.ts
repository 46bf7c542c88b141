/**
 * The simulated miners' image and audio output: each answer is one of the real sample files of
 * fixtures/media, uploaded as a blob (chunks, last chunk first) whose id is the
 * answer's content; the submitter then mints it with the facts the node will read from it.
 */
import { readFileSync } from 'node:fs';
import { sha256Hex } from '../core/hash.ts';
import { contentTypeOf, type MediaFacts, mediaFacts } from '../core/media/mediaFacts.ts';
import { mediaTokenId } from '../core/tx/media.ts';
import { chunkContent } from '../core/upload.ts';

const DIR = new URL('../fixtures/media/', import.meta.url);
const FILES = Object.keys(JSON.parse(readFileSync(new URL('expected.json', DIR), 'utf8')) as Record<string, unknown>).sort();

/** One miner's media answer to one task. */
export interface MediaAnswer {
  blobId: string;
  bytes: Uint8Array;
  facts: MediaFacts;
}

/** The sample file a miner answers an `image` or `audio` task with, and the blob id it uploads it under. */
export function minerMedia(taskType: 'image' | 'audio', prompt: string, minerId: string): MediaAnswer {
  const h = sha256Hex(prompt + minerId);
  const files = FILES.filter((f) => f.startsWith(`${taskType}`));
  const name = files[parseInt(h.slice(0, 8), 16) % files.length];
  const bytes = new Uint8Array(readFileSync(new URL(name, DIR)));
  return { blobId: sha256Hex(`sim-blob:${h}`), bytes, facts: mediaFacts(bytes) };
}

type Fields = Record<string, unknown> & { type: string };

/**
 * The transactions (fields) that upload an answer in chunks of a third of it, last chunk first, in
 * steps that each wait for the previous one to confirm: self-describing SOCIAL_BLOB chunks (one
 * step), or for half of the blob ids the live network's SOCIAL_BLOB_INIT, then its
 * SOCIAL_BLOB_CHUNKs, then SOCIAL_BLOB_FINALIZE (a chunk needs its upload started, and FINALIZE
 * its chunks landed, in confirmed state).
 */
export function blobUpload(a: MediaAnswer): Fields[][] {
  const c = chunkContent(a.bytes, Math.ceil(a.bytes.length / 3));
  const order = [c.totalChunks - 1, ...c.chunks.keys()].slice(0, c.totalChunks);
  const header = { blobId: a.blobId, contentType: contentTypeOf(a.facts.format), totalBytes: c.totalBytes, totalChunks: c.totalChunks };
  const fee = '100';
  if (parseInt(a.blobId.slice(-1), 16) % 2 === 0)
    return [
      order.map((chunkIndex) => ({
        type: 'SOCIAL_BLOB',
        ...header,
        chunkIndex,
        contentHash: c.contentHash,
        chunkDataBase64: c.chunks[chunkIndex],
        fee,
      })),
    ];
  return [
    [{ type: 'SOCIAL_BLOB_INIT', ...header, contentHash: c.contentHash, fee }],
    order.map((chunkIndex) => ({ type: 'SOCIAL_BLOB_CHUNK', blobId: a.blobId, chunkIndex, chunkDataBase64: c.chunks[chunkIndex], fee })),
    [{ type: 'SOCIAL_BLOB_FINALIZE', blobId: a.blobId, fee }],
  ];
}

/** The IMAGE_MINT / AUDIO_MINT of the winning answer. */
export function mediaMint(a: MediaAnswer, m: { taskId: string; minerId: string; seedHash: string; owner: string; model: string }): Fields {
  const { facts, blobId } = a;
  const head = { tokenId: mediaTokenId(m.taskId, blobId, facts), blobId };
  const task = { owner: m.owner, taskId: m.taskId, minerId: m.minerId, seedHash: m.seedHash, model: m.model, fee: '1000' };
  if ('width' in facts) return { type: 'IMAGE_MINT', ...head, format: facts.format, width: facts.width, height: facts.height, ...task };
  return { type: 'AUDIO_MINT', ...head, format: facts.format, durationMs: facts.durationMs, sampleRate: facts.sampleRate, ...task };
}
