/** core reads neither the environment nor the clock (what it may import: .dependency-cruiser.cjs, rule core-is-pure). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('core reads neither the environment nor the clock', () => {
  const core = new URL('../../../core', import.meta.url).pathname;
  const offenders = files(core).filter((f) => /process\.env|Date\.now\(\)|new Date\(\)/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(offenders, []);
});
