/**
 * What is derived from the route definitions is up to date: docs/api.md and the typed client's
 * route table are exactly what the definitions produce now (its answer types are the definitions' own).
 */
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GENERATED_FILES } from '../../../../api/endpoints/derived.ts';
import { plainPath } from '../../../../api/endpoints/endpoint.ts';
import { ENDPOINTS } from '../../../../api/endpoints/index.ts';
import { ROUTES } from '../../../../client/routes.ts';

for (const [path, source] of Object.entries(GENERATED_FILES))
  test(`${path} is exactly what api/endpoints/ produces (regenerate with \`npm run docs\`)`, () => {
    const onDisk = readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8');
    if (onDisk !== source()) assert.fail(`${path} is out of date with api/endpoints/: regenerate it with \`npm run docs\``);
  });

test("the client's route table names every definition's method and path", () => {
  assert.deepEqual(
    Object.entries(ROUTES).map(([id, [method, path]]) => `${id} ${method} ${path}`),
    Object.entries(ENDPOINTS).map(([id, e]) => `${id} ${e.method} ${plainPath(e.path)}`),
  );
});

test('docs/api.md has a row for every route', () => {
  const md = readFileSync(new URL('../../../../docs/api.md', import.meta.url), 'utf8');
  for (const e of Object.values(ENDPOINTS))
    assert.ok(md.includes(`| \`${e.method} ${plainPath(e.path)}\` |`), `${e.method} ${plainPath(e.path)}`);
});
