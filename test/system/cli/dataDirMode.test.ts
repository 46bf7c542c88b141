/**
 * Issue 34 row 10: a node started under umask 022 keeps its data dir to its own user. A new data
 * dir is created 0700; one left 0755 with 0644 files (an older version, a shell's umask) is taken
 * back to 0700/0600 at start; every file the running node writes (LevelDB's own among them, the
 * peer key, the alert rows) is 0600, so another user reads no webhook secret.
 */
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startNodeProcess, waitFor } from '../../helpers/nodeProcess.ts';
import { tempDir } from '../../helpers/testChain.ts';

/** Every path under `dir` (itself included) with group or other permission bits. */
function open(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = statSync(p);
    if ((st.mode & 0o077) !== 0) out.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
  };
  walk(dir);
  return out;
}

test('under umask 022: a new data dir and an old 0755 one hold nothing another user may read, LevelDB files included', async () => {
  const tmp = tempDir('ombra-mode-');
  const old = process.umask(0o022);
  try {
    const fresh = join(tmp.dir, 'fresh');
    const legacy = join(tmp.dir, 'legacy');
    mkdirSync(join(legacy, 'checkpoints'), { recursive: true, mode: 0o755 });
    writeFileSync(join(legacy, 'banned-ips.txt'), '# none\n', { mode: 0o644 });
    chmodSync(legacy, 0o755);
    assert.equal(open(legacy).length, 3, 'the legacy dir starts open');
    for (const dir of [fresh, legacy]) {
      const node = await startNodeProcess(['--dev', '--data-dir', dir], {}, 60_000);
      try {
        // A webhook subscription: its signing secret is what another user read before.
        const res = await fetch(`${node.url}/api/alerts/subscribe`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            trigger: 'address_tx',
            params: { address: `ox${'1'.repeat(40)}` },
            channel: 'webhook',
            target: 'http://127.0.0.1:9/hook',
          }),
        });
        assert.equal(res.status, 200, await res.clone().text());
        // Blocks written, LevelDB logs and tables created by LevelDB itself.
        await waitFor(
          async () => ((await (await fetch(`${node.url}/api/chain/height`)).json()) as { height: number }).height >= 2 || undefined,
          30_000,
          100,
        );
      } finally {
        node.child.kill('SIGTERM');
        await node.exited;
      }
      assert.equal(statSync(dir).mode & 0o777, 0o700, dir);
      assert.ok(readdirSync(join(dir, 'db')).length > 3, 'LevelDB wrote its files');
      assert.deepEqual(open(dir), [], dir);
    }
  } finally {
    process.umask(old);
    tmp.cleanup();
  }
});
