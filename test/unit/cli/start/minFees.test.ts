/** `--min-fee TYPE=MICRO` parsing: whole micro-units for known types with a `fee` field, else a usage error. */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../../../cli/args.ts';
import { parseMinFees } from '../../../../cli/start/minFees.ts';

test('known types with a fee field take whole micro-units', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.bigInt({ min: 0n, max: 10n ** 6n }), (a, b) => {
      assert.deepEqual(parseMinFees([`TRANSFER=${a}`, `TASK_SUBMIT=${b}`]), { TRANSFER: a, TASK_SUBMIT: b });
    }),
  );
  assert.deepEqual(parseMinFees([]), {});
});

test('anything else is a usage error', () => {
  for (const bad of [
    'TRANSFER',
    'TRANSFER=',
    'TRANSFER=-1',
    'TRANSFER=1.5',
    'TRANSFER=01',
    'transfer=1',
    'NOPE=1',
    'AGENT_REQUEST=5',
    'BURN=1',
  ])
    assert.throws(
      () => parseMinFees([bad]),
      (e: unknown) => e instanceof UsageError,
      bad,
    );
  fc.assert(
    fc.property(fc.string(), (s) => {
      try {
        const out = parseMinFees([s]);
        assert.equal(Object.keys(out).length, 1);
      } catch (e) {
        assert.ok(e instanceof UsageError);
      }
    }),
  );
});
