import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressFromPublicKey } from '../../../core/address.ts';
import { isHex } from '../../../core/encoding.ts';
import { merkleRoot } from '../../../core/hash.ts';

/** The Merkle rule written out plainly: one buffer per node, a new array per level. */
function referenceRoot(hashes: string[]): string {
  if (hashes.length === 0) return '0'.repeat(64);
  let level: Buffer[] = hashes.map((h) => Buffer.from(h, 'hex'));
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const right = level[i + 1] ?? level[i];
      next.push(
        createHash('sha256')
          .update(Buffer.concat([level[i], right]))
          .digest(),
      );
    }
    level = next;
  }
  return level[0].toString('hex');
}

const hash32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));

test('merkleRoot matches the plain rule for any number of leaves, odd levels included', () => {
  fc.assert(
    fc.property(fc.array(hash32, { maxLength: 70 }), (hashes) => {
      assert.equal(merkleRoot(hashes), referenceRoot(hashes));
    }),
  );
});

test('isHex accepts exactly lowercase hex of the given length, whatever the characters', () => {
  const hexish = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFgxz \u00e9\u0660'.split('')), maxLength: 70 });
  fc.assert(
    fc.property(fc.oneof(hexish, fc.string({ unit: 'binary', maxLength: 70 })), fc.nat(70), (s, n) => {
      assert.equal(isHex(s, n), s.length === n && /^[0-9a-f]*$/.test(s));
      assert.equal(isHex(s, s.length), /^[0-9a-f]*$/.test(s));
    }),
  );
  for (const v of [undefined, null, 12, ['ab'], { length: 2 }]) assert.equal(isHex(v, 2), false);
});

test('addressFromPublicKey gives the same address on a repeat (remembered) as on first derivation', () => {
  fc.assert(
    fc.property(hash32, (key) => {
      const expected = `ox${createHash('sha256').update(Buffer.from(key, 'hex')).digest('hex').slice(0, 40)}`;
      assert.equal(addressFromPublicKey(key), expected);
      assert.equal(addressFromPublicKey(key), expected);
    }),
  );
});
