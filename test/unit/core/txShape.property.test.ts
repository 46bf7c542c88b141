/**
 * Hostile input: whatever arrives, checkTxShape and validateTx answer with a ChainError whose
 * code is one api/errors.ts maps, never with another exception; malformed fields are
 * INVALID_PARAMS naming the field.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { genesisState } from '../../../core/applyBlock.ts';
import { ChainError } from '../../../core/errors.ts';
import type { Genesis } from '../../../core/genesis.ts';
import { StateOverlay } from '../../../core/stateOverlay.ts';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { TX_HANDLERS, TX_TYPES } from '../../../core/tx/registry.ts';
import { checkTxShape } from '../../../core/txCodec.ts';
import { validateTx } from '../../../core/validateTx.ts';
import { exampleTx } from '../../helpers/txExamples.ts';
import { DEV_GENESIS, DEV_KEYS, LATE_GENESIS, refusal } from '../../helpers/coreSupport.ts';

/** The codes POST /api/chain/tx answers with (docs/protocol.md, "Validation order"). */
const TABLE = new Set([
  'INVALID_JSON',
  'PAYLOAD_TOO_LARGE',
  'INVALID_PARAMS',
  'FORK_NOT_ACTIVE',
  'HASH_MISMATCH',
  'VALIDATION_FAILED',
  'INVALID_SIGNATURE',
  'DUPLICATE_TX',
  'STALE_NONCE',
  'NONCE_GAP',
  'INSUFFICIENT_BALANCE',
  'INSUFFICIENT_STORAGE',
]);
const env = (g: Genesis) => ({
  state: new StateOverlay(genesisState(g).state),
  height: 1,
  timestamp: g.timestamp + g.blockTimeMs,
  genesis: g,
  inMempool: () => false,
});
const ENVS = [env(DEV_GENESIS), env(LATE_GENESIS)];
const EXAMPLES: SignedTx[] = TX_TYPES.map((type) => exampleTx(type, DEV_KEYS[2]));
const PROTOTYPE_KEYS = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];
const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  -1,
  -0.5,
  1.5,
  1e99,
  -1e99,
  2 ** 53,
  Number.NaN,
  Infinity,
  '',
  'zz'.repeat(32),
  'AB'.repeat(32),
  '-1',
  '01',
  '1e3',
  'x'.repeat(1_000_000),
  [],
  {},
  [1],
  { a: 1 },
];

/** Runs `fn`; returns the error code when it throws a ChainError of the table, fails otherwise. */
function outcome(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (e) {
    if (!(e instanceof ChainError)) throw new Error(`non-ChainError thrown: ${String(e)}`);
    if (!TABLE.has(e.code)) throw new Error(`code ${e.code} is not in the table`);
    return e.code;
  }
}

