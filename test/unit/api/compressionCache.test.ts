/**
 * The compressed-answer cache (api/compression.ts) holds at most its byte budget, body and
 * compressed form counted together over both encodings, as well as at most its entry count;
 * a recent body is answered from the cache (the very same bytes), a body over the budget is
 * compressed every time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { Compressor } from '../../../api/compression.ts';

/** A JSON-like body of `n` characters that compresses about in half (hex digits). */
const body = (n: number) => JSON.stringify({ data: randomBytes(Math.ceil(n / 2)).toString('hex') }).slice(0, n);

test('large bodies keep the cache within its byte budget, and the newest is still answered from it', () => {
  const budget = 1024 * 1024;
  const c = new Compressor({ cacheBudgetBytes: budget });
  let last = '';
  for (let i = 0; i < 40; i++) {
    last = body(100_000);
    c.compress(last, i % 2 ? 'gzip' : 'br');
    assert.ok(c.cachedBytes <= budget, `${c.cachedBytes} bytes held after ${i + 1} bodies`);
  }
  assert.ok(c.cachedBytes > budget / 2, 'the cache is used, not emptied');
  const again = c.compress(last, 'gzip');
  assert.equal(c.compress(last, 'gzip'), again, 'a recent body comes back as the same bytes');
  assert.equal(gunzipSync(again).toString(), last);
});

test('a body over the whole budget is compressed but not kept', () => {
  const c = new Compressor({ cacheBudgetBytes: 50_000, cacheMaxBytes: 256 * 1024 });
  const big = body(60_000);
  const first = c.compress(big, 'gzip');
  assert.equal(c.cachedBytes, 0);
  assert.notEqual(c.compress(big, 'gzip'), first, 'compressed again: nothing was kept');
  assert.equal(gunzipSync(first).toString(), big);
});

test('the entry count still bounds each encoding', () => {
  const c = new Compressor({ cacheEntries: 3 });
  const bodies = [body(2000), body(2000), body(2000), body(2000)];
  const forms = bodies.map((b) => c.compress(b, 'br'));
  assert.notEqual(c.compress(bodies[0], 'br'), forms[0], 'the oldest of four went');
  assert.equal(c.compress(bodies[3], 'br'), forms[3]);
});

test('any sequence of bodies and encodings keeps the held bytes within the budget', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 10_000, max: 300_000 }),
      fc.array(fc.record({ size: fc.integer({ min: 1024, max: 120_000 }), br: fc.boolean() }), { minLength: 1, maxLength: 25 }),
      (budget, ops) => {
        const c = new Compressor({ cacheBudgetBytes: budget, cacheEntries: 8 });
        for (const op of ops) {
          c.compress(body(op.size), op.br ? 'br' : 'gzip');
          if (c.cachedBytes < 0 || c.cachedBytes > budget) return false;
        }
        return true;
      },
    ),
    { numRuns: 40 },
  );
});
