/**
 * What a media blob is, read from its own bytes: its format by magic numbers, then its
 * dimensions (images) or sample rate and duration (audio). Pure and synchronous, because it
 * decides consensus: IMAGE_MINT / AUDIO_MINT claims are checked against these facts.
 */
import { Bytes, MediaError, refuseMedia } from './bytes.ts';
import { isJpeg, isPng, isRiff, jpegSize, pngSize, webpSize } from './imageFacts.ts';
import { mpegFrameAt, mpegTiming } from './mpeg.ts';
import { oggTiming } from './ogg.ts';
import { wavTiming } from './wav.ts';

/** Image formats, as IMAGE_MINT names them. */
export const IMAGE_FORMATS = ['image:png', 'image:jpeg', 'image:webp'] as const;
/** Audio formats, as AUDIO_MINT names them. */
export const AUDIO_FORMATS = ['audio:wav', 'audio:mpeg', 'audio:ogg'] as const;
type ImageFormat = (typeof IMAGE_FORMATS)[number];
type AudioFormat = (typeof AUDIO_FORMATS)[number];
export type MediaFormat = ImageFormat | AudioFormat;

/** Facts of an image file. */
export interface ImageFacts {
  format: ImageFormat;
  width: number;
  height: number;
}
/** Facts of an audio file. */
export interface AudioFacts {
  format: AudioFormat;
  sampleRate: number;
  durationMs: number;
}
export type MediaFacts = ImageFacts | AudioFacts;

/** The HTTP content type a format is served with (`image:jpeg` -> `image/jpeg`). */
export function contentTypeOf(format: MediaFormat): string {
  return format.replace(':', '/');
}

/**
 * The format the bytes' magic numbers name, or null: PNG signature, JPEG SOI, RIFF/WEBP,
 * RIFF/WAVE, OggS, or (MPEG audio) an ID3v2 tag or a valid frame header at the start.
 */
export function sniffFormat(bytes: Uint8Array): MediaFormat | null {
  if (isPng(bytes)) return 'image:png';
  if (isJpeg(bytes)) return 'image:jpeg';
  if (isRiff(bytes, 'WEBP')) return 'image:webp';
  if (isRiff(bytes, 'WAVE')) return 'audio:wav';
  const r = new Bytes(bytes, 'the file');
  if (r.startsWith('OggS')) return 'audio:ogg';
  if (r.startsWith('ID3') || mpegFrameAt(r, 0)) return 'audio:mpeg';
  return null;
}

/** The facts of a media file; throws a MediaError (422 VALIDATION_FAILED) for anything else. */
export function mediaFacts(bytes: Uint8Array): MediaFacts {
  const format = sniffFormat(bytes);
  switch (format) {
    case 'image:png':
      return { format, ...pngSize(bytes) };
    case 'image:jpeg':
      return { format, ...jpegSize(bytes) };
    case 'image:webp':
      return { format, ...webpSize(bytes) };
    case 'audio:wav':
      return { format, ...wavTiming(bytes) };
    case 'audio:mpeg':
      return { format, ...mpegTiming(bytes) };
    case 'audio:ogg': {
      const { sampleRate, durationMs } = oggTiming(bytes);
      return { format, sampleRate, durationMs };
    }
    default:
      return refuseMedia('not a PNG, JPEG, WebP, WAV, MPEG audio or Ogg file');
  }
}

/**
 * What a completed blob's bytes are, for its consensus record: `{media}` when they parse,
 * `{mediaProblem}` when they start like a media file but do not parse, `{}` for anything else.
 */
export function describeMedia(bytes: Uint8Array): { media?: MediaFacts; mediaProblem?: string } {
  if (!sniffFormat(bytes)) return {};
  try {
    return { media: mediaFacts(bytes) };
  } catch (e) {
    if (e instanceof MediaError) return { mediaProblem: e.message };
    throw e;
  }
}
