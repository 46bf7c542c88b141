import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const FORBIDDEN =
  /from\s+['"](level|classic-level|hono|@hono\/[^'"]*|libp2p|@libp2p\/[^'"]*|@chainsafe\/[^'"]*|rxjs[^'"]*|nodemailer|node:(fs|net|http|https|dgram|child_process|worker_threads|os|process))['"]/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('core imports no storage, network, framework or process modules', () => {
  const core = new URL('../../../core', import.meta.url).pathname;
  const offenders = files(core).filter((f) => FORBIDDEN.test(readFileSync(f, 'utf8')));
  assert.deepEqual(offenders, []);
});

test('core reads neither the environment nor the clock', () => {
  const core = new URL('../../../core', import.meta.url).pathname;
  const offenders = files(core).filter((f) => /process\.env|Date\.now\(\)|new Date\(\)/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(offenders, []);
});
