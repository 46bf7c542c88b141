/**
 * The generator of fixtures/ed25519-edge-cases.json. Each construction crafts a signature for
 * any message, so the same edge case can be replayed over a transaction hash (the fixture) and
 * over a block hash (attestations). Crafted invalid signatures are ones a lax verifier accepts:
 * the refusal must come from the consensus rule, not from the signature being plain garbage.
 */
import { createHash } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { addressFromPublicKey } from '../../core/address.ts';
import { signMessage } from '../../core/keys.ts';
import { txHash } from '../../core/txCodec.ts';
import { DEV_GENESIS, DEV_KEYS } from './coreSupport.ts';

const { Point } = ed;
type Pt = InstanceType<typeof Point>;
/** Group order L and field prime p. */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const P = 2n ** 255n - 19n;
/** A generator of the 8-torsion subgroup (a point of order 8). */
const T8 = Point.fromHex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a');
const torsion = (j: number): Pt => (j % 8 === 0 ? Point.ZERO : T8.multiply(BigInt(j % 8), false));

/** Which verifier a crafted signature satisfies (besides the consensus rule, or not). */
export type LaxVerdict = 'cofactorless' | 'cofactored-only' | 'none';

/** One edge case: a key and how to sign any message with it. */
export interface Construction {
  name: string;
  valid: boolean;
  publicKey: string;
  /** Which lax verification (A and R decoded modulo p, S reduced mod L) accepts the signature. */
  lax: LaxVerdict;
  sign(message: string): string;
}

/** 32-byte little-endian hex of a number below 2^256. */
function le32(n: bigint): string {
  return Buffer.from(n.toString(16).padStart(64, '0'), 'hex').reverse().toString('hex');
}
const fromLe = (hex: string): bigint => BigInt(`0x${Buffer.from(hex, 'hex').reverse().toString('hex') || '0'}`);
const mod = (n: bigint, m: bigint): bigint => ((n % m) + m) % m;
const sha512Int = (...parts: (string | Buffer)[]): bigint =>
  fromLe(
    createHash('sha512')
      .update(Buffer.concat(parts.map((x) => (typeof x === 'string' ? Buffer.from(x, 'utf8') : x))))
      .digest('hex'),
  );

/** The RFC 8032 challenge k = SHA-512(R || A || M) mod L, over the exact encoded bytes. */
function challenge(rHex: string, aHex: string, message: string): bigint {
  return mod(sha512Int(Buffer.from(rHex, 'hex'), Buffer.from(aHex, 'hex'), message), L);
}

/** Which lax verification accepts `sig`: A and R decoded modulo p, S reduced mod L, k mod L. */
export function laxVerdict(publicKey: string, message: string, sig: string): LaxVerdict {
  const s = fromLe(sig.slice(64)) % L;
  let A: Pt, R: Pt;
  try {
    A = Point.fromHex(publicKey, true);
    R = Point.fromHex(sig.slice(0, 64), true);
  } catch {
    return 'none';
  }
  const k = challenge(sig.slice(0, 64), publicKey, message);
  const diff = R.add(A.multiply(k, false)).subtract(Point.BASE.multiply(s, false));
  if (diff.is0()) return 'cofactorless';
  return diff.clearCofactor().is0() ? 'cofactored-only' : 'none';
}

/**
 * The consensus rule written out independently of node:crypto (docs/protocol.md, "Signature rule", and
 * core/signature.ts): A and R decode strictly and are not of small order, S < L, and
 * encode([S]B - [k]A) == R.
 */
export function referenceVerdict(publicKey: string, message: string, sig: string): boolean {
  let A: Pt, R: Pt;
  try {
    A = Point.fromHex(publicKey, false);
    R = Point.fromHex(sig.slice(0, 64), false);
  } catch {
    return false;
  }
  const s = fromLe(sig.slice(64));
  if (A.isSmallOrder() || R.isSmallOrder() || s >= L) return false;
  const k = challenge(sig.slice(0, 64), publicKey, message);
  return Point.BASE.multiply(s, false).subtract(A.multiply(k, false)).toHex() === sig.slice(0, 64);
}

