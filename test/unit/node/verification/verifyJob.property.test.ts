/** The verify job's packing (node/verification/verifyJob.ts): every item comes out as it went in, in order. */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachItem, packJob } from '../../../../node/verification/verifyJob.ts';

const hex = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n });
// Mostly the usual lengths, with fields of other lengths and types among them (a hostile block).
const field = (n: number) =>
  fc.oneof(
    { weight: 6, arbitrary: hex(n) },
    { weight: 1, arbitrary: fc.string({ minLength: n - 1, maxLength: n + 1 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: n / 2, maxLength: n / 2 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, undefined, 7, { a: 1 }, ['x']) },
  );
const item = fc.record({ publicKey: field(64), hash: field(64), signature: field(128) });

test('each item is visited once, in order, with String() of each field', () => {
  fc.assert(
    fc.property(fc.array(item, { maxLength: 40 }), (items) => {
      const seen: [number, string, string, string][] = [];
      eachItem(packJob(1, items), (i, k, m, s) => seen.push([i, k, m, s]));
      assert.deepEqual(
        seen,
        items.map((x, i) => [i, String(x.publicKey), String(x.hash), String(x.signature)]),
      );
    }),
  );
});

test('items of the usual shape travel packed; the others apart', () => {
  const good = { publicKey: 'a'.repeat(64), hash: 'b'.repeat(64), signature: 'c'.repeat(128) };
  const job = packJob(3, [good, { ...good, hash: 5 }, good]);
  assert.equal(job.packed.length, 2 * 256);
  assert.deepEqual(job.odd, { at: [1], keys: ['a'.repeat(64)], messages: ['5'], signatures: ['c'.repeat(128)] });
});
