/**
 * The consensus rule for Ed25519 signatures, independent of any one verifier:
 * valid only if the public key decodes canonically (RFC 8032) and is not of small order,
 * R is canonically encoded and not of small order, S < L, and the cofactorless RFC 8032
 * equation holds: encode([S]B - [k]A) == R with k = SHA-512(R || A || M) mod L.
 * @noble decodes keys strictly; the equation itself is libsodium's or OpenSSL's
 * (core/ed25519Equation.ts), both far faster than @noble's.
 */
import { Point } from '@noble/ed25519';
import { defaultEquation, type Ed25519Equation } from './ed25519Equation.ts';
import { isHex } from './encoding.ts';
import { makeRoom } from './recency.ts';

/** Group order L of Ed25519. */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
/** Field prime p = 2^255 - 19. */
const P = 2n ** 255n - 19n;
/**
 * Encodings with y < p of the 8 points of small order (and the two with x = 0 and the sign bit
 * set). OpenSSL 3.5 refuses such an R on its own; refusing it here keeps the rule explicit.
 */
const SMALL_ORDER_R = new Set([
  '0100000000000000000000000000000000000000000000000000000000000000',
  '0100000000000000000000000000000000000000000000000000000000000080',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000080',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85',
]);
/** First bytes of the SMALL_ORDER_R encodings: any other R skips the set lookup (and its substring). */
const SMALL_ORDER_R_FIRST = new Set([...SMALL_ORDER_R].map((r) => Number.parseInt(r.slice(0, 2), 16)));

interface KeyEntry {
  /** The key prepared for `equation`; null when the key breaks the rule. */
  key: unknown;
}
const KEY_CACHE_MAX = 50_000;
const keyCache = new Map<string, KeyEntry>();
let equation: Ed25519Equation = defaultEquation;

/** The implementation of the equation in use ('libsodium' unless its addon cannot load). */
export function signatureEquation(): Ed25519Equation['name'] {
  return equation.name;
}

/**
 * Answers the equation with `next` from now on (tests and the bench compare implementations);
 * keys prepared for the previous one are forgotten.
 */
export function useSignatureEquation(next: Ed25519Equation): void {
  equation = next;
  keyCache.clear();
}

/** A value as 32 little-endian bytes. */
function leBytes(n: bigint): Buffer {
  const out = Buffer.alloc(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
}
const L_LE = leBytes(L);
const P_LE = leBytes(P);

/** True when little-endian `a` < `b` (32 bytes each). Byte compares: no BigInt on the hot path. */
function lessLE(a: Uint8Array, b: Uint8Array, topMask = 0xff): boolean {
  for (let i = 31; i >= 0; i--) {
    const x = i === 31 ? a[i] & topMask : a[i];
    if (x !== b[i]) return x < b[i];
  }
  return false;
}

/** True when a 32-byte point encoding has its y coordinate below p (sign bit ignored). */
function yIsCanonical(enc: Uint8Array): boolean {
  return lessLE(enc, P_LE, 0x7f);
}

/** Imports a public key once; null when it breaks the rule (non-canonical, off-curve, small order). */
function importKey(publicKeyHex: string): unknown {
  const hit = keyCache.get(publicKeyHex);
  if (hit) return hit.key;
  let key: unknown = null;
  try {
    // zip215=false: strict RFC 8032 decoding, refusing y >= p and a "negative zero" x.
    const point = Point.fromHex(publicKeyHex, false);
    if (!point.isSmallOrder()) key = equation.prepare(Buffer.from(publicKeyHex, 'hex'));
  } catch {
    key = null;
  }
  makeRoom(keyCache, KEY_CACHE_MAX);
  keyCache.set(publicKeyHex, { key });
  return key;
}

/** True when `publicKeyHex` is an acceptable signer key under the consensus rule. */
export function isValidPublicKey(publicKeyHex: string): boolean {
  return isHex(publicKeyHex, 64) && importKey(publicKeyHex) !== null;
}

/**
 * Verifies an Ed25519 signature over `message` under the consensus rule.
 * All hex inputs must be lowercase; anything malformed is simply invalid.
 */
export function verifySignature(publicKeyHex: string, message: string | Uint8Array, signatureHex: string): boolean {
  if (!isHex(signatureHex, 128)) return false;
  // The cache holds only keys that passed isHex (replay's senders repeat: one lookup, no scan).
  const hit = keyCache.get(publicKeyHex);
  const key = hit ? hit.key : isHex(publicKeyHex, 64) ? importKey(publicKeyHex) : null;
  if (!key) return false;
  const sig = Buffer.from(signatureHex, 'hex');
  if (!yIsCanonical(sig.subarray(0, 32))) return false;
  if (SMALL_ORDER_R_FIRST.has(sig[0]) && SMALL_ORDER_R.has(signatureHex.slice(0, 64))) return false;
  if (!lessLE(sig.subarray(32), L_LE)) return false;
  try {
    const data = typeof message === 'string' ? Buffer.from(message, 'utf8') : message;
    return equation.holds(key, data, sig);
  } catch {
    return false;
  }
}
