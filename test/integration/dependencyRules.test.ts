/**
 * The dependency rules (.dependency-cruiser.cjs) catch what they forbid: a scratch tree with one
 * violation of each, cruised with the repository's rules, names every one (and a clean tree none).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { dependencyViolations } from '../helpers/dependencyRules.ts';

const dir = mkdtempSync(join(tmpdir(), 'ombra-deps-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `files` (path relative to `dir` -> text). */
function tree(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

test('a clean tree has no violation', async () => {
  tree({
    'core/base.ts': 'export const base = 1;\n',
    'node/user.ts': "import { base } from '../core/base.ts';\nexport const user = base;\n",
  });
  assert.deepEqual(await dependencyViolations(['core', 'node'], dir), []);
});

test('each rule names its violation: a layer upward, core impure, the sink past its interface, the explorer, a type-only circle', async () => {
  tree({
    'core/up.ts': "import { user } from '../node/user.ts';\nexport const up = user;\n",
    'core/impure.ts': "import { readFileSync } from 'node:fs';\nexport const impure = readFileSync;\n",
    'launch/launcher.ts': 'export const launcher = 1;\n',
    'sink/stray.ts': "import { launcher } from '../launch/launcher.ts';\nexport const stray = launcher;\n",
    'api/explorer/page.js': "import { user } from '../../node/user.ts';\nexport const page = user;\n",
    'api/served.ts': "import { page } from './explorer/page.js';\nexport const served = page;\n",
    'test/a.ts': "import type { B } from './b.ts';\nexport type A = { b?: B };\n",
    'test/b.ts': "import type { A } from './a.ts';\nexport type B = { a?: A };\n",
  });
  const found = await dependencyViolations(['core', 'node', 'launch', 'sink', 'api', 'test'], dir);
  assert.deepEqual(found.sort(), [
    'core-is-pure: core/impure.ts -> fs',
    'explorer-browser-only: api/explorer/page.js -> node/user.ts',
    'explorer-is-served-not-imported: api/served.ts -> api/explorer/page.js',
    'layer-core: core/up.ts -> node/user.ts',
    'layer-sink: sink/stray.ts -> launch/launcher.ts',
    'no-circular: test/a.ts -> test/b.ts -> test/a.ts',
    'sink-public-interface: sink/stray.ts -> launch/launcher.ts',
  ]);
});
