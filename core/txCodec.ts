/** Canonical transaction payloads, hashing and signing (docs/protocol.md, "Transactions"). */
import { addressFromPublicKey } from './address.ts';
import { ChainError } from './errors.ts';
import { sha256Hex } from './hash.ts';
import { signMessage, type KeyPair } from './keys.ts';
import { checkObject, stateFormOf } from './fieldSpec.ts';
import type { TxSchema } from './schema.ts';
import type { SignedTx } from './tx/handler.ts';
import { TX_HANDLERS } from './tx/registry.ts';
import { isHex } from './encoding.ts';

const SIGNED_EXTRA = ['type', 'publicKey', 'hash', 'signature'] as const;

/** The schema of a type name, or a ChainError INVALID_PARAMS. */
export function schemaOf(type: unknown): TxSchema {
  const h = typeof type === 'string' ? TX_HANDLERS.get(type) : undefined;
  if (!h)
    throw new ChainError('INVALID_PARAMS', typeof type === 'string' ? `unknown transaction type ${type.slice(0, 40)}` : 'type is required');
  return h.schema;
}

const names = new WeakMap<TxSchema, readonly string[]>();

/** A schema's field names in order, listed once (every transaction hashed or stored asks). */
function fieldNames(schema: TxSchema): readonly string[] {
  let list = names.get(schema);
  if (!list) {
    list = Object.keys(schema.fields);
    names.set(schema, list);
  }
  return list;
}

/**
 * The canonical payload: `type`, the schema's fields in order (absent optionals left out),
 * then `publicKey`. Its compact JSON is what gets hashed.
 */
export function canonicalPayload(tx: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { type: tx.type };
  for (const name of fieldNames(schemaOf(tx.type))) if (tx[name] !== undefined) out[name] = tx[name];
  out.publicKey = tx.publicKey;
  return out;
}

/** hex SHA-256 of the canonical payload's compact JSON. */
export function txHash(tx: Record<string, unknown>): string {
  return sha256Hex(JSON.stringify(canonicalPayload(tx)));
}

/**
 * Checks a value is a well-formed signed transaction: a known type and exactly its fields,
 * each valid. Throws INVALID_PARAMS; does not check hash or signature.
 */
export function checkTxShape(raw: unknown): SignedTx {
  assertTxShape(raw);
  return raw;
}

/** Throws INVALID_PARAMS naming the first thing wrong with `raw` as a signed transaction. */
function assertTxShape(raw: unknown): asserts raw is SignedTx {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ChainError('INVALID_PARAMS', 'transaction must be a JSON object');
  // Read through `in` (no copy, no cast: this runs for every transaction of a replay).
  const schema = schemaOf('type' in raw ? raw.type : undefined);
  const why = checkObject(raw, schema.fields, SIGNED_EXTRA);
  if (why) throw new ChainError('INVALID_PARAMS', `${schema.type}${why}`);
  if (!('publicKey' in raw) || !isHex(raw.publicKey, 64))
    throw new ChainError('INVALID_PARAMS', 'publicKey must be 64 lowercase hex characters');
  if (!('hash' in raw) || !isHex(raw.hash, 64)) throw new ChainError('INVALID_PARAMS', 'hash must be 64 lowercase hex characters');
  if (!('signature' in raw) || !isHex(raw.signature, 128))
    throw new ChainError('INVALID_PARAMS', 'signature must be 128 lowercase hex characters');
}

/** Checks the hash and that `from` (in any case) derives from `publicKey` (no signature verification). */
export function checkTxHash(tx: SignedTx): void {
  const expected = txHash(tx);
  if (expected !== tx.hash) throw new ChainError('HASH_MISMATCH', `hash mismatch: payload hashes to ${expected}`);
  if (addressFromPublicKey(tx.publicKey) !== tx.from.toLowerCase())
    throw new ChainError('VALIDATION_FAILED', "from doesn't derive from publicKey");
}

/**
 * The transaction as the state reads it: every address field lower-cased (addresses are
 * case-insensitive). The hash and signature stay those of the bytes as sent, which blocks keep;
 * state, indexes and reads use this form. The transaction itself when it is lower-case already
 * (no copy).
 */
export function stateTx<T extends SignedTx>(tx: T): T {
  return stateFormOf(tx, schemaOf(tx.type).fields);
}

/** Builds a signed transaction from its unsigned fields (without publicKey) and a key pair. */
export function signTx<T extends { type: string; from: string }>(
  unsigned: T,
  key: KeyPair,
): T & { publicKey: string; hash: string; signature: string } {
  const withKey = { ...unsigned, publicKey: key.publicKey } as Record<string, unknown>;
  const payload = canonicalPayload(withKey);
  const hash = sha256Hex(JSON.stringify(payload));
  return { ...(payload as T), publicKey: key.publicKey, hash, signature: signMessage(hash, key.privateKey) };
}

/** A stored transaction in canonical field order, with `hash` and `signature` last. */
export function canonicalTx(tx: SignedTx): SignedTx {
  return { ...canonicalPayload(tx), hash: tx.hash, signature: tx.signature } as SignedTx;
}
