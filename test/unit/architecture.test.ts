/**
 * The house drawn from imports: each source folder may import only from folders below it in
 * LAYERS (or itself), so no arrow runs back up and no circle forms between folders; and no circle
 * forms between files either, inside a folder or across folders (type-only imports count: a
 * circle of types is the same knot for a reader). The explorer (api/explorer/) is browser code
 * above the client it imports: a layer of its own, nothing below imports it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Bottom to top. */
const LAYERS = [
  'core',
  'projections',
  'node',
  'checkpoint',
  'queries',
  'services',
  'p2p',
  'api',
  'client',
  'explorer',
  'sink',
  'simulator',
  'launch',
  'cli',
  'e2e',
] as const;
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/g;

/** The top-level folders of the layers ('explorer' is api/explorer/, inside api/). */
const FOLDERS = LAYERS.filter((l) => l !== 'explorer');
/** The layer of a path from the root: its top folder, api/explorer/ apart. */
const layerOf = (path: string): string => (path.startsWith('api/explorer/') ? 'explorer' : path.split('/')[0]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|js)$/.test(p) ? [p] : [];
  });
}

/** Every relative import in the source folders as [from folder, to folder, file, specifier]. */
function folderEdges(): [string, string, string, string][] {
  const edges: [string, string, string, string][] = [];
  for (const folder of FOLDERS) {
    for (const file of files(join(ROOT, folder))) {
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const spec = m[1] ?? m[2] ?? m[3];
        const target = layerOf(relative(ROOT, resolve(file, '..', spec)));
        edges.push([layerOf(relative(ROOT, file)), target, relative(ROOT, file), spec]);
      }
    }
  }
  return edges;
}

test('source folders import only from themselves and the folders below them', () => {
  const rank = new Map<string, number>(LAYERS.map((l, i) => [l, i]));
  const upward = folderEdges()
    .filter(([from, to]) => !rank.has(to) || rank.get(to)! > rank.get(from)!)
    .map(([from, to, file, spec]) => `${file} (${from}) imports ${spec} (${to})`);
  assert.deepEqual(upward, []);
});

test('the sink follows a node only through its public interface: it imports core and client, nothing else', () => {
  const stray = folderEdges()
    .filter(([from, to]) => from === 'sink' && !['sink', 'core', 'client'].includes(to))
    .map(([, to, file, spec]) => `${file} imports ${spec} (${to})`);
  assert.deepEqual(stray, []);
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

test('alert code lives in services/alerts/ (the router excepted: every router is in api/routes/)', () => {
  const stray = FOLDERS.flatMap((l) => files(join(ROOT, l)))
    .map((f) => relative(ROOT, f))
    .filter((f) => /alert/i.test(f) && !f.startsWith('services/alerts/') && f !== 'api/routes/alerts.ts');
  assert.deepEqual(stray, []);
});

test('the folder graph has no cycle', () => {
  const next = new Map<string, Set<string>>();
  for (const [from, to] of folderEdges()) if (from !== to) (next.get(from) ?? next.set(from, new Set()).get(from)!).add(to);
  const state = new Map<string, 'open' | 'done'>();
  const cycle: string[] = [];
  const visit = (n: string, path: string[]): boolean => {
    if (state.get(n) === 'done') return false;
    if (state.get(n) === 'open') {
      cycle.push(...path.slice(path.indexOf(n)), n);
      return true;
    }
    state.set(n, 'open');
    for (const m of next.get(n) ?? []) if (visit(m, [...path, n])) return true;
    state.set(n, 'done');
    return false;
  };
  for (const n of next.keys()) if (visit(n, [])) break;
  assert.deepEqual(cycle, []);
});

/** Every relative import between files (the source folders and the tests), file to the files it imports. */
function fileGraph(): Map<string, Set<string>> {
  const next = new Map<string, Set<string>>();
  for (const layer of [...FOLDERS, 'test']) {
    for (const file of files(join(ROOT, layer))) {
      const to = new Set<string>();
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) to.add(relative(ROOT, resolve(file, '..', m[1] ?? m[2] ?? m[3])));
      next.set(relative(ROOT, file), to);
    }
  }
  return next;
}

/** A circle in `next` as the path around it (first node repeated at the end), or [] when there is none. */
function findCycle(next: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (n: string): string[] => {
    if (state.get(n) === 'done') return [];
    if (state.get(n) === 'open') return [...path.slice(path.indexOf(n)), n];
    state.set(n, 'open');
    path.push(n);
    for (const m of [...(next.get(n) ?? [])].sort()) {
      const found = visit(m);
      if (found.length) return found;
    }
    path.pop();
    state.set(n, 'done');
    return [];
  };
  for (const n of [...next.keys()].sort()) {
    const found = visit(n);
    if (found.length) return found;
  }
  return [];
}

test('the cycle finder names the path around a circle', () => {
  const g = new Map([
    ['a.ts', new Set(['b.ts'])],
    ['b.ts', new Set(['c.ts', 'd.ts'])],
    ['c.ts', new Set(['a.ts'])],
    ['d.ts', new Set<string>()],
  ]);
  assert.deepEqual(findCycle(g), ['a.ts', 'b.ts', 'c.ts', 'a.ts']);
  g.get('c.ts')?.clear();
  assert.deepEqual(findCycle(g), []);
});

test('no file imports itself through a circle, in any folder (tests included)', () => {
  const cycle = findCycle(fileGraph());
  assert.ok(cycle.length === 0, `import circle: ${cycle.join(' -> ')}`);
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
