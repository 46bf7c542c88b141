/** Wire encodings shared by every layer: hex, big-integer strings, UTF-8. */

const BIGINT_RE = /^(0|[1-9][0-9]*)$/;

/** Largest big-integer string accepted anywhere (78 digits covers 2^256). */
export const MAX_BIGINT_DIGITS = 78;

/** 1 at the char codes of 0-9 and a-f. */
const HEX_DIGIT = new Uint8Array(128);
for (const c of '0123456789abcdef') HEX_DIGIT[c.charCodeAt(0)] = 1;

/** True when `s` is lowercase hex of exactly `chars` characters. */
export function isHex(s: unknown, chars: number): s is string {
  if (typeof s !== 'string' || s.length !== chars) return false;
  // A table lookup a character: about twice as fast as the regular expression on keys, hashes
  // and signatures, checked several times for every transaction.
  for (let i = 0; i < chars; i++) if (HEX_DIGIT[s.charCodeAt(i)] !== 1) return false;
  return true;
}

/** True when `s` is a canonical decimal big-integer string: no sign, no leading zeros. */
export function isBigIntString(s: unknown): s is string {
  return typeof s === 'string' && s.length > 0 && s.length <= MAX_BIGINT_DIGITS && BIGINT_RE.test(s);
}

/** Field `name` of `v` when `v` is an object holding it, else undefined: a look at untrusted JSON before it is checked. */
export function fieldOf(v: unknown, name: string): unknown {
  return typeof v === 'object' && v !== null && name in v ? Reflect.get(v, name) : undefined;
}

/** True for a JSON number that is a safe non-negative integer. */
export function isUint(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decoded length of base64 text of `chars` characters with `pad` padding characters. */
function base64Bytes(chars: number, pad: number): number {
  return (chars / 4) * 3 - pad;
}

/**
 * True when `s` is canonical padded base64 (the one text that encodes its bytes: a multiple of 4
 * characters, unused bits zero) of minBytes..maxBytes decoded bytes. Two texts for one payload
 * would give one chunk two transaction hashes.
 */
export function isCanonicalBase64(s: string, minBytes: number, maxBytes: number): boolean {
  if (s.length % 4 !== 0) return false;
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const n = base64Bytes(s.length, pad);
  if (n < minBytes || n > maxBytes || !BASE64_RE.test(s)) return false;
  return Buffer.from(s, 'base64').toString('base64') === s;
}

/** Bytes to lowercase hex. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Lowercase or uppercase hex to bytes; the caller has validated the string. */
export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

/** Byte length of a string in UTF-8. */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Micro-units per whole OMBRA. */
export const MICRO = 1_000_000n;

/** A micro-unit amount as a decimal string of whole units ("1.5", "1000000"). */
export function formatUnits(micro: bigint): string {
  const whole = micro / MICRO;
  const frac = micro % MICRO;
  if (frac === 0n) return whole.toString();
  return `${whole}.${frac.toString().padStart(6, '0').replace(/0+$/, '')}`;
}

/** Fixed-width height key so a byte-ordered store (LevelDB) iterates in height order. */
export function heightKey(index: number): string {
  return index.toString().padStart(12, '0');
}
