/**
 * Wallet keys: BIP-39 mnemonic -> seed (empty passphrase) -> BIP-32 at m/44'/7777'/0'/0/index;
 * the derived 32-byte private key is the Ed25519 secret key. Signing uses @noble/ed25519.
 */
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { HDKey } from '@scure/bip32';
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { addressFromPublicKey } from './address.ts';
import { fromHex, isHex, toHex } from './encoding.ts';

ed.hashes.sha512 = sha512;

/** The development mnemonic of the operator contract. Never use it for real funds. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/** A wallet key pair with its address; all hex lowercase. */
export interface KeyPair {
  privateKey: string;
  publicKey: string;
  address: string;
}

/** The derivation path of account `index`. */
export function derivationPath(index: number): string {
  return `m/44'/7777'/0'/0/${index}`;
}

/** A fresh 24-word English mnemonic. */
export function newMnemonic(): string {
  return generateMnemonic(wordlist, 256);
}

/** True for a valid English BIP-39 mnemonic (checksum included). */
export function isValidMnemonic(mnemonic: string): boolean {
  return validateMnemonic(mnemonic.trim().replace(/\s+/g, ' '), wordlist);
}

/** Derives the key pair of account `index` (0 <= index < 2^31) from a mnemonic. */
export function keyPairFromMnemonic(mnemonic: string, index = 0): KeyPair {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) throw new RangeError(`bad account index ${index}`);
  const normalized = mnemonic.trim().replace(/\s+/g, ' ');
  if (!validateMnemonic(normalized, wordlist)) throw new Error('invalid BIP-39 mnemonic');
  const node = HDKey.fromMasterSeed(mnemonicToSeedSync(normalized)).derive(derivationPath(index));
  if (!node.privateKey) throw new Error('derivation produced no private key');
  return keyPairFromPrivateKey(toHex(node.privateKey));
}

/** The key pair of a 32-byte Ed25519 secret key given as hex. */
export function keyPairFromPrivateKey(privateKey: string): KeyPair {
  const priv = privateKey.toLowerCase();
  if (!isHex(priv, 64)) throw new Error('private key must be 64 hex characters');
  const publicKey = toHex(ed.getPublicKey(fromHex(priv)));
  return { privateKey: priv, publicKey, address: addressFromPublicKey(publicKey) };
}

/** Ed25519 signature (hex) over the UTF-8 bytes of `message`. */
export function signMessage(message: string, privateKey: string): string {
  return toHex(ed.sign(new TextEncoder().encode(message), fromHex(privateKey)));
}
