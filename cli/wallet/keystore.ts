/**
 * Encrypted key files in the shape of Ethereum's keystore v3: scrypt derives 32 bytes from the
 * password; the first 16 key AES-128-CTR over the 32-byte ed25519 private key; the MAC is
 * keccak-256(derived[16..32] ++ ciphertext), so a wrong password is found before decrypting.
 * Used by `ombra wallet --keystore FILE` and by `ombra start --key-file FILE`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ctr } from '@noble/ciphers/aes.js';
import { scryptAsync } from '@noble/hashes/scrypt.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { keyPairFromPrivateKey, type KeyPair } from '../../core/keys.ts';

/** scrypt cost parameters. */
export interface ScryptParams {
  n: number;
  r: number;
  p: number;
}

/** Default cost: N = 2^17 (128 MiB, about a second), r 8, p 1. */
const defaultScrypt: ScryptParams = { n: 2 ** 17, r: 8, p: 1 };

/** A keystore file's JSON. */
export interface Keystore {
  version: 3;
  id: string;
  address: string;
  crypto: {
    cipher: 'aes-128-ctr';
    cipherparams: { iv: string };
    ciphertext: string;
    kdf: 'scrypt';
    kdfparams: { dklen: 32; n: number; r: number; p: number; salt: string };
    mac: string;
  };
}

/** A keystore that cannot be opened: a wrong password or a damaged file (one line for the operator). */
export class KeystoreError extends Error {}

/** True when `v` has a keystore's shape (what tells it apart from a plain `{"privateKey"}` key file). */
export function isKeystore(v: unknown): v is Keystore {
  const c = (v as Keystore | null)?.crypto;
  return (
    typeof c === 'object' &&
    c !== null &&
    c.kdf === 'scrypt' &&
    c.cipher === 'aes-128-ctr' &&
    typeof c.ciphertext === 'string' &&
    typeof c.mac === 'string' &&
    typeof c.cipherparams?.iv === 'string' &&
    typeof c.kdfparams?.salt === 'string'
  );
}

function mac(derived: Uint8Array, ciphertext: Uint8Array): string {
  return bytesToHex(keccak_256(new Uint8Array([...derived.subarray(16, 32), ...ciphertext])));
}

/** Encrypts a key pair's private key under `password`. */
export async function encryptKeystore(key: KeyPair, password: string, params: ScryptParams = defaultScrypt): Promise<Keystore> {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  const derived = await scryptAsync(password.normalize('NFKC'), salt, { N: params.n, r: params.r, p: params.p, dkLen: 32 });
  const ciphertext = ctr(derived.subarray(0, 16), iv).encrypt(hexToBytes(key.privateKey));
  return {
    version: 3,
    id: randomUUID(),
    address: key.address,
    crypto: {
      cipher: 'aes-128-ctr',
      cipherparams: { iv: bytesToHex(iv) },
      ciphertext: bytesToHex(ciphertext),
      kdf: 'scrypt',
      kdfparams: { dklen: 32, n: params.n, r: params.r, p: params.p, salt: bytesToHex(salt) },
      mac: mac(derived, ciphertext),
    },
  };
}

/** Decrypts a keystore; a wrong password is a KeystoreError. */
export async function decryptKeystore(store: Keystore, password: string, name = 'keystore'): Promise<KeyPair> {
  const c = store.crypto;
  const { n, r, p, salt } = c.kdfparams;
  // Bounds keep a hostile file from asking for gigabytes of scrypt memory.
  if (!Number.isSafeInteger(n) || n < 2 || n > 2 ** 20 || (n & (n - 1)) !== 0 || r < 1 || r > 16 || p < 1 || p > 16)
    throw new KeystoreError(`${name}: unsupported scrypt parameters`);
  let ciphertext: Uint8Array;
  let derived: Uint8Array;
  try {
    ciphertext = hexToBytes(c.ciphertext);
    derived = await scryptAsync(password.normalize('NFKC'), hexToBytes(salt), { N: n, r, p, dkLen: 32 });
    if (ciphertext.length !== 32 || hexToBytes(c.cipherparams.iv).length !== 16) throw new Error();
  } catch {
    throw new KeystoreError(`${name}: damaged keystore (bad hex or lengths)`);
  }
  if (mac(derived, ciphertext) !== c.mac.toLowerCase())
    throw new KeystoreError(`${name}: wrong password (the keystore's MAC does not match)`);
  const priv = ctr(derived.subarray(0, 16), hexToBytes(c.cipherparams.iv)).decrypt(ciphertext);
  const key = keyPairFromPrivateKey(bytesToHex(priv));
  // The clear address is what password-free reads use (`wallet address`, `wallet balance`): it must be the key's.
  if (typeof store.address !== 'string' || store.address.toLowerCase() !== key.address.toLowerCase())
    throw new KeystoreError(
      `${name}: the keystore names address ${String(store.address).slice(0, 60)} but holds the key of ${key.address}`,
    );
  return key;
}
