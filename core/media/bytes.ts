/**
 * Bounded reads over untrusted bytes for the media parsers: every read past the end, every
 * impossible value, is a MediaError (a typed 422 refusal), never a RangeError or a hang.
 */
import { ChainError } from '../errors.ts';

/** Why some bytes are not a media file this chain accepts (VALIDATION_FAILED, so a refused mint answers 422). */
export class MediaError extends ChainError {
  constructor(message: string) {
    super('VALIDATION_FAILED', message);
    this.name = 'MediaError';
  }
}

/** Throws a MediaError. */
export function refuseMedia(message: string): never {
  throw new MediaError(message);
}

/** Fixed-position reads that refuse instead of reading past the end. */
export class Bytes {
  readonly b: Uint8Array;
  readonly length: number;
  readonly what: string;
  constructor(b: Uint8Array, what: string) {
    this.b = b;
    this.length = b.length;
    this.what = what;
  }

  /** Refuses unless `n` bytes are readable at `at`. */
  need(at: number, n: number): void {
    if (at < 0 || n < 0 || at + n > this.length)
      refuseMedia(`${this.what} is truncated (needs ${n} bytes at offset ${at} of ${this.length})`);
  }
  u8(at: number): number {
    this.need(at, 1);
    return this.b[at];
  }
  u16be(at: number): number {
    this.need(at, 2);
    return (this.b[at] << 8) | this.b[at + 1];
  }
  u16le(at: number): number {
    this.need(at, 2);
    return this.b[at] | (this.b[at + 1] << 8);
  }
  u24be(at: number): number {
    this.need(at, 3);
    return (this.b[at] << 16) | (this.b[at + 1] << 8) | this.b[at + 2];
  }
  u24le(at: number): number {
    this.need(at, 3);
    return this.b[at] | (this.b[at + 1] << 8) | (this.b[at + 2] << 16);
  }
  u32be(at: number): number {
    this.need(at, 4);
    return this.b[at] * 0x1000000 + ((this.b[at + 1] << 16) | (this.b[at + 2] << 8) | this.b[at + 3]);
  }
  u32le(at: number): number {
    this.need(at, 4);
    return this.b[at + 3] * 0x1000000 + ((this.b[at + 2] << 16) | (this.b[at + 1] << 8) | this.b[at]);
  }
  /** Unsigned 64-bit little-endian, as a bigint. */
  u64le(at: number): bigint {
    return (BigInt(this.u32le(at + 4)) << 32n) | BigInt(this.u32le(at));
  }
  /** The bytes at `at` read as Latin-1 text (`ascii(0, 4) === 'RIFF'`); refuses when fewer remain. */
  ascii(at: number, n: number): string {
    this.need(at, n);
    return String.fromCharCode(...this.b.subarray(at, at + n));
  }
  /** True when the bytes at `at` are `text` (false rather than a refusal when fewer remain). */
  startsWith(text: string, at = 0): boolean {
    if (at < 0 || at + text.length > this.length) return false;
    for (let i = 0; i < text.length; i++) if (this.b[at + i] !== text.charCodeAt(i)) return false;
    return true;
  }
}

/**
 * Rounds `samples * 1000 / rate` to the nearest millisecond (halves up), exactly, in bigints;
 * refuses a duration beyond Number.MAX_SAFE_INTEGER ms.
 */
export function durationMsOf(samples: bigint, rate: bigint): number {
  if (rate <= 0n) refuseMedia('the sample (or byte) rate is 0');
  if (samples < 0n) refuseMedia('the duration is negative');
  const ms = (samples * 2000n + rate) / (2n * rate);
  if (ms > BigInt(Number.MAX_SAFE_INTEGER)) refuseMedia('the duration is out of range');
  return Number(ms);
}
