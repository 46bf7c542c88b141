/** Addresses in any case: what a signed transaction's address field accepts, and its lower-case form. */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAddress, isAddressAnyCase, normalizeAddress } from '../../../core/address.ts';
import { f } from '../../../core/schema.ts';

const hexChar = fc.constantFrom(...'0123456789abcdefABCDEF');
const anyCase = fc
  .tuple(fc.constantFrom('ox', 'OX', 'Ox', 'oX'), fc.array(hexChar, { minLength: 40, maxLength: 40 }))
  .map(([p, h]) => p + h.join(''));

test('ox + 40 hex in any case is an address field; its state form is the lower-case canonical address', () => {
  const field = f.address();
  fc.assert(
    fc.property(anyCase, (a) => {
      assert.equal(field.check(a), null);
      assert.ok(isAddressAnyCase(a));
      const lower = field.stateForm!(a);
      assert.equal(lower, a.toLowerCase());
      assert.ok(isAddress(lower));
      assert.equal(normalizeAddress(a), lower);
    }),
  );
});

test('anything else is refused with the same message, whatever Unicode lower-cases it to', () => {
  const field = f.address();
  const other = fc.oneof(
    fc.string({ maxLength: 50 }),
    fc.string({ unit: 'grapheme', maxLength: 44 }),
    anyCase.map((a) => `${a}0`),
    anyCase.map((a) => a.slice(0, 41)),
    // Letters outside ASCII that lower-case into it (the Kelvin sign is k, U+0130 is i + a dot).
    anyCase.map((a) => `${a.slice(0, 41)}\u212a`),
    anyCase.map((a) => `\u0130${a.slice(1)}`),
    fc.integer(),
    fc.constant(null),
  );
  fc.assert(
    fc.property(other, (v) => {
      fc.pre(!(typeof v === 'string' && /^[oO][xX][0-9a-fA-F]{40}$/.test(v)));
      assert.equal(field.check(v), 'must be an address: ox + 40 hex');
      assert.ok(!isAddressAnyCase(v));
      if (typeof v === 'string') assert.equal(normalizeAddress(v), null);
    }),
  );
});
