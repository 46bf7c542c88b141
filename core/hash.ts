/** SHA-256 helpers. node:crypto is pure computation here; it is ~10x faster than @noble/hashes. */
import { hash } from 'node:crypto';

/** Hex SHA-256 of a UTF-8 string or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

/** Raw SHA-256 digest. */
export function sha256(data: string | Uint8Array): Uint8Array {
  return new Uint8Array(hash('sha256', data, 'buffer'));
}

/** 64 zero hex characters: the empty root and the genesis parent. */
export const ZERO_HASH = '0'.repeat(64);

/**
 * Binary Merkle root over 32-byte hashes given as hex: pairs hash the concatenation of their
 * raw bytes, an odd last node pairs with itself, one hash is its own root, none gives ZERO_HASH.
 */
export function merkleRoot(hashes: readonly string[]): string {
  if (hashes.length === 0) return ZERO_HASH;
  let level: Buffer[] = hashes.map((h) => Buffer.from(h, 'hex'));
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i];
      const right = i + 1 < level.length ? level[i + 1] : left;
      next.push(hash('sha256', Buffer.concat([left, right]), 'buffer') as Buffer);
    }
    level = next;
  }
  return level[0].toString('hex');
}
