/** Account addresses: `ox` + hex of the first 20 bytes of SHA-256(public key). */
import { sha256Hex } from './hash.ts';
import { fromHex } from './encoding.ts';
import { makeRoom } from './recency.ts';

const ADDRESS_RE = /^ox[0-9a-f]{40}$/;

/** The treasury account. */
export const TREASURY_ADDRESS = 'ox0000000000000000000000000000000000000001';
/** The genesis block's proposer. */
export const ZERO_ADDRESS = `ox${'0'.repeat(40)}`;

/** Address of a 32-byte Ed25519 public key given as lowercase hex. */
export function addressFromPublicKey(publicKeyHex: string): string {
  const hit = derived.get(publicKeyHex);
  if (hit !== undefined) return hit;
  const address = `ox${sha256Hex(fromHex(publicKeyHex)).slice(0, 40)}`;
  // Senders repeat: every transaction's `from` is checked against its key (replay, sync, mempool).
  makeRoom(derived, DERIVED_MAX);
  derived.set(publicKeyHex, address);
  return address;
}

/** Recently derived addresses by public key (oldest evicted first). */
const derived = new Map<string, string>();
const DERIVED_MAX = 4096;

/** True for a canonical (lowercase) address. */
export function isAddress(s: unknown): s is string {
  return typeof s === 'string' && ADDRESS_RE.test(s);
}

// ASCII only: a check after toLowerCase() would let letters that lower-case into ASCII through.
const ANY_CASE_RE = /^[oO][xX][0-9a-fA-F]{40}$/;

/** True for an address in any case (`ox` + 40 hex): what a signed transaction may carry. */
export function isAddressAnyCase(s: unknown): s is string {
  return typeof s === 'string' && ANY_CASE_RE.test(s);
}

/** Lower-cases an address given in any case; null when it is not an address at all. */
export function normalizeAddress(s: string): string | null {
  return ANY_CASE_RE.test(s) ? s.toLowerCase() : null;
}