/** Index j in 0..7 with P = j·T8, for a point of small order. */
function torsionIndex(p: Pt): number {
  for (let j = 0; j < 8; j++) if (torsion(j).equals(p)) return j;
  throw new Error('not a small-order point');
}

/**
 * Signs for A = a·B + j·T8 given as `aHex` (possibly non-canonical bytes): R = r·B + t·T8 and
 * S = r + k·a. Cofactorless verification passes iff t + k·j ≡ 0 (mod 8); `want` picks which.
 */
function craft(
  aHex: string,
  a: bigint,
  j: number,
  message: string,
  want: 'cofactorless' | 'cofactored-only',
  encodeR = (R: Pt) => R.toHex(),
): string {
  let r = mod(sha512Int('ombra edge case', aHex, message), L - 1n) + 1n;
  for (;;) {
    for (const t of want === 'cofactorless' ? [0, 1, 2, 3, 4, 5, 6, 7] : [0]) {
      const rHex = encodeR(Point.BASE.multiply(r, false).add(torsion(t)));
      const k = challenge(rHex, aHex, message);
      const cancels = mod(BigInt(t) + k * BigInt(j), 8n) === 0n;
      if (cancels === (want === 'cofactorless')) return rHex + le32(mod(r + k * a, L));
    }
    r = r + 1n;
  }
}

const dev = DEV_KEYS[0];
const devScalar = ed.utils.getExtendedPublicKey(Buffer.from(dev.privateKey, 'hex')).scalar;
const devPoint = Point.fromHex(dev.publicKey);
const ORDER_NAMES = ['order 1 (identity)', 'order 8', 'order 4', 'order 8', 'order 2', 'order 8', 'order 4', 'order 8'];
const Y_P = le32(P);
const Y_P1 = le32(P + 1n);
const withSign = (hex: string): string => hex.slice(0, 62) + (parseInt(hex.slice(62), 16) | 0x80).toString(16);

/** A small-order or non-canonical key with a signature that lax cofactorless verification accepts. */
function weakKey(name: string, aHex: string): Construction {
  const j = torsionIndex(Point.fromHex(aHex, true));
  return { name, valid: false, publicKey: aHex, lax: 'cofactorless', sign: (m) => craft(aHex, 0n, j, m, 'cofactorless') };
}

const mixedKey = devPoint.add(T8).toHex();

