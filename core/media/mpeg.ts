/**
 * MPEG audio (MP3 and its Layer I/II siblings) sample rate and duration. Skips ID3v2 tags, finds
 * the first frame (confirmed by the frame that follows it), then takes the frame count from a
 * Xing/Info or VBRI header when the encoder wrote one, or counts the frames one by one.
 * Duration = (frames x samples per frame - the LAME tag's encoder delay and padding) / sample
 * rate: the samples a gapless player (ffmpeg's decoder, browsers) plays.
 */
import { Bytes, durationMsOf, refuseMedia } from './bytes.ts';
import type { AudioTiming } from './wav.ts';

/** One decoded MPEG audio frame header. */
export interface MpegFrame {
  /** 1 (MPEG-1), 2 (MPEG-2) or 2.5 (MPEG-2.5). */
  version: number;
  layer: number;
  sampleRate: number;
  mono: boolean;
  samplesPerFrame: number;
  /** The frame's length in bytes, header included. */
  length: number;
}

// kbit/s by [MPEG-1 ? 0 : 1][layer - 1][index]; index 0 (free format) and 15 are refused.
const BITRATES = [
  [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
];
const RATES: Record<number, number[]> = { 1: [44100, 48000, 32000], 2: [22050, 24000, 16000], 2.5: [11025, 12000, 8000] };
const VERSIONS = [2.5, 0, 2, 1];
// How far past the ID3v2 tags the first frame may start (padding or junk some taggers leave).
const SYNC_WINDOW = 65_536;

/** The frame header at `at`, or null when there is none (no sync, reserved or free-format values). */
export function mpegFrameAt(r: Bytes, at: number): MpegFrame | null {
  if (at < 0 || at + 4 > r.length) return null;
  const h = r.u32be(at);
  if (h >>> 21 !== 0x7ff) return null;
  const version = VERSIONS[(h >>> 19) & 3];
  const layer = 4 - ((h >>> 17) & 3);
  const bitrateIndex = (h >>> 12) & 15;
  const rateIndex = (h >>> 10) & 3;
  if (version === 0 || layer === 4 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3 || (h & 3) === 2) return null;
  const bitrate = BITRATES[version === 1 ? 0 : 1][layer - 1][bitrateIndex] * 1000;
  const sampleRate = RATES[version][rateIndex];
  const padding = (h >>> 9) & 1;
  const samplesPerFrame = layer === 1 ? 384 : layer === 3 && version !== 1 ? 576 : 1152;
  const length =
    layer === 1
      ? (Math.floor((12 * bitrate) / sampleRate) + padding) * 4
      : Math.floor(((samplesPerFrame / 8) * bitrate) / sampleRate) + padding;
  return { version, layer, sampleRate, mono: ((h >>> 6) & 3) === 3, samplesPerFrame, length };
}

const sameStream = (a: MpegFrame, b: MpegFrame) => a.version === b.version && a.layer === b.layer && a.sampleRate === b.sampleRate;

/** Offset just past the ID3v2 tags at the start (none: 0). */
function id3v2End(r: Bytes): number {
  let at = 0;
  while (r.startsWith('ID3', at)) {
    const size = [6, 7, 8, 9].map((i) => r.u8(at + i));
    if (r.u8(at + 3) === 0xff || size.some((v) => v >= 0x80)) refuseMedia('the ID3v2 tag has an invalid header');
    const footer = (r.u8(at + 5) & 0x10) !== 0 ? 10 : 0;
    at += 10 + footer + size.reduce((n, v) => n * 128 + v, 0);
  }
  return at;
}

/** The first frame: a header whose successor (if the file goes on) is a header of the same stream. */
function firstFrame(r: Bytes, from: number): { at: number; frame: MpegFrame } | null {
  for (let at = from; at < Math.min(r.length, from + SYNC_WINDOW); at++) {
    const frame = mpegFrameAt(r, at);
    if (!frame || at + frame.length > r.length) continue;
    const next = mpegFrameAt(r, at + frame.length);
    if (at + frame.length === r.length || (next && sameStream(frame, next))) return { at, frame };
  }
  return null;
}

/**
 * What a Xing/Info or VBRI header in the first frame states: the frame count (null when it has
 * none), whether that frame is such a header (not audio), and the samples a LAME tag after the
 * Xing fields says the encoder added (encoder delay + end padding), which players trim.
 */
function stated(r: Bytes, at: number, f: MpegFrame): { frames: number | null; tagFrame: boolean; trim: number } {
  const end = at + f.length;
  if (f.layer === 3) {
    const xing = at + 4 + (f.version === 1 ? (f.mono ? 17 : 32) : f.mono ? 9 : 17);
    if (r.startsWith('Xing', xing) || r.startsWith('Info', xing)) {
      const flags = xing + 8 <= end ? r.u32be(xing + 4) : 0;
      const frames = flags & 1 && xing + 12 <= end ? r.u32be(xing + 8) : null;
      // The fields present follow the flags: frames 4, bytes 4, TOC 100, quality 4 bytes.
      const lame = xing + 8 + (flags & 1 ? 4 : 0) + (flags & 2 ? 4 : 0) + (flags & 4 ? 100 : 0) + (flags & 8 ? 4 : 0);
      const tagged = ['LAME', 'Lavf', 'Lavc'].some((v) => r.startsWith(v, lame)) && lame + 24 <= end;
      const gap = tagged ? r.u24be(lame + 21) : 0;
      return { frames, tagFrame: true, trim: (gap >>> 12) + (gap & 0xfff) };
    }
    if (r.startsWith('VBRI', at + 36) && at + 36 + 18 <= end) return { frames: r.u32be(at + 36 + 14), tagFrame: true, trim: 0 };
  }
  return { frames: null, tagFrame: false, trim: 0 };
}

/** The MPEG audio file's timing (see the module comment). */
export function mpegTiming(bytes: Uint8Array): AudioTiming {
  const r = new Bytes(bytes, 'the MPEG audio');
  const start = firstFrame(r, id3v2End(r));
  if (!start) refuseMedia('no MPEG audio frame found');
  const { at, frame } = start;
  const tag = stated(r, at, frame);
  let frames = tag.frames;
  if (frames === null) {
    frames = 0;
    let pos = tag.tagFrame ? at + frame.length : at;
    for (let f = mpegFrameAt(r, pos); f && sameStream(f, frame) && pos + f.length <= r.length; f = mpegFrameAt(r, pos)) {
      frames++;
      pos += f.length;
    }
  }
  if (frames === 0) refuseMedia('the MPEG audio has no audio frames');
  const samples = BigInt(frames) * BigInt(frame.samplesPerFrame) - BigInt(tag.trim);
  if (samples < 0n) refuseMedia('the LAME tag trims more samples than the frames hold');
  return { sampleRate: frame.sampleRate, durationMs: durationMsOf(samples, BigInt(frame.sampleRate)) };
}
