/**
 * Image dimensions from the headers of PNG, JPEG and WebP files: the facts an IMAGE_MINT's
 * width and height are checked against. Reads only what the format needs; refuses with a
 * MediaError whatever is truncated, malformed or of an unsupported variant.
 */
import { Bytes, refuseMedia } from './bytes.ts';

/** Width and height in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
// PNG caps both dimensions at 2^31 - 1; so does this chain for every format.
const MAX_DIMENSION = 0x7fffffff;

const sized = (width: number, height: number, what: string): ImageSize => {
  if (width < 1 || height < 1 || width > MAX_DIMENSION || height > MAX_DIMENSION)
    refuseMedia(`${what} has an impossible size ${width}x${height}`);
  return { width, height };
};

/** True when the bytes start with the PNG signature. */
export function isPng(b: Uint8Array): boolean {
  return b.length >= 8 && PNG_SIGNATURE.every((v, i) => b[i] === v);
}

/** PNG: the IHDR chunk, which must come first, holds width and height (big-endian). */
export function pngSize(bytes: Uint8Array): ImageSize {
  const r = new Bytes(bytes, 'the PNG');
  if (!isPng(bytes)) refuseMedia('not a PNG (signature)');
  if (r.u32be(8) !== 13 || !r.startsWith('IHDR', 12)) refuseMedia('the PNG does not start with a 13-byte IHDR chunk');
  return sized(r.u32be(16), r.u32be(20), 'the PNG');
}

/** True when the bytes start like a JPEG (SOI then a marker). */
export function isJpeg(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
}

// Start-of-frame markers: baseline, extended, progressive, lossless, hierarchical, arithmetic.
// C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames.
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/**
 * JPEG: walks the marker segments after SOI (APPn, COM, DQT, DHT, ... each skipped by its
 * length) to the first start-of-frame, which holds height then width. A scan (SOS) or the end
 * (EOI) before any frame header, or a height of 0 (defined later by DNL), is refused.
 */
export function jpegSize(bytes: Uint8Array): ImageSize {
  const r = new Bytes(bytes, 'the JPEG');
  if (!isJpeg(bytes)) refuseMedia('not a JPEG (SOI)');
  let at = 2;
  for (;;) {
    if (r.u8(at) !== 0xff) refuseMedia(`the JPEG has no marker at offset ${at}`);
    while (r.u8(at + 1) === 0xff) at++; // fill bytes
    const marker = r.u8(at + 1);
    at += 2;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // RSTn, TEM: no length
    if (marker === 0xd9 || marker === 0xda) refuseMedia('the JPEG has no frame header before its first scan');
    if (marker === 0x00 || marker === 0xd8) refuseMedia(`the JPEG has a stray marker 0x${marker.toString(16)} at offset ${at - 2}`);
    const length = r.u16be(at);
    if (length < 2) refuseMedia(`the JPEG has a segment of length ${length}`);
    if (isSof(marker)) {
      if (length < 8) refuseMedia('the JPEG frame header is too short');
      const height = r.u16be(at + 3);
      const width = r.u16be(at + 5);
      if (height === 0) refuseMedia('the JPEG defines its height later (DNL), which is not supported');
      return sized(width, height, 'the JPEG');
    }
    at += length;
  }
}

/** True when the bytes are a RIFF container of form `form` (`WEBP`, `WAVE`). */
export function isRiff(b: Uint8Array, form: string): boolean {
  const r = new Bytes(b, 'the RIFF file');
  return r.startsWith('RIFF') && r.startsWith(form, 8);
}

/**
 * WebP: the first chunk after `RIFF....WEBP` decides: `VP8 ` (lossy: a key frame's 14-bit
 * sizes after its start code), `VP8L` (lossless: 14-bit sizes minus one after the 0x2F
 * signature) or `VP8X` (extended: 24-bit canvas sizes minus one).
 */
export function webpSize(bytes: Uint8Array): ImageSize {
  const r = new Bytes(bytes, 'the WebP');
  if (!isRiff(bytes, 'WEBP')) refuseMedia('not a WebP (RIFF/WEBP)');
  const chunk = r.ascii(12, 4);
  const size = r.u32le(16);
  if (chunk === 'VP8 ') {
    if (size < 10) refuseMedia('the WebP VP8 chunk is too short');
    if ((r.u8(20) & 1) !== 0) refuseMedia('the WebP VP8 data does not start with a key frame');
    if (r.u8(23) !== 0x9d || r.u8(24) !== 0x01 || r.u8(25) !== 0x2a) refuseMedia('the WebP VP8 key frame has no start code');
    return sized(r.u16le(26) & 0x3fff, r.u16le(28) & 0x3fff, 'the WebP');
  }
  if (chunk === 'VP8L') {
    if (size < 5) refuseMedia('the WebP VP8L chunk is too short');
    if (r.u8(20) !== 0x2f) refuseMedia('the WebP VP8L data has no signature');
    const bits = r.u32le(21);
    if (bits >>> 29 !== 0) refuseMedia('the WebP VP8L version is not 0');
    return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1, 'the WebP');
  }
  if (chunk === 'VP8X') {
    if (size < 10) refuseMedia('the WebP VP8X chunk is too short');
    return sized(r.u24le(24) + 1, r.u24le(27) + 1, 'the WebP');
  }
  return refuseMedia(`the WebP starts with an unknown chunk ${JSON.stringify(chunk)}`);
}
