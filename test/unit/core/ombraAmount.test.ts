/** Decimal OMBRA amounts: exact, string to bigint, never floats. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AmountError, formatOmbra, parseOmbra } from '../../../core/ombraAmount.ts';

test('parses decimal OMBRA to exact micro-units', () => {
  assert.equal(parseOmbra('1.5'), 1_500_000n);
  assert.equal(parseOmbra('0.000001'), 1n);
  assert.equal(parseOmbra('.5'), 500_000n);
  assert.equal(parseOmbra('7.'), 7_000_000n);
  assert.equal(parseOmbra('123456789012345678901234567890'), 123456789012345678901234567890n * 1_000_000n);
  // 0.1 + 0.2 in floats is 0.30000000000000004: no float is involved here.
  assert.equal(parseOmbra('0.3'), 300_000n);
});

test('refuses more than 6 decimals, signs, exponents and junk with one line', () => {
  for (const [input, why] of [
    ['1.0000001', /more than 6 decimals/],
    ['-1', /must not be negative/],
    ['+1', /decimal number/],
    ['1e6', /decimal number/],
    ['', /decimal number/],
    ['.', /decimal number/],
    ['1.2.3', /decimal number/],
    ['0x10', /decimal number/],
    ['1 000', /decimal number/],
    ['NaN', /decimal number/],
  ] as const) {
    assert.throws(
      () => parseOmbra(input),
      (e: Error) => e instanceof AmountError && why.test(e.message) && !e.message.includes('\n'),
      input,
    );
  }
});

test('property: formatting then parsing any micro-unit amount gives it back', () => {
  fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), (micro) => parseOmbra(formatOmbra(micro)) === micro));
});

test('property: whole.fraction with up to 6 decimals is whole * 10^6 + fraction scaled', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.stringMatching(/^[0-9]{0,6}$/), (whole, frac) => {
      const text = frac ? `${whole}.${frac}` : `${whole}`;
      return parseOmbra(text) === whole * 1_000_000n + BigInt(frac.padEnd(6, '0') || '0');
    }),
  );
});

test('property: junk never parses and never throws anything but an AmountError', () => {
  fc.assert(
    fc.property(fc.string(), (s) => {
      try {
        const v = parseOmbra(s);
        return /^\s*[0-9]*(\.[0-9]{0,6})?\s*$/.test(s) && v >= 0n;
      } catch (e) {
        return e instanceof AmountError;
      }
    }),
  );
});
