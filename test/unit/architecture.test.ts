/**
 * The house drawn from imports is dependency-cruiser's to check (.dependency-cruiser.cjs: the
 * layers, the sink's public interface, core's purity, the explorer's browser modules, no circle
 * between files, type-only imports counted); this runs it over every source folder and the tests.
 * Beside it, what is not about imports: every folder has a layer, alert code in one place, and
 * the paths the guides name exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dependencyViolations, layerFolders, layers } from '../helpers/dependencyRules.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Bottom to top, as in .dependency-cruiser.cjs. */
const LAYERS = await layers();
/** The layers' top-level folders (the explorer is inside api/). */
const FOLDERS = await layerFolders();

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|js)$/.test(p) ? [p] : [];
  });
}

test('the layers, the sink, core, the explorer and every file are free of forbidden imports and circles', async () => {
  assert.deepEqual(await dependencyViolations([...FOLDERS, 'test']), []);
});

test('every top-level source folder has a place in the layers', () => {
  const folders = readdirSync(ROOT).filter(
    (n) => statSync(join(ROOT, n)).isDirectory() && !n.startsWith('.') && files(join(ROOT, n)).some((f) => f.endsWith('.ts')),
  );
  const placed = new Set<string>([...LAYERS, 'test', 'node_modules']);
  assert.deepEqual(
    folders.filter((f) => !placed.has(f)),
    [],
  );
});

test('alert code lives in services/alerts/ (the alert resource excepted: every route is in api/resources/)', () => {
  const stray = FOLDERS.flatMap((l) => files(join(ROOT, l)))
    .map((f) => relative(ROOT, f))
    .filter((f) => /alert/i.test(f) && !f.startsWith('services/alerts/') && !f.startsWith('api/resources/alerts/'));
  assert.deepEqual(stray, []);
});

/** The markdown a reader follows: the top-level guides and docs/. */
function guides(): string[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md'));
  return ['README.md', 'ARCHITECTURE.md', 'fixtures/README.md', ...docs.map((n) => `docs/${n}`)];
}

test('every repository file the guides name exists', () => {
  const PATH =
    /(?<![\w/.])(?:core|projections|node|checkpoint|queries|services|p2p|api|client|sink|simulator|launch|cli|e2e|deploy|test|fixtures|docs)\/[\w./-]+\.(?:ts|js|md|json|ndjson)\b/g;
  const missing = guides().flatMap((doc) =>
    [...readFileSync(join(ROOT, doc), 'utf8').matchAll(PATH)]
      .map((m) => m[0])
      .filter((p) => !existsSync(join(ROOT, p)))
      .map((p) => `${doc}: ${p}`),
  );
  assert.deepEqual([...new Set(missing)], []);
});
