import { sign as nodeSign, createPrivateKey } from 'node:crypto';
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultEquation, opensslEquation, sodiumEquation, type Ed25519Equation } from '../../../core/ed25519Equation.ts';
import { signatureEquation, useSignatureEquation, verifySignature } from '../../../core/signature.ts';
import { CONSTRUCTIONS, referenceVerdict, type EdgeVector } from '../../helpers/ed25519Craft.ts';
import { DEV_KEYS, fixture } from '../../helpers/coreSupport.ts';

const FX = fixture<{ vectors: EdgeVector[] }>('ed25519-edge-cases.json');

/** Both implementations; libsodium must load where CI runs (linux-x64 has a prebuild). */
function equations(): Ed25519Equation[] {
  assert.ok(sodiumEquation, 'sodium-native did not load');
  return [opensslEquation as Ed25519Equation, sodiumEquation as Ed25519Equation];
}

/** verifySignature's verdict with `eq` answering the equation. */
function verdictWith(eq: Ed25519Equation, key: string, message: string, sig: string): boolean {
  useSignatureEquation(eq);
  try {
    return verifySignature(key, message, sig);
  } finally {
    useSignatureEquation(defaultEquation);
  }
}

/** An Ed25519 private key from a 32-byte seed, and its public key hex. */
function keyFromSeed(seed: Uint8Array) {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seed)]);
  const key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const jwk = key.export({ format: 'jwk' }) as { x: string };
  return { key, publicKey: Buffer.from(jwk.x, 'base64url').toString('hex') };
}

test('libsodium answers by default where its addon loads', () => {
  equations();
  assert.equal(signatureEquation(), 'libsodium');
});

test('every fixture vector gets its verdict from both implementations', () => {
  for (const eq of equations())
    for (const v of FX.vectors) assert.equal(verdictWith(eq, v.publicKey, v.message, v.signature), v.valid, `${eq.name}: ${v.name}`);
});

test('every crafted construction gets the same verdict from both implementations and the reference, for any message', () => {
  const [openssl, sodium] = equations();
  fc.assert(
    fc.property(fc.nat(CONSTRUCTIONS.length - 1), fc.string({ maxLength: 80 }), (i, message) => {
      const c = CONSTRUCTIONS[i];
      const sig = c.sign(message);
      const want = referenceVerdict(c.publicKey, message, sig);
      assert.equal(verdictWith(openssl, c.publicKey, message, sig), want, c.name);
      assert.equal(verdictWith(sodium, c.publicKey, message, sig), want, c.name);
    }),
    { numRuns: 120 },
  );
});

test('random keys, messages and signatures with bytes changed get the same verdict from both', () => {
  const [openssl, sodium] = equations();
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      fc.string({ maxLength: 100 }),
      fc.array(fc.tuple(fc.nat(95), fc.integer({ min: 1, max: 255 })), { maxLength: 3 }),
      (seed, message, flips) => {
        const { key, publicKey } = keyFromSeed(seed);
        const bytes = Buffer.concat([Buffer.from(publicKey, 'hex'), nodeSign(null, Buffer.from(message), key)]);
        // Positions 0-31 change the key, 32-63 R, 64-95 S.
        for (const [at, x] of flips) bytes[at] ^= x;
        const k = bytes.subarray(0, 32).toString('hex');
        const sig = bytes.subarray(32).toString('hex');
        const want = verdictWith(openssl, k, message, sig);
        assert.equal(verdictWith(sodium, k, message, sig), want);
        if (flips.length === 0) assert.ok(want);
      },
    ),
    { numRuns: 300 },
  );
});

test('a key prepared for one implementation is not handed to the other after a switch', () => {
  const [openssl, sodium] = equations();
  const v = FX.vectors.find((x) => x.valid)!;
  // Without the cache cleared, libsodium would be given OpenSSL's KeyObject (and refuse).
  for (const eq of [openssl, sodium, openssl]) assert.ok(verdictWith(eq, v.publicKey, v.message, v.signature), eq.name);
  assert.equal(v.publicKey, DEV_KEYS[0].publicKey);
});
