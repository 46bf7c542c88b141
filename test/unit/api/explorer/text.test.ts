/**
 * The explorer's values as text (api/explorer/text.ts), without a browser: OMBRA amounts through
 * core's formatter with thousands grouped (the same digits the command line and the CSV print),
 * bytes, durations, ages either side of now, UTC times, shortened ids.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  agoText,
  bytesText,
  durationText,
  microOf,
  microText,
  ombraNumber,
  ombraText,
  plural,
  shortId,
  utcText,
} from '../../../../api/explorer/text.ts';
import { formatOmbra } from '../../../../core/ombraAmount.ts';

test('OMBRA amounts: grouped whole part, no trailing zeros, exact micro-units; anything else as it is', () => {
  assert.equal(ombraText('1234500000'), '1,234.5 OMBRA');
  assert.equal(ombraText('1'), '0.000001 OMBRA');
  assert.equal(ombraText('0'), '0 OMBRA');
  assert.equal(ombraText(2_000_000), '2 OMBRA');
  assert.equal(ombraText('12345678901234567890123'), '12,345,678,901,234,567.890123 OMBRA');
  assert.equal(ombraText('-5'), '-5');
  assert.equal(ombraText(1.5), '1.5');
  assert.equal(ombraText(undefined), '');
  assert.equal(microText('1500000'), '1,500,000');
  assert.equal(ombraNumber('2500000'), 2.5, 'a chart plots OMBRA');
  assert.equal(ombraNumber(null), 0);
  assert.equal(microOf('007'), 7n);
  assert.equal(microOf('x'), null);
});

test('the grouped amount is core formatOmbra with separators: the same digits the CLI and the CSV print', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (micro) => {
      const shown = ombraText(micro.toString());
      assert.equal(shown.replace(/,/g, ''), `${formatOmbra(micro)} OMBRA`);
      assert.equal(shown, `${formatOmbra(micro, { grouped: true })} OMBRA`);
    }),
  );
  assert.equal(formatOmbra(-1_234_500_000n, { grouped: true }), '-1,234.5');
});

test('bytes, durations and counts with their units', () => {
  assert.equal(bytesText(1), '1 byte');
  assert.equal(bytesText(1023), '1,023 bytes');
  assert.equal(bytesText(1536), '1.50 KiB (1,536 bytes)');
  assert.equal(bytesText('52428800'), '50.0 MiB (52,428,800 bytes)');
  assert.equal(bytesText('many'), 'many');
  assert.equal(durationText(450), '450 ms');
  assert.equal(durationText(3210), '3.2 s');
  assert.equal(durationText(3_723_000), '1 h 2 min');
  assert.equal(durationText(90_061_000), '1 d 1 h');
  assert.equal(durationText(null), '');
  assert.equal(plural(1, 'block'), '1 block');
  assert.equal(plural(1200, 'block'), '1,200 blocks');
  assert.equal(plural(2, 'new entry', 'new entries'), '2 new entries');
});

test('ages before and after now, UTC times, short ids', () => {
  const now = Date.UTC(2026, 10, 28, 12, 0, 0);
  assert.equal(agoText(now, now), '0 s ago');
  assert.equal(agoText(now - 59_000, now), '59 s ago');
  assert.equal(agoText(now - 3 * 60_000, now), '3 min ago');
  assert.equal(agoText(now - 5 * 3_600_000, now), '5 h ago');
  assert.equal(agoText(now - 3 * 86_400_000, now), '3 d ago');
  assert.equal(agoText(now + 2_000, now), 'in 2 s', "a clock behind the chain's says so, not a negative age");
  assert.equal(utcText(now), '2026-11-28 12:00:00 UTC');
  assert.equal(shortId('a'.repeat(64)), `${'a'.repeat(10)}…${'a'.repeat(6)}`);
  assert.equal(shortId('ox12345678', 6), 'ox12345678');
  assert.equal(shortId(12), '12');
});
