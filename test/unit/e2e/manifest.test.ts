/**
 * The e2e manifest (e2e/manifest.ts): TOML and JSON read the same, every valid manifest the
 * generator makes parses back to what it says, and each kind of bad field is refused by name.
 */
import fc from 'fast-check';
import { stringify } from 'smol-toml';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateRawManifest } from '../../../e2e/generate.ts';
import { ManifestError, nodeNames, parseManifest, validateManifest } from '../../../e2e/manifest.ts';
import { candidatesFor } from '../../../e2e/perturber.ts';

/** The problems a bad manifest is refused with (fails the test when it is accepted). */
function problems(raw: unknown): string[] {
  try {
    validateManifest(raw);
  } catch (e) {
    assert.ok(e instanceof ManifestError);
    return (e as ManifestError).problems;
  }
  assert.fail(`accepted ${JSON.stringify(raw)}`);
  return [];
}

const BASE = { name: 'x', authorities: 3, followers: 2, duration_s: 60 };

test('TOML and JSON of the same manifest give the same Manifest', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
      const raw = generateRawManifest(seed);
      assert.deepEqual(parseManifest(stringify(raw), 'toml'), parseManifest(JSON.stringify(raw), 'json'));
    }),
    { numRuns: 50 },
  );
});

test('every generated manifest is valid and keeps its figures', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
      const raw = generateRawManifest(seed) as { authorities: number; followers: number; load: { transfer_rate: number } };
      const m = validateManifest(raw);
      assert.equal(m.authorities, raw.authorities);
      assert.equal(m.followers, raw.followers);
      assert.equal(m.load.transferRate, raw.load.transfer_rate);
      assert.ok(m.perturb.kinds.length > 0);
      assert.ok(!m.perturb.kinds.includes('partition') || m.authorities >= 2);
    }),
    { numRuns: 200 },
  );
});

test('defaults fill what a minimal manifest leaves out', () => {
  const m = validateManifest(BASE);
  assert.equal(m.blockTimeMs, 1000);
  assert.equal(m.load.transferRate, 3);
  assert.deepEqual(m.perturb.kinds, []);
  assert.deepEqual(nodeNames(m), ['a0', 'a1', 'a2', 'f0', 'f1']);
});

test('a number out of range is named by its path', () => {
  fc.assert(
    fc.property(fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 11 }), fc.constant(2.5), fc.constant('3')), (bad) => {
      const p = problems({ ...BASE, authorities: bad });
      assert.ok(
        p.some((x) => x.startsWith('authorities: must be an integer in 1..10')),
        p.join('\n'),
      );
    }),
  );
  assert.ok(problems({ ...BASE, load: { transfer_rate: -1 } }).some((x) => x.startsWith('load.transfer_rate:')));
});

test('unknown fields, bad kinds, bad ranges and bad schedule entries are each refused by name', () => {
  assert.ok(problems({ ...BASE, colour: 'red' }).some((x) => x.startsWith('colour: unknown field')));
  assert.ok(problems({ ...BASE, load: { rate: 3 } }).some((x) => x.startsWith('load.rate: unknown field')));
  assert.ok(problems({ ...BASE, perturb: { kinds: ['meteor'] } }).some((x) => x.startsWith('perturb.kinds:')));
  assert.ok(problems({ ...BASE, perturb: { interval_s: [60, 30] } }).some((x) => x.startsWith('perturb.interval_s:')));
  const bad = problems({ ...BASE, perturb: { schedule: [{ at_s: 90, kind: 'kill', nodes: ['a7'] }] } });
  assert.ok(
    bad.some((x) => x.startsWith('perturb.schedule[0].at_s:')),
    bad.join('\n'),
  );
  assert.ok(
    bad.some((x) => x.startsWith('perturb.schedule[0].nodes:')),
    bad.join('\n'),
  );
  assert.ok(
    problems({ ...BASE, authorities: 1, followers: 1, perturb: { kinds: ['partition'] } }).some((x) => x.includes('partition needs')),
  );
  assert.ok(problems({ ...BASE, authorities: 1, followers: 0 }).some((x) => x.includes('at least 2 nodes')));
});

test('spared nodes must be nodes of the network, and one node must be left to perturb', () => {
  assert.ok(problems({ ...BASE, perturb: { spare: ['f9'] } }).some((x) => x.startsWith('perturb.spare: must name nodes')));
  assert.ok(
    problems({ ...BASE, authorities: 1, followers: 1, perturb: { spare: ['a0', 'f0'] } }).some((x) => x.includes('at least one node')),
  );
  assert.deepEqual(parseManifest(JSON.stringify({ ...BASE, perturb: { spare: ['f0'] } }), 'json').perturb.spare, ['f0']);
});

test('a spared node gets link faults only, never a kill, pause, restart or full disk', () => {
  const nodes = [
    { name: 'a0', tmpfs: '/m/a0' },
    { name: 'f0', tmpfs: '/m/f0' },
    { name: 'f1', tmpfs: null },
  ];
  const spare = new Set(['f0']);
  for (const kind of ['kill', 'pause', 'restart'] as const)
    assert.deepEqual(
      candidatesFor(kind, nodes, spare).map((n) => n.name),
      ['a0', 'f1'],
    );
  assert.deepEqual(
    candidatesFor('disk_full', nodes, spare).map((n) => n.name),
    ['a0'],
  );
  for (const kind of ['disconnect', 'delay', 'drop'] as const)
    assert.deepEqual(
      candidatesFor(kind, nodes, spare).map((n) => n.name),
      ['a0', 'f0', 'f1'],
    );
});

test('text that is not TOML or JSON is one clear problem', () => {
  try {
    parseManifest('authorities = = 3', 'toml');
    assert.fail('parsed');
  } catch (e) {
    assert.ok(e instanceof ManifestError);
    assert.match((e as ManifestError).problems[0], /^not valid TOML/);
  }
});

test('the shipped manifests are valid: ci fits its 4 minutes, soak runs 2 hours with every kind', async () => {
  const { readFileSync } = await import('node:fs');
  const ci = parseManifest(readFileSync(new URL('../../../e2e/networks/ci.toml', import.meta.url), 'utf8'));
  assert.equal(ci.authorities, 3);
  assert.equal(ci.followers, 2);
  assert.ok(ci.durationS + ci.settleS <= 180, 'ci leaves a minute for start-up and checks');
  const soak = parseManifest(readFileSync(new URL('../../../e2e/networks/soak.toml', import.meta.url), 'utf8'));
  assert.ok(soak.durationS + soak.settleS >= 7200);
  assert.deepEqual(soak.perturb.intervalS, [30, 60]);
  assert.deepEqual(soak.perturb.spare, ['f1'], 'one follower runs the whole soak, for the memory invariant');
  assert.deepEqual([...soak.perturb.kinds].sort(), ['delay', 'disconnect', 'disk_full', 'drop', 'kill', 'partition', 'pause', 'restart']);
});
