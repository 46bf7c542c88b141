/** The manifest generator (e2e/generate.ts): one seed, one manifest; seeds differ; the TOML reads back. */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateManifest, generateToml } from '../../../e2e/generate.ts';
import { parseManifest } from '../../../e2e/manifest.ts';

test('the same seed gives the same manifest, byte for byte', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
      assert.equal(generateToml(seed), generateToml(seed));
      assert.deepEqual(generateManifest(seed), generateManifest(seed));
    }),
    { numRuns: 100 },
  );
});

test('the printed TOML parses back to the generated manifest', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 60, max: 7200 }), (seed, duration) => {
      assert.deepEqual(parseManifest(generateToml(seed, duration)), generateManifest(seed, duration));
    }),
    { numRuns: 100 },
  );
});

test('seeds spread over networks, loads and kinds', () => {
  const ms = Array.from({ length: 64 }, (_, i) => generateManifest(i));
  assert.ok(new Set(ms.map((m) => `${m.authorities}/${m.followers}`)).size >= 6);
  assert.ok(new Set(ms.map((m) => m.perturb.kinds.join(','))).size >= 20);
  assert.ok(new Set(ms.map((m) => m.load.transferRate)).size >= 4);
  assert.ok(ms.some((m) => m.perturb.kinds.includes('partition')));
});
