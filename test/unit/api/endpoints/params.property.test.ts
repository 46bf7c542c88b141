/**
 * A parameter's schema and its parser come from one builder, so they agree: for any string, a
 * parser with a `pattern` or `enum` accepts it exactly when the schema does, and refuses it
 * with INVALID_PARAMS; `limit` clamps to its maximum, never past it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Param } from '../../../../api/endpoints/endpoint.ts';
import { ENDPOINTS } from '../../../../api/endpoints/index.ts';
import { addressParam, hashParam, limit, matching, offset, oneOfParam } from '../../../../api/endpoints/params.ts';
import { ChainError } from '../../../../core/errors.ts';

const ajv = new Ajv2020({ strict: false });

/** True when `p` parses `s`; false when it refuses it with INVALID_PARAMS (anything else fails the test). */
function accepts(p: Param, s: string): boolean {
  try {
    p.parse?.(s);
    return true;
  } catch (e) {
    assert.ok(e instanceof ChainError && e.code === 'INVALID_PARAMS', String(e));
    return false;
  }
}

/** Strings near the interesting ones: hex, addresses, ids, and anything. */
const candidates = fc.oneof(
  fc.string({ maxLength: 70 }),
  fc.stringMatching(/^[0-9a-fA-F]{60,68}$/),
  fc.stringMatching(/^(ox|OX|Ox)[0-9a-fA-F]{38,42}$/),
  fc.stringMatching(/^[A-Za-z0-9_-]{0,70}$/),
  fc.stringMatching(/^[a-z0-9-]{1,66}$/),
);

/** Every parsed string parameter of every route, and the builders themselves. */
function stringParams(): [string, Param][] {
  const out: [string, Param][] = [
    ['hashParam', hashParam('h')],
    ['addressParam', addressParam()],
    ['matching', matching(/^[A-Za-z0-9_-]{3,64}$/, 'id', 'bad id', 'abc')],
    ['oneOfParam', oneOfParam('status', ['a', 'b'] as const, 'status')],
  ];
  for (const [id, e] of Object.entries(ENDPOINTS))
    for (const [name, p] of Object.entries(e.params ?? {}))
      if (p.parse && (p.schema.pattern || p.schema.enum) && p.schema.type === 'string') out.push([`${id} :${name}`, p]);
  return out;
}

test('a path parameter is accepted exactly when its schema accepts it', () => {
  for (const [what, p] of stringParams()) {
    const valid = ajv.compile(p.schema);
    fc.assert(
      fc.property(candidates, (s) => {
        assert.equal(accepts(p, s), valid(s), `${what}: ${JSON.stringify(s)}`);
      }),
      { numRuns: 300 },
    );
  }
});

test('limit: absent is its default, any count is clamped to its maximum, anything else is refused', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 2000 }), fc.string({ maxLength: 6 }), (max, n, junk) => {
      const p = limit(max, 30);
      assert.equal(p.parse(undefined), Math.min(30, max));
      assert.equal(p.parse(String(n)), Math.min(n, max));
      if (!/^[0-9]{1,15}$/.test(junk) && junk !== '') assert.ok(!accepts(p, junk));
    }),
  );
  assert.equal(offset.parse(''), 0);
  assert.ok(!accepts(offset, '-1'));
});
