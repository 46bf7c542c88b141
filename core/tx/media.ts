/**
 * Image and audio NFTs: IMAGE_MINT (fourth fork) and AUDIO_MINT (fifth fork) mint the media a
 * rewarded `image` / `audio` task produced. The best response's content is the 64-hex id of a
 * complete blob; the blob store read the blob's own headers when it completed (core/media,
 * `Upload.media`), so the claims of a mint are checked here without touching its bytes.
 */
import { sha256Hex } from '../hash.ts';
import type { AudioFacts, ImageFacts, MediaFacts } from '../media/mediaFacts.ts';
import { AUDIO_FORMATS, IMAGE_FORMATS } from '../media/mediaFacts.ts';
import { defineRecord } from '../record.ts';
import { f, defineTx } from '../schema.ts';
import type { ArtNft } from './art.ts';
import { defineFamily } from './family.ts';
import { feeOf, payFee, refuse, type StateReader, txHandler } from './handler.ts';
import { BLOBS } from './social/socialBlob.ts';
import { checkSeedHash, checkTaskMint, markTaskMinted } from './task/taskMint.ts';

/** What every media NFT records besides its media facts: an art NFT's fields and its blob. */
interface MediaNftBase extends ArtNft {
  blobId: string;
}
/** An image NFT. */
export type ImageNft = MediaNftBase & ImageFacts;
/** An audio NFT (durationMs as the mint claimed it, within tolerance of the file's). */
export type AudioNft = MediaNftBase & AudioFacts;

/** Image NFT records, `ni:<tokenId>`. */
export const IMAGE_NFTS = defineRecord<ImageNft>()('imageNfts', { prefix: 'ni', id: 'tokenId', doc: 'image NFT' });
/** Audio NFT records, `na:<tokenId>`. */
export const AUDIO_NFTS = defineRecord<AudioNft>()('audioNfts', { prefix: 'na', id: 'tokenId', doc: 'audio NFT' });

const MAX_DIMENSION = 0x7fffffff;
const common = { fee: f.amount(), nonce: f.uint(), timestamp: f.uint() };
const task = { owner: f.address(), taskId: f.id(64, 8), minerId: f.hex(64), seedHash: f.hex(64), model: f.optional(f.text(128)) };
const moneyFlow = '`fee` moves from `from` to the block proposer; the NFT is recorded for `owner`.';

const IMAGE_MINT = defineTx({
  type: 'IMAGE_MINT',
  family: 'media',
  fork: 4,
  doc: "Mints the image a rewarded image task produced, once, by the task's submitter. The best response's content is the blobId of a complete blob whose bytes are `format` (PNG, JPEG or WebP by their magic numbers) of exactly `width` x `height` pixels (read from the file's headers); tokenId = SHA-256(taskId + blobId + format + width + \"x\" + height); seedHash as ART_MINT.",
  fields: {
    from: f.address(),
    tokenId: f.hex(64),
    blobId: f.hex(64),
    format: f.oneOf(IMAGE_FORMATS),
    width: f.uint(MAX_DIMENSION, 1),
    height: f.uint(MAX_DIMENSION, 1),
    ...task,
    ...common,
  },
  moneyFlow,
});

const AUDIO_MINT = defineTx({
  type: 'AUDIO_MINT',
  family: 'media',
  fork: 5,
  doc: "Mints the audio a rewarded audio task produced, once, by the task's submitter. The best response's content is the blobId of a complete blob whose bytes are `format` (WAV, MPEG audio or Ogg Vorbis/Opus by their magic numbers) at exactly `sampleRate` Hz, lasting `durationMs` within 1 % or 50 ms of the file's duration; tokenId = SHA-256(taskId + blobId + format + durationMs); seedHash as ART_MINT.",
  fields: {
    from: f.address(),
    tokenId: f.hex(64),
    blobId: f.hex(64),
    format: f.oneOf(AUDIO_FORMATS),
    durationMs: f.uint(),
    sampleRate: f.uint(MAX_DIMENSION, 1),
    ...task,
    ...common,
  },
  moneyFlow,
});

/**
 * The token id of a mint claiming `facts`: SHA-256(taskId + blobId + format + width + "x" + height)
 * for an image, SHA-256(taskId + blobId + format + durationMs) for audio.
 */
