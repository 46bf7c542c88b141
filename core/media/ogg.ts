/**
 * Ogg (Vorbis or Opus) sample rate and duration. The first page must open a logical stream whose
 * first packet is a Vorbis or Opus identification header; every page is then walked by its
 * lacing table, and the duration is the last granule position of that stream: samples at the
 * Vorbis rate, or 48 kHz samples less the Opus pre-skip. Page checksums are not verified.
 */
import { Bytes, durationMsOf, refuseMedia } from './bytes.ts';
import type { AudioTiming } from './wav.ts';

/** The codec inside an Ogg file this chain reads. */
export type OggCodec = 'vorbis' | 'opus';

interface Page {
  granule: bigint;
  serial: number;
  bos: boolean;
  body: number;
  next: number;
}

const NO_GRANULE = 0xffffffffffffffffn;
const OPUS_RATE = 48_000;

function pageAt(r: Bytes, at: number): Page {
  if (!r.startsWith('OggS', at)) refuseMedia(`the Ogg has no page at offset ${at}`);
  if (r.u8(at + 4) !== 0) refuseMedia('the Ogg page version is not 0');
  const segments = r.u8(at + 26);
  let size = 0;
  for (let i = 0; i < segments; i++) size += r.u8(at + 27 + i);
  const body = at + 27 + segments;
  r.need(body, size);
  return { granule: r.u64le(at + 6), serial: r.u32le(at + 14), bos: (r.u8(at + 5) & 2) !== 0, body, next: body + size };
}

/** The Ogg file's codec and timing (see the module comment). */
export function oggTiming(bytes: Uint8Array): AudioTiming & { codec: OggCodec } {
  const r = new Bytes(bytes, 'the Ogg');
  const first = pageAt(r, 0);
  if (!first.bos) refuseMedia('the first Ogg page does not begin a stream');
  let codec: OggCodec;
  let rate: number;
  let preSkip = 0n;
  if (r.u8(first.body) === 1 && r.startsWith('vorbis', first.body + 1)) {
    if (r.u32le(first.body + 7) !== 0) refuseMedia('the Vorbis version is not 0');
    if (r.u8(first.body + 11) === 0) refuseMedia('the Vorbis stream has no channels');
    codec = 'vorbis';
    rate = r.u32le(first.body + 12);
    if (rate === 0) refuseMedia('the Vorbis sample rate is 0');
  } else if (r.startsWith('OpusHead', first.body)) {
    if (r.u8(first.body + 8) >= 16) refuseMedia('the Opus header version is not supported');
    if (r.u8(first.body + 9) === 0) refuseMedia('the Opus stream has no channels');
    codec = 'opus';
    rate = OPUS_RATE;
    preSkip = BigInt(r.u16le(first.body + 10));
  } else {
    return refuseMedia('the Ogg stream is neither Vorbis nor Opus');
  }
  let last = NO_GRANULE;
  for (let page = first; ; ) {
    if (page.serial === first.serial && page.granule !== NO_GRANULE) last = page.granule;
    if (page.next === r.length) break;
    page = pageAt(r, page.next);
  }
  if (last === NO_GRANULE) refuseMedia('the Ogg stream states no granule position');
  if (last < preSkip) refuseMedia('the Opus stream ends before its pre-skip');
  return { codec, sampleRate: rate, durationMs: durationMsOf(last - preSkip, BigInt(rate)) };
}
