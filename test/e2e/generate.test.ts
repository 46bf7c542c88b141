/** The manifest generator (e2e/generate.ts): one seed, one manifest; seeds differ; the TOML reads back. */
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generateManifest, generateToml } from '../../e2e/generate.ts';
import { parseManifest } from '../../e2e/manifest.ts';

const t = suite('e2e generate');

t('the same seed gives the same manifest, byte for byte', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
      assert.is(generateToml(seed), generateToml(seed));
      assert.equal(generateManifest(seed), generateManifest(seed));
    }),
    { numRuns: 100 },
  );
});

t('the printed TOML parses back to the generated manifest', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 60, max: 7200 }), (seed, duration) => {
      assert.equal(parseManifest(generateToml(seed, duration)), generateManifest(seed, duration));
    }),
    { numRuns: 100 },
  );
});

t('seeds spread over networks, loads and kinds', () => {
  const ms = Array.from({ length: 64 }, (_, i) => generateManifest(i));
  assert.ok(new Set(ms.map((m) => `${m.authorities}/${m.followers}`)).size >= 6);
  assert.ok(new Set(ms.map((m) => m.perturb.kinds.join(','))).size >= 20);
  assert.ok(new Set(ms.map((m) => m.load.transferRate)).size >= 4);
  assert.ok(ms.some((m) => m.perturb.kinds.includes('partition')));
});

t.run();
