/**
 * The client signs every transaction type byte-identical to core's canonical form: the type's
 * fields in schema order, then publicKey; the hash over exactly those bytes; a signature core
 * verifies; and the same bytes on the wire. Bodies are random (values drawn per field kind and
 * kept only when the schema's own check accepts them; optional fields present or not) and
 * handed over in random key order.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTx, OmbraClient, TRANSACTION_TYPES } from '../../../client/index.ts';
import { sha256Hex } from '../../../core/hash.ts';
import type { FieldSpec } from '../../../core/fieldSpec.ts';
import { verifySignature } from '../../../core/signature.ts';
import { TX_HANDLERS, TX_TYPES } from '../../../core/tx/registry.ts';
import { canonicalPayload, signTx } from '../../../core/txCodec.ts';
import { exampleValue } from '../../helpers/txExamples.ts';
import { DEV_KEYS } from '../../helpers/coreSupport.ts';

const hex = (n: number) => fc.uint8Array({ minLength: n / 2, maxLength: n / 2 }).map((b) => Buffer.from(b).toString('hex'));

/** Values of one field: by kind, kept only when the schema's check accepts them. */
function arbField(spec: FieldSpec, name: string): fc.Arbitrary<unknown> {
  const example = exampleValue(spec, name);
  const byKind: Record<string, () => fc.Arbitrary<unknown>> = {
    address: () => hex(40).map((h) => `ox${h}`),
    amount: () => fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
    uint: () => fc.nat(),
    hex: () => hex(String(example).length),
    text: () => fc.string({ unit: 'grapheme', maxLength: 40 }),
    id: () => fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  };
  const drawn = byKind[spec.kind]?.() ?? fc.constant(example);
  return fc.oneof(
    fc.constant(example),
    drawn.filter((v) => spec.check(v) === null),
  );
}

/** A random body of `type` (without from, nonce, timestamp), optional fields present or not. */
function arbBody(type: string): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.entries(TX_HANDLERS.get(type)!.schema.fields).filter(([n]) => !['from', 'nonce', 'timestamp'].includes(n));
  return fc
    .tuple(...fields.map(([n, s]) => fc.tuple(arbField(s, `${type}.${n}`), fc.boolean())))
    .map((vals) => Object.fromEntries(vals.flatMap(([v, keep], i) => (fields[i][1].optional && !keep ? [] : [[fields[i][0], v]]))));
}

/** The same entries in another order. */
const shuffled = (o: Record<string, unknown>, seed: number) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => ((a.length * 31 + seed) % 7) - ((b.length * 31 + seed) % 7) || (a < b ? 1 : -1)));

test('the registry and the client list the same types, and every one of them is covered below', () => {
  assert.deepEqual([...TRANSACTION_TYPES], [...TX_TYPES]);
  assert.ok(TX_TYPES.length >= 24);
});

for (const type of TX_TYPES) {
  test(`${type}: client-signed bytes, hash and signature are core's canonical form`, () => {
    fc.assert(
      fc.property(arbBody(type), fc.nat(9), fc.nat(), fc.nat(), fc.nat(), (body, k, nonce, timestamp, seed) => {
        const key = DEV_KEYS[k];
        const tx = buildTx(type, shuffled(body, seed), key, { nonce, timestamp });
        // The order written out from the schema itself, independent of core's encoder.
        const order = ['type', ...Object.keys(TX_HANDLERS.get(type)!.schema.fields).filter((n) => n in tx), 'publicKey'];
        assert.deepEqual(Object.keys(tx), [...order, 'hash', 'signature']);
        const payload = JSON.stringify(Object.fromEntries(order.map((n) => [n, tx[n]])));
        const reference = canonicalPayload({ ...body, type, from: key.address, nonce, timestamp, publicKey: key.publicKey });
        assert.equal(payload, JSON.stringify(reference));
        assert.equal(tx.hash, sha256Hex(payload));
        assert.ok(verifySignature(key.publicKey, tx.hash, tx.signature));
        assert.deepEqual(tx, signTx({ ...reference, type, from: key.address } as never, key));
      }),
      { numRuns: 40 },
    );
  });
}

test('what the client puts on the wire is exactly the signed transaction, key order included', async () => {
  const bodies: string[] = [];
  const fakeFetch = (async (_url: string, init: RequestInit) => {
    bodies.push(String(init.body));
    return new Response(JSON.stringify({ ok: true, hash: 'x' }), { status: 200 });
  }) as unknown as typeof fetch;
  const client = new OmbraClient({ url: 'http://node.invalid', fetch: fakeFetch });
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...TX_TYPES).chain((type) => fc.tuple(fc.constant(type), arbBody(type))),
      async ([type, body]) => {
        const tx = buildTx(type, body, DEV_KEYS[1], { nonce: 3, timestamp: 1 });
        await client.submit(tx);
        assert.equal(bodies.at(-1), JSON.stringify(tx));
      },
    ),
    { numRuns: 60 },
  );
});

test('a body the node would refuse is refused before signing, naming the field', () => {
  assert.throws(
    () => buildTx('TRANSFER', { to: 'nope', amount: '1', fee: '0' }, DEV_KEYS[0], { nonce: 0 }),
    /TRANSFER\.to must be an address/,
  );
  assert.throws(
    () => buildTx('TRANSFER', { to: DEV_KEYS[1].address, amount: '1', fee: '0', memo: 'x' }, DEV_KEYS[0], { nonce: 0 }),
    /memo is not a known field/,
  );
  assert.throws(() => buildTx('NOPE', {}, DEV_KEYS[0], { nonce: 0 }), /unknown transaction type NOPE/);
});