/** Every edge case of the fixture, in order. */
export const CONSTRUCTIONS: Construction[] = [
  {
    name: 'valid: dev key 0 signs the message (plain RFC 8032)',
    valid: true,
    publicKey: dev.publicKey,
    lax: 'cofactorless',
    sign: (m) => signMessage(m, dev.privateKey),
  },
  {
    name: 'invalid: a valid signature of a different message',
    valid: false,
    publicKey: dev.publicKey,
    lax: 'none',
    sign: (m) => signMessage(`${m}.`, dev.privateKey),
  },
  {
    name: 'invalid: a valid signature with its last byte flipped',
    valid: false,
    publicKey: dev.publicKey,
    lax: 'none',
    sign: (m) => {
      const s = signMessage(m, dev.privateKey);
      return s.slice(0, 126) + (parseInt(s.slice(126), 16) ^ 1).toString(16).padStart(2, '0');
    },
  },
  {
    name: 'invalid: non-canonical S, a valid S replaced with S+L (verifiers reducing S mod L accept)',
    valid: false,
    publicKey: dev.publicKey,
    lax: 'cofactorless',
    sign: (m) => {
      const s = signMessage(m, dev.privateKey);
      return s.slice(0, 64) + le32(fromLe(s.slice(64)) + L);
    },
  },
  {
    name: 'invalid: S = L exactly',
    valid: false,
    publicKey: dev.publicKey,
    lax: 'none',
    sign: (m) => signMessage(m, dev.privateKey).slice(0, 64) + le32(L),
  },
  ...[0, 1, 2, 3, 4, 5, 6, 7].map((j) => {
    const hex = torsion(j).toHex();
    return weakKey(
      `invalid: small-order key, ${ORDER_NAMES[j]} ${hex.slice(0, 8)}..${hex.slice(-4)}, signature passes cofactorless verification`,
      hex,
    );
  }),
  weakKey('invalid: non-canonical key y = p (edff..ff7f), an order-4 point mod p, signature passes lax verification', Y_P),
  weakKey('invalid: non-canonical key y = p with the sign bit (edff..ffff), an order-4 point mod p', withSign(Y_P)),
  weakKey('invalid: non-canonical key y = p+1 (eeff..ff7f), the identity mod p', Y_P1),
  weakKey("invalid: non-canonical key 'negative zero' 0100..80 (y = 1, x = 0 with the sign bit)", withSign(Point.ZERO.toHex())),
  {
    name: 'invalid: non-canonical R, y = p+1 encoding the identity, S = k·a (a verifier comparing decoded points accepts)',
    valid: false,
    publicKey: dev.publicKey,
    lax: 'cofactorless',
    sign: (m) => Y_P1 + le32(mod(challenge(Y_P1, dev.publicKey, m) * devScalar, L)),
  },
  {
    name: 'invalid: non-canonical R, y = p encoding an order-4 point, S = k·a (cofactored verifiers accept)',
    valid: false,
    publicKey: dev.publicKey,
    lax: 'cofactored-only',
    sign: (m) => Y_P + le32(mod(challenge(Y_P, dev.publicKey, m) * devScalar, L)),
  },
  {
    name: 'invalid: small-order R, the identity 0100..00 canonically encoded, S = k·a (a plain RFC 8032 verifier accepts)',
    valid: false,
    publicKey: dev.publicKey,
    lax: 'cofactorless',
    sign: (m) => {
      const r = Point.ZERO.toHex();
      return r + le32(mod(challenge(r, dev.publicKey, m) * devScalar, L));
    },
  },
  {
    name: 'valid: mixed-order key (dev key 0 + an order-8 point), signature passing cofactorless verification',
    valid: true,
    publicKey: mixedKey,
    lax: 'cofactorless',
    sign: (m) => craft(mixedKey, devScalar, 1, m, 'cofactorless'),
  },
  {
    name: 'invalid: mixed-order key, signature only cofactored verification accepts (the rule verifies cofactorless)',
    valid: false,
    publicKey: mixedKey,
    lax: 'cofactored-only',
    sign: (m) => craft(mixedKey, devScalar, 1, m, 'cofactored-only'),
  },
];

/** The TRANSFER a vector's key signs in the fixture (its hash is the vector's message). */
export function vectorTransfer(publicKey: string): Record<string, unknown> {
  return {
    type: 'TRANSFER',
    from: addressFromPublicKey(publicKey),
    to: DEV_KEYS[1].address,
    amount: '1',
    fee: '0',
    nonce: 0,
    timestamp: DEV_GENESIS.timestamp,
    publicKey,
  };
}

/** One fixture vector. */
export interface EdgeVector {
  name: string;
  publicKey: string;
  message: string;
  signature: string;
  valid: boolean;
}

/** The whole fixture file, as generated. */
export function generateFixture(): { description: string; vectors: EdgeVector[] } {
  return {
    description:
      'Ed25519 edge cases of the consensus signature rule (docs/protocol.md, Signature rule). message is the UTF-8 string signed: the hash of ' +
      'the TRANSFER {type, from: address(publicKey), to: dev index 1, amount "1", fee "0", nonce 0, timestamp: dev genesis timestamp, publicKey}. ' +
      'Generated by test/helpers/ed25519Craft.ts; test/unit/core/ed25519EdgeCases.test.ts checks it is reproducible.',
    vectors: CONSTRUCTIONS.map((c) => {
      const message = txHash(vectorTransfer(c.publicKey));
      return { name: c.name, publicKey: c.publicKey, message, signature: c.sign(message), valid: c.valid };
    }),
  };
}
