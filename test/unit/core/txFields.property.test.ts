/**
 * Every signed field is covered by the hash and the signature: change one and the transaction
 * no longer verifies, with the code that names why. Key order on the wire does not matter;
 * the canonical order does.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../core/hash.ts';
import { signMessage } from '../../../core/keys.ts';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { TX_HANDLERS } from '../../../core/tx/registry.ts';
import { canonicalPayload, signTx, txHash } from '../../../core/txCodec.ts';
import { verifyTx } from '../../../core/validateTx.ts';
import { DEV_GENESIS, DEV_KEYS, refusal } from '../../helpers/coreSupport.ts';

const ENV = { height: 1, genesis: DEV_GENESIS };
const RUNS = { numRuns: 150 };

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `ox${Buffer.from(b).toString('hex')}`);
const amount = fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String);
const uint = fc.nat();
/** Values of every signed field of the four executable types, all schema-valid. */
const FIELD_ARBS: Record<string, fc.Arbitrary<unknown>> = {
  from: address,
  to: address,
  amount,
  fee: amount,
  bytes: amount,
  nonce: uint,
  timestamp: uint,
  blockIndex: uint,
  tokensConsumed: uint,
  reason: fc.constantFrom('block_energy', 'slashing'),
  name: fc.string({ minLength: 1, maxLength: 20 }),
  capabilities: fc.array(fc.stringMatching(/^[a-z0-9_:.-]{1,12}$/), { maxLength: 4 }),
};
const TYPES = ['TRANSFER', 'MINER_REGISTER', 'STORAGE_TRANSFER', 'BURN'];

/** A signed tx of `type` from a dev key with random valid fields. */
function arbTx(type: string) {
  const fields = TX_HANDLERS.get(type)!.schema.fields;
  const body = Object.fromEntries(
    Object.keys(fields)
      .filter((k) => k !== 'from')
      .map((k) => [k, FIELD_ARBS[k]]),
  );
  return fc
    .tuple(fc.integer({ min: 0, max: 9 }), fc.record(body))
    .map(([i, b]) => signTx({ type, from: DEV_KEYS[i].address, ...b }, DEV_KEYS[i]) as unknown as SignedTx);
}

/** A signed tx, one of its schema fields, and a different valid value for it. */
const arbMutation = fc
  .constantFrom(...TYPES)
  .chain((type) =>
    fc
      .tuple(arbTx(type), fc.constantFrom(...Object.keys(TX_HANDLERS.get(type)!.schema.fields)))
      .chain(([tx, field]) =>
        FIELD_ARBS[field].filter((v) => JSON.stringify(v) !== JSON.stringify(tx[field])).map((value) => ({ tx, field, value })),
      ),
  );

test('the field generators cover every signed field of TRANSFER, MINER_REGISTER, STORAGE_TRANSFER and BURN', () => {
  for (const type of TYPES) {
    for (const [name, spec] of Object.entries(TX_HANDLERS.get(type)!.schema.fields)) {
      assert.ok(FIELD_ARBS[name], `${type}.${name}`);
      fc.assert(
        fc.property(FIELD_ARBS[name], (v) => spec.check(v) === null),
        { numRuns: 30 },
      );
    }
  }
});

test('a generated signed transaction verifies', () => {
  fc.assert(
    fc.property(fc.constantFrom(...TYPES).chain(arbTx), (tx) => verifyTx(tx, ENV).hash === tx.hash),
    { numRuns: 40 },
  );
});

test('changing any signed field changes the hash, and keeping the old hash is HASH_MISMATCH', () => {
  fc.assert(
    fc.property(arbMutation, ({ tx, field, value }) => {
      const changed = { ...tx, [field]: value };
      assert.notEqual(txHash(changed), tx.hash);
      assert.deepEqual(
        refusal(() => verifyTx(changed, ENV)),
        { code: 'HASH_MISMATCH', message: `hash mismatch: payload hashes to ${txHash(changed)}` },
      );
    }),
    RUNS,
  );
});

test('a changed field with a recomputed hash but the old signature is INVALID_SIGNATURE (from: VALIDATION_FAILED)', () => {
  fc.assert(
    fc.property(arbMutation, ({ tx, field, value }) => {
      const changed = { ...tx, [field]: value };
      const rehashed = { ...changed, hash: txHash(changed) };
      const expected =
        field === 'from'
          ? { code: 'VALIDATION_FAILED', message: "from doesn't derive from publicKey" }
          : { code: 'INVALID_SIGNATURE', message: 'signature invalid' };
      assert.deepEqual(
        refusal(() => verifyTx(rehashed, ENV)),
        expected,
      );
    }),
    RUNS,
  );
});

