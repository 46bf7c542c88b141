/**
 * The simulated miners' image and audio output: each answer is one of the real sample files of
 * fixtures/media, uploaded as a blob (SOCIAL_BLOB chunks, last chunk first) whose id is the
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

/** The SOCIAL_BLOB transactions (fields) that upload an answer, in chunks of a third of it, last chunk first. */
export function blobUpload(a: MediaAnswer): (Record<string, unknown> & { type: string })[] {
  const c = chunkContent(a.bytes, Math.ceil(a.bytes.length / 3));
  const order = [c.totalChunks - 1, ...c.chunks.keys()].slice(0, c.totalChunks);
  return order.map((chunkIndex) => ({
    type: 'SOCIAL_BLOB',
    blobId: a.blobId,
    contentType: contentTypeOf(a.facts.format),
    totalBytes: c.totalBytes,
    totalChunks: c.totalChunks,
    chunkIndex,
    contentHash: c.contentHash,
    chunkDataBase64: c.chunks[chunkIndex],
    fee: '100',
  }));
}

/** The IMAGE_MINT / AUDIO_MINT of the winning answer. */
export function mediaMint(
  a: MediaAnswer,
  m: { taskId: string; minerId: string; seedHash: string; owner: string; model: string },
): Record<string, unknown> & { type: string } {
  const { facts, blobId } = a;
  const head = { tokenId: mediaTokenId(m.taskId, blobId, facts), blobId };
  const task = { owner: m.owner, taskId: m.taskId, minerId: m.minerId, seedHash: m.seedHash, model: m.model, fee: '1000' };
  if ('width' in facts) return { type: 'IMAGE_MINT', ...head, format: facts.format, width: facts.width, height: facts.height, ...task };
  return { type: 'AUDIO_MINT', ...head, format: facts.format, durationMs: facts.durationMs, sampleRate: facts.sampleRate, ...task };
}
