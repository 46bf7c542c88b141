/**
 * The API key format and the stored record. A key reads `ombra_live_<40 hex>_<8 hex>`, the tail
 * being the CRC-32 of everything before it, so a mistyped or made-up key is refused without a
 * database lookup; only its SHA-256 is stored.
 */
import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** The recognisable prefix of a live key. */
export const KEY_PREFIX = 'ombra_live_';
const KEY_RE = /^ombra_live_([0-9a-f]{40})_([0-9a-f]{8})$/;

/** A stored key (no secret in it). */
export interface ApiKeyRecord {
  id: string;
  /** Hex SHA-256 of the key. */
  hash: string;
  tier: number;
  label: string;
  createdAt: number;
  lastUsedAt: number | null;
  /** The key that registered this one, if any. */
  ownerId: string | null;
  /** Client IP that registered it ('operator' for `ombra keys create`, 'tier' for another node's tier key). */
  createdBy: string;
  /** Another node's tier key (services/tierKeys.ts): the key its quota comes from. */
  rootId?: string;
}

/** What a listing shows. */
export interface ApiKeyView {
  id: string;
  label: string;
  tier: number;
  createdAt: number;
  lastUsedAt: number | null;
}

/** The checksum part of a key body. */
function checksum(body: string): string {
  return (crc32(body) >>> 0).toString(16).padStart(8, '0');
}

/** A fresh random key. */
export function generateKey(): string {
  const body = KEY_PREFIX + randomBytes(20).toString('hex');
  return `${body}_${checksum(body)}`;
}

/** True when `s` has the key format and a correct checksum (no lookup). */
export function wellFormedKey(s: string): boolean {
  const m = KEY_RE.exec(s);
  return m !== null && checksum(s.slice(0, s.length - 9)) === m[2];
}

/** Hex SHA-256 of a key. */
export function keyHash(key: string): string {
  return hash('sha256', key);
}

/** The public view of a record. */
export function keyView(r: ApiKeyRecord): ApiKeyView {
  return { id: r.id, label: r.label, tier: r.tier, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt };
}
