/**
 * What a test does when a tool it drives is missing here (Chromium, HAProxy, PostgreSQL, promtool,
 * systemd-analyze, root for a tmpfs mount): it is reported *skipped* with the reason, so a run on a
 * laptop says what it did not check. Under `CI=true` a skip fails the run (test/helpers/
 * tierReporter.ts): .ci/run installs every tool, so a skip there is a check that did not happen.
 *
 *   test('...', { skip: missing('chromium') }, async () => { ... });
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { postgresBin } from './postgresCluster.ts';

const found = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

const TOOLS = {
  chromium: () => existsSync('/usr/bin/chromium') || "Debian's chromium is not installed (apt-get install -y chromium)",
  haproxy: () => found('haproxy') || 'haproxy is not installed (apt-get install -y haproxy)',
  postgresql: () => postgresBin() !== null || 'the PostgreSQL server is not installed (apt-get install -y postgresql)',
  promtool: () => found('promtool') || 'promtool is not installed (apt-get install -y prometheus)',
  'systemd-analyze': () => found('systemd-analyze') || 'systemd-analyze is not installed (apt-get install -y systemd)',
  root: () => process.getuid?.() === 0 || 'needs root (a tmpfs mount, a socket given to another user)',
} as const;

const seen = new Map<keyof typeof TOOLS, string | false>();

/** False when `tool` is here, else the reason to skip (the `skip` option of `test` and `describe`). */
export function missing(tool: keyof typeof TOOLS): string | false {
  let reason = seen.get(tool);
  if (reason === undefined) {
    const r = TOOLS[tool]();
    reason = r === true ? false : r;
    seen.set(tool, reason);
  }
  return reason;
}

/** Skips the running test with `reason` when what it needs turned out missing only once it ran. */
export function skipOrFail(t: TestContext, reason: string): void {
  if (process.env.CI) throw new Error(`under CI this test must run, but: ${reason}`);
  t.skip(reason);
}