/** Sets an own enumerable property the way JSON.parse does (works for "__proto__" too). */
function withKey(o: object, key: string, value: unknown): Record<string, unknown> {
  const out = { ...o } as Record<string, unknown>;
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

test('every type has a schema-valid, correctly signed example', () => {
  assert.equal(EXAMPLES.length, TX_TYPES.length);
  for (const tx of EXAMPLES) assert.equal(checkTxShape(tx), tx, tx.type);
});

test('random JSON-ish values only ever give table codes', () => {
  const arb = fc.oneof(fc.anything(), fc.object(), fc.jsonValue(), fc.record({ type: fc.constantFrom(...TX_TYPES) }, { requiredKeys: [] }));
  fc.assert(
    fc.property(arb, (v) => {
      outcome(() => checkTxShape(v));
      for (const e of ENVS) outcome(() => validateTx(v, e));
    }),
    { numRuns: 1000 },
  );
});

test('anything with a known type and random other fields is INVALID_PARAMS or later', () => {
  const arb = fc.tuple(fc.constantFrom(...TX_TYPES), fc.dictionary(fc.string(), fc.jsonValue()));
  fc.assert(
    fc.property(arb, ([type, rest]) => outcome(() => validateTx({ ...rest, type }, ENVS[0])) !== 'ok'),
    { numRuns: 200 },
  );
});

/** An example tx and one of its keys (schema fields, type, publicKey, hash, signature). */
const arbTxAndKey = fc.constantFrom(...EXAMPLES).chain((tx) => fc.constantFrom(...Object.keys(tx)).map((key) => ({ tx, key })));

test('dropping a required field is INVALID_PARAMS naming it; dropping an optional one breaks the hash', () => {
  fc.assert(
    fc.property(arbTxAndKey, ({ tx, key }) => {
      const { [key]: _dropped, ...rest } = tx;
      const spec = TX_HANDLERS.get(tx.type)!.schema.fields[key];
      const r = refusal(() => validateTx(rest, ENVS[0]));
      if (spec?.optional) assert.equal(r.code, 'HASH_MISMATCH');
      else if (spec) assert.deepEqual(r, { code: 'INVALID_PARAMS', message: `${tx.type}.${key} is required` });
      else if (key === 'type') assert.deepEqual(r, { code: 'INVALID_PARAMS', message: 'type is required' });
      else
        assert.deepEqual(r, {
          code: 'INVALID_PARAMS',
          message: `${key} must be ${key === 'signature' ? 128 : 64} lowercase hex characters`,
        });
    }),
    { numRuns: 150 },
  );
});

test('an extra field is refused as unknown, prototype names included', () => {
  const arb = fc.tuple(
    fc.constantFrom(...EXAMPLES),
    fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ minLength: 1 })),
    fc.jsonValue(),
  );
  fc.assert(
    fc.property(arb, ([tx, key, value]) => {
      fc.pre(!(key in tx) || PROTOTYPE_KEYS.includes(key));
      assert.deepEqual(
        refusal(() => validateTx(withKey(tx, key, value), ENVS[0])),
        { code: 'INVALID_PARAMS', message: `${tx.type}.${key} is not a known field` },
      );
    }),
    { numRuns: 150 },
  );
  for (const key of PROTOTYPE_KEYS) {
    const parsed = JSON.parse(JSON.stringify(EXAMPLES[0]).replace(/}$/, `,${JSON.stringify(key)}:1}`));
    assert.equal(refusal(() => checkTxShape(parsed)).code, 'INVALID_PARAMS', key);
  }
});

test('a hostile value in any field (wrong type, negative, 1e99, huge, non-hex) is INVALID_PARAMS naming the field', () => {
  const arb = fc.tuple(arbTxAndKey, fc.constantFrom(...HOSTILE_VALUES));
  fc.assert(
    fc.property(arb, ([{ tx, key }, value]) => {
      const spec = TX_HANDLERS.get(tx.type)!.schema.fields[key];
      fc.pre(key !== 'type' && (spec ? spec.check(value) !== null : true));
      const r = refusal(() => validateTx({ ...tx, [key]: value }, ENVS[0]));
      assert.equal(r.code, 'INVALID_PARAMS');
      assert.ok(spec ? r.message.startsWith(`${tx.type}.${key} `) : r.message.startsWith(`${key} must be`), r.message);
    }),
    { numRuns: 300 },
  );
});

test('a hostile type is INVALID_PARAMS: unknown transaction type, or type is required', () => {
  for (const type of HOSTILE_VALUES.concat(['transfer', 'TRANSFER ', '__proto__', 'constructor'])) {
    const r = refusal(() => validateTx({ ...EXAMPLES[0], type }, ENVS[0]));
    assert.equal(r.code, 'INVALID_PARAMS', String(type));
    assert.ok(/^(unknown transaction type |type is required$)/.test(r.message), r.message);
  }
});

test('mutated valid transactions of every type only ever give table codes, on both genesis files', () => {
  const mutation = fc.oneof(
    arbTxAndKey.map(({ tx, key }) => {
      const { [key]: _x, ...rest } = tx;
      return rest;
    }),
    fc.tuple(arbTxAndKey, fc.constantFrom(...HOSTILE_VALUES)).map(([{ tx, key }, v]) => ({ ...tx, [key]: v })),
    fc.tuple(fc.constantFrom(...EXAMPLES), fc.string(), fc.anything()).map(([tx, k, v]) => withKey(tx, k, v)),
    fc.constantFrom(...EXAMPLES),
  );
  fc.assert(
    fc.property(mutation, (v) => {
      for (const e of ENVS) outcome(() => validateTx(v, e));
    }),
    { numRuns: 800 },
  );
});
