/**
 * The last step of the consensus signature rule: the cofactorless RFC 8032 equation
 * encode([S]B - [k]A) == R, k = SHA-512(R || A || M) mod L, on a key, R and S whose encodings
 * `signature.ts` has already checked. Two implementations answer it:
 *
 * - libsodium (sodium-native's prebuilt addon): ~27k verifies a second on one core of the bench
 *   machine, against ~16k for OpenSSL, so replay, audit and sync verify ~1.7x as many signatures
 *   with the same cores. Its `crypto_sign_verify_detached` also refuses small-order or
 *   non-canonical A, small-order R and S >= L: the rule's own checks, which signature.ts has
 *   already passed, so what is left to decide is the equation alone.
 * - node:crypto (OpenSSL), used where the addon cannot load (a platform without a prebuild).
 *
 * Every vector of fixtures/ed25519-edge-cases.json and a property over random and mutated
 * signatures give the same verdict on both (test/unit/core/ed25519Equation.test.ts).
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';

/** What an implementation needs: a key prepared once, and the equation. */
export interface Ed25519Equation<K = unknown> {
  readonly name: 'libsodium' | 'node:crypto';
  /** The raw 32-byte key in the form `holds` takes (made once per key, then cached). */
  prepare(raw: Buffer): K;
  /** True when the equation holds for `message` and the 64-byte `signature`. */
  holds(key: K, message: Uint8Array, signature: Buffer): boolean;
}

/** OpenSSL through node:crypto. */
export const opensslEquation: Ed25519Equation<KeyObject> = {
  name: 'node:crypto',
  prepare: (raw) => createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' }),
  holds: (key, message, signature) => verify(null, message, key, signature),
};

/** The one libsodium function used here. */
interface Sodium {
  crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

/** libsodium, or null where sodium-native has no build for this platform. */
function loadSodium(): Sodium | null {
  try {
    const sodium = createRequire(import.meta.url)('sodium-native') as Sodium;
    return typeof sodium.crypto_sign_verify_detached === 'function' ? sodium : null;
  } catch {
    // No prebuilt addon for this platform or Node: OpenSSL answers instead, with the same verdicts.
    return null;
  }
}

const sodium = loadSodium();

/** libsodium through sodium-native; null where it cannot load. */
export const sodiumEquation: Ed25519Equation<Buffer> | null = sodium
  ? {
      name: 'libsodium',
      prepare: (raw) => raw,
      holds: (key, message, signature) => sodium.crypto_sign_verify_detached(signature, message, key),
    }
  : null;

/** The fastest implementation this process can load. */
export const defaultEquation: Ed25519Equation = (sodiumEquation ?? opensslEquation) as Ed25519Equation;