test('swapping in another key (publicKey and from together) is HASH_MISMATCH, then INVALID_SIGNATURE once rehashed', () => {
  const pair = fc.tuple(fc.constantFrom(...TYPES).chain(arbTx), fc.integer({ min: 0, max: 9 }));
  fc.assert(
    fc.property(pair, ([tx, j]) => {
      const other = DEV_KEYS[j];
      fc.pre(other.publicKey !== tx.publicKey);
      const changed = { ...tx, publicKey: other.publicKey, from: other.address };
      assert.equal(refusal(() => verifyTx(changed, ENV)).code, 'HASH_MISMATCH');
      assert.deepEqual(
        refusal(() => verifyTx({ ...changed, hash: txHash(changed) }, ENV)),
        { code: 'INVALID_SIGNATURE', message: 'signature invalid' },
      );
      assert.deepEqual(
        refusal(() => verifyTx({ ...tx, publicKey: other.publicKey, hash: txHash({ ...tx, publicKey: other.publicKey }) }, ENV)),
        {
          code: 'VALIDATION_FAILED',
          message: "from doesn't derive from publicKey",
        },
      );
    }),
    { numRuns: 40 },
  );
});

/** A signed tx and a permutation of its keys that moves at least one payload field. */
const arbShuffled = fc
  .constantFrom(...TYPES)
  .chain(arbTx)
  .chain((tx) => fc.shuffledSubarray(Object.keys(tx), { minLength: Object.keys(tx).length }).map((keys) => ({ tx, keys })));
const reorder = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));

test('reordering keys on the wire changes neither the canonical hash nor validity', () => {
  fc.assert(
    fc.property(arbShuffled, ({ tx, keys }) => {
      const wire = JSON.parse(JSON.stringify(reorder(tx, keys))) as Record<string, unknown>;
      assert.equal(txHash(wire), tx.hash);
      assert.deepEqual(Object.keys(canonicalPayload(wire)), Object.keys(canonicalPayload(tx)));
      assert.equal(verifyTx(wire, ENV).hash, tx.hash);
    }),
    RUNS,
  );
});

test('a hash or signature over a wrongly ordered payload fails (HASH_MISMATCH, INVALID_SIGNATURE)', () => {
  fc.assert(
    fc.property(arbShuffled, ({ tx, keys }) => {
      const payload = canonicalPayload(tx);
      const wrong = reorder(payload, keys);
      fc.pre(JSON.stringify(wrong) !== JSON.stringify(payload));
      const key = DEV_KEYS.find((k) => k.publicKey === tx.publicKey)!;
      const wrongHash = sha256Hex(JSON.stringify(wrong));
      const signedWrong = { ...wrong, hash: wrongHash, signature: signMessage(wrongHash, key.privateKey) };
      assert.deepEqual(
        refusal(() => verifyTx(signedWrong, ENV)),
        { code: 'HASH_MISMATCH', message: `hash mismatch: payload hashes to ${tx.hash}` },
      );
      const mixed = { ...tx, signature: signMessage(wrongHash, key.privateKey) };
      assert.deepEqual(
        refusal(() => verifyTx(mixed, ENV)),
        { code: 'INVALID_SIGNATURE', message: 'signature invalid' },
      );
    }),
    RUNS,
  );
});

test('the canonical TRANSFER payload is exactly type, from, to, amount, fee, nonce, timestamp, publicKey', () => {
  const tx = signTx(
    { type: 'TRANSFER', timestamp: 5, nonce: 1, fee: '2', amount: '3', to: DEV_KEYS[1].address, from: DEV_KEYS[0].address },
    DEV_KEYS[0],
  );
  assert.deepEqual(Object.keys(tx), ['type', 'from', 'to', 'amount', 'fee', 'nonce', 'timestamp', 'publicKey', 'hash', 'signature']);
  const json = `{"type":"TRANSFER","from":"${DEV_KEYS[0].address}","to":"${DEV_KEYS[1].address}","amount":"3","fee":"2","nonce":1,"timestamp":5,"publicKey":"${DEV_KEYS[0].publicKey}"}`;
  assert.equal(tx.hash, sha256Hex(json));
});
