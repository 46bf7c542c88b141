/**
 * The house drawn from imports: each source folder may import only from folders below it in
 * LAYERS (or itself), so no arrow runs back up and no circle forms between folders.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const t = suite('architecture');
const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Bottom to top. */
const LAYERS = ['core', 'projections', 'node', 'queries', 'services', 'p2p', 'api', 'client', 'cli'] as const;
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|js)$/.test(p) ? [p] : [];
  });
}

/** Every relative import in the source folders as [from folder, to folder, file, specifier]. */
function folderEdges(): [string, string, string, string][] {
  const edges: [string, string, string, string][] = [];
  for (const layer of LAYERS) {
    for (const file of files(join(ROOT, layer))) {
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const spec = m[1] ?? m[2];
        const target = relative(ROOT, resolve(file, '..', spec)).split('/')[0];
        edges.push([layer, target, relative(ROOT, file), spec]);
      }
    }
  }
  return edges;
}

t('source folders import only from themselves and the folders below them', () => {
  const rank = new Map<string, number>(LAYERS.map((l, i) => [l, i]));
  const upward = folderEdges()
    .filter(([from, to]) => !rank.has(to) || rank.get(to)! > rank.get(from)!)
    .map(([from, to, file, spec]) => `${file} (${from}) imports ${spec} (${to})`);
  assert.equal(upward, []);
});

t('every top-level source folder has a place in the layers', () => {
  const folders = readdirSync(ROOT).filter(
    (n) => statSync(join(ROOT, n)).isDirectory() && !n.startsWith('.') && files(join(ROOT, n)).some((f) => f.endsWith('.ts')),
  );
  const placed = new Set<string>([...LAYERS, 'test', 'node_modules']);
  assert.equal(
    folders.filter((f) => !placed.has(f)),
    [],
  );
});

t('alert code lives in services/alerts/ (the router excepted: every router is in api/routes/)', () => {
  const stray = LAYERS.flatMap((l) => files(join(ROOT, l)))
    .map((f) => relative(ROOT, f))
    .filter((f) => /alert/i.test(f) && !f.startsWith('services/alerts/') && f !== 'api/routes/alerts.ts');
  assert.equal(stray, []);
});

t('the folder graph has no cycle', () => {
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
  assert.equal(cycle, []);
});

t.run();
