/**
 * The scale run (`npm run bench -- --scale N`) at a small N, so it keeps working: it builds the
 * chain once (signing in workers), replays it with full verification in a fresh process,
 * restarts the node on it and prints its four rows; a second run finds the chain cached and,
 * where this process may make memory cgroups (root, as in CI), runs its nodes under a limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cliRun.ts';
import { tempDir } from '../../helpers/testChain.ts';
import { memoryGroup } from '../../bench/memoryGroup.ts';

const row = (out: string, start: string) => out.split('\n').find((l) => l.startsWith(`| ${start}`));

/** True when this process may make a memory cgroup (the bench's `--memory-limit`). */
function canLimitMemory(): boolean {
  try {
    memoryGroup(64).close();
    return true;
  } catch {
    return false;
  }
}

test('builds, replays and restarts a chain of 1,500 transfers to new accounts, then reuses the built chain', async () => {
  const tmp = tempDir('ombra-scale-test-');
  try {
    const run = (more: string[] = []) =>
      runCli(['--scale', '1500', '--chains', tmp.dir, ...more], { script: 'test/bench/run.ts', timeoutMs: 240_000 });
    const first = await run();
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /chain: 1,500 transfers to new accounts in 3 blocks \(built;/);
    assert.ok(existsSync(join(tmp.dir, 'fresh-transfers-1500-per-500', 'built.json')));
    // Every figure the issue asks for, as a table row with its goal.
    const replay = row(first.stdout, 'replay at 1500 transfers to 1500 new accounts');
    assert.ok(replay, first.stdout);
    assert.match(replay, /tx\/s \(CPU [\d.]+ s for [\d.]+ s\); [\d.]+ wall, [\d.]+ by CPU time of 2 x libsodium/);
    assert.match(
      row(first.stdout, 'peak RSS during the replay at 1500') ?? '',
      /\| [\d.]+ MiB \(peaks of its parts: anonymous [\d.]+ MiB, file-backed [\d.]+ MiB[^|]*\) \|.*\| <= 2048 MiB \| yes \|/,
    );
    assert.match(
      row(first.stdout, 'RSS at rest at 1500 accounts') ?? '',
      /\| [\d.]+ MiB \(anonymous [\d.]+, file-backed [\d.]+; heap [\d.]+ MiB/,
    );
    assert.match(row(first.stdout, 'restart at 1500 accounts') ?? '', /\| [\d.]+ s \|.*\| <= 10 s \|/);
    assert.match(first.stdout, /heap spaces \(MiB\): \{"old_space":/);
    // The replay's CPU is split by thread, the verify workers among them.
    assert.match(first.stdout, /us CPU a transfer by thread: main [\d.]+/);
    const limited = canLimitMemory();
    const second = await run(limited ? ['--memory-limit', '1024'] : []);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /chain: 1,500 transfers to new accounts in 3 blocks \(cached;/);
    if (limited) {
      assert.match(second.stdout, /memory group limited to 1024 MiB, each reading the store cold/);
      assert.match(second.stdout, /memory group: peak charge [\d.]+ MiB/);
      assert.match(
        row(second.stdout, 'peak RSS during the replay at 1500') ?? '',
        /under a 1024 MiB memory limit \(cgroup v[12]; reached \d+ times\)/,
      );
    }
  } finally {
    tmp.cleanup();
  }
});
