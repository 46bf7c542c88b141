/**
 * A schema-valid example of every transaction type, found by trying plain candidate values
 * against each field's own check, so a new type needs no change here.
 */
import type { KeyPair } from '../../core/keys.ts';
import type { FieldSpec } from '../../core/fieldSpec.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import { TX_HANDLERS } from '../../core/tx/registry.ts';
import { signTx } from '../../core/txCodec.ts';
import { DEV_GENESIS, DEV_KEYS } from './coreSupport.ts';

const CANDIDATES: unknown[] = [
  DEV_KEYS[1].address,
  '1000',
  1,
  60_000,
  'ab'.repeat(32),
  'ab'.repeat(20),
  'ab'.repeat(24),
  'task0001',
  'hello',
  'text/plain',
  '/index.html',
  'aGVsbG8=',
  'chat',
  'completed',
  'block_energy',
  'user',
  'image',
  'miner',
  'like',
  'image:png',
  'audio:wav',
  true,
  [],
];

/** The first candidate value `spec` accepts. */
export function exampleValue(spec: FieldSpec, field = '?'): unknown {
  const v = CANDIDATES.find((c) => spec.check(c) === null);
  if (v === undefined) throw new Error(`no example value for ${field} (${spec.doc})`);
  return v;
}

/** Unsigned fields of a `type` transaction from `key`, optional fields included. */
export function exampleFields(type: string, key: KeyPair, over: Record<string, unknown> = {}): Record<string, unknown> {
  const schema = TX_HANDLERS.get(type)!.schema;
  const out: Record<string, unknown> = { type };
  for (const [name, spec] of Object.entries(schema.fields)) out[name] = exampleValue(spec, `${type}.${name}`);
  return { ...out, from: key.address, nonce: 0, timestamp: DEV_GENESIS.timestamp, ...over };
}

/** A signed, schema-valid `type` transaction. */
export function exampleTx(type: string, key: KeyPair = DEV_KEYS[0], over: Record<string, unknown> = {}): SignedTx {
  return signTx(exampleFields(type, key, over) as { type: string; from: string }, key) as SignedTx;
}
