import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cliRun.ts';
import { tempDir } from '../../helpers/testChain.ts';

/** Every file below `dir`. */
function filesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

test("the entry caches compiled modules in Node's compile cache, in its default place", async () => {
  // No NODE_COMPILE_CACHE (with it Node would turn the cache on by itself): the default place is
  // below the temporary directory, here one of the test's own.
  const tmp = tempDir('ombra-tmpdir-');
  try {
    const env = { TMPDIR: tmp.dir, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined };
    const r = await runCli(['keys', '--help'], { env });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Usage: ombra keys/);
    // One entry per compiled module: the keys command's modules (the node's among them) were loaded through it.
    const entries = filesIn(join(tmp.dir, 'node-compile-cache'));
    assert.ok(entries.length > 20, `only ${entries.length} cache entries`);
  } finally {
    tmp.cleanup();
  }
});

test('NODE_DISABLE_COMPILE_CACHE turns the cache off', async () => {
  const cache = tempDir('ombra-compile-cache-');
  try {
    const r = await runCli(['--help'], { env: { NODE_COMPILE_CACHE: cache.dir, NODE_DISABLE_COMPILE_CACHE: '1' } });
    assert.equal(r.code, 0);
    assert.deepEqual(filesIn(cache.dir), []);
  } finally {
    cache.cleanup();
  }
});