export function mediaTokenId(taskId: string, blobId: string, facts: MediaFacts): string {
  return 'width' in facts
    ? sha256Hex(`${taskId}${blobId}${facts.format}${facts.width}x${facts.height}`)
    : sha256Hex(`${taskId}${blobId}${facts.format}${facts.durationMs}`);
}

/** True when a claimed duration is within 1 % or 50 ms (whichever is larger) of the file's. */
function durationMatches(claimedMs: number, fileMs: number): boolean {
  const d = Math.abs(claimedMs - fileMs);
  return d <= 50 || d * 100 <= fileMs;
}

/** The media facts of the complete blob the task's best response named, refused unless of the claimed format. */
function mintedMedia(
  state: StateReader,
  tx: { type: string; from: string; taskId: string; minerId: string; seedHash: string; blobId: string; format: string },
  taskType: string,
): MediaFacts {
  const { task, best } = checkTaskMint(state, tx, taskType);
  if (sha256Hex(tx.blobId) !== best.contentHash) refuse("blobId is not the best response's content");
  checkSeedHash(task, tx.seedHash);
  const blob = state.get(BLOBS.UPLOADS, tx.blobId);
  if (!blob) refuse(`blob ${tx.blobId} does not exist`);
  if (blob.status !== 'complete') refuse(`blob ${tx.blobId} is ${blob.status}, not complete`);
  if (!blob.media)
    refuse(`blob ${tx.blobId} is not an image or audio file this chain reads${blob.mediaProblem ? `: ${blob.mediaProblem}` : ''}`);
  if (blob.media.format !== tx.format) refuse(`format ${tx.format} does not match the blob's bytes (${blob.media.format})`);
  return blob.media;
}

const base = (
  tx: { tokenId: string; blobId: string; owner: string; taskId: string; minerId: string; hash: string },
  height: number,
  timestamp: number,
): MediaNftBase => ({
  tokenId: tx.tokenId,
  blobId: tx.blobId,
  owner: tx.owner,
  taskId: tx.taskId,
  minerId: tx.minerId,
  mintedAt: timestamp,
  blockIndex: height,
  txHash: tx.hash,
});

const imageMint = txHandler(IMAGE_MINT, {
  check(tx, state) {
    const media = mintedMedia(state, tx, 'image');
    if (!('width' in media)) return refuse('the blob is not an image');
    if (media.width !== tx.width || media.height !== tx.height)
      refuse(`the image is ${media.width}x${media.height}, not ${tx.width}x${tx.height}`);
    if (tx.tokenId !== mediaTokenId(tx.taskId, tx.blobId, tx))
      refuse('tokenId must be SHA-256(taskId + blobId + format + width + "x" + height)');
    if (state.get(IMAGE_NFTS, tx.tokenId)) refuse(`token ${tx.tokenId} already exists`);
  },
  apply(tx, s, ctx) {
    s.put(IMAGE_NFTS, tx.tokenId, { ...base(tx, ctx.height, ctx.timestamp), format: tx.format, width: tx.width, height: tx.height });
    markTaskMinted(s, tx.taskId, tx.tokenId);
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

const audioMint = txHandler(AUDIO_MINT, {
  check(tx, state) {
    const media = mintedMedia(state, tx, 'audio');
    if (!('sampleRate' in media)) return refuse('the blob is not audio');
    if (media.sampleRate !== tx.sampleRate) refuse(`the audio's sample rate is ${media.sampleRate} Hz, not ${tx.sampleRate}`);
    if (!durationMatches(tx.durationMs, media.durationMs))
      refuse(`the audio lasts ${media.durationMs} ms: durationMs ${tx.durationMs} is not within 1 % or 50 ms of it`);
    if (tx.tokenId !== mediaTokenId(tx.taskId, tx.blobId, tx)) refuse('tokenId must be SHA-256(taskId + blobId + format + durationMs)');
    if (state.get(AUDIO_NFTS, tx.tokenId)) refuse(`token ${tx.tokenId} already exists`);
  },
  apply(tx, s, ctx) {
    s.put(AUDIO_NFTS, tx.tokenId, {
      ...base(tx, ctx.height, ctx.timestamp),
      format: tx.format,
      durationMs: tx.durationMs,
      sampleRate: tx.sampleRate,
    });
    markTaskMinted(s, tx.taskId, tx.tokenId);
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** Image and audio NFTs (forks 4 and 5): the mints and their records. */
export const mediaFamily = defineFamily({ name: 'media', handlers: [imageMint, audioMint], records: [IMAGE_NFTS, AUDIO_NFTS] });
