/**
 * deploy/haproxy.cfg.template rendered as deploy/read-tier.sh and the tests render it passes
 * `haproxy -c`, checks /api/health, and never cuts a live stream: its inactivity limits are longer
 * than the node's SSE ping interval. Skipped with a line where haproxy is not installed.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { missing } from '../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { defaultStreamOptions } from '../../../api/streams/streamOptions.ts';
import { REPO_ROOT } from '../../helpers/cliRun.ts';
import { renderHaproxyConfig } from '../../helpers/readTier.ts';
import { tempDir } from '../../helpers/testChain.ts';

/** A duration of the config (`500ms`, `30s`, `1h`) in ms. */
function ms(v: string): number {
  const m = /^(\d+)(ms|s|m|h)?$/.exec(v);
  if (!m) throw new Error(`not a duration: ${v}`);
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  return Number(m[1]) * (unit[m[2] ?? 'ms'] ?? Number.NaN);
}

test('rendered, it is a valid configuration with the followers as checked servers', { skip: missing('haproxy') }, () => {
  const cfg = renderHaproxyConfig('127.0.0.1:18080', '127.0.0.1:18404', ['http://127.0.0.1:18011', 'http://127.0.0.1:18012']);
  assert.doesNotMatch(cfg, /@(LISTEN|STATS|SERVERS)@/);
  assert.match(cfg, /^ {4}server follower2 127\.0\.0\.1:18012 check$/m);
  assert.match(cfg, /http-check send meth GET uri \/api\/health/);
  assert.match(cfg, /http-check expect status 200/);
  const tmp = tempDir('ombra-haproxy-');
  try {
    writeFileSync(join(tmp.dir, 'haproxy.cfg'), cfg);
    const r = spawnSync('haproxy', ['-c', '-f', join(tmp.dir, 'haproxy.cfg')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  } finally {
    tmp.cleanup();
  }
});

test('a live stream outlasts every inactivity limit: the node pings well within them, and no compression holds events back', {
  skip: missing('haproxy'),
}, () => {
  const cfg = renderHaproxyConfig('127.0.0.1:1', '127.0.0.1:2', []);
  const timeout = (name: string) => ms(new RegExp(`^\\s*timeout ${name} (\\S+)$`, 'm').exec(cfg)?.[1] ?? '0');
  for (const name of ['client', 'server']) assert.ok(timeout(name) >= 5 * defaultStreamOptions.ssePingMs, `timeout ${name}`);
  assert.ok(timeout('tunnel') >= 2 * defaultStreamOptions.wsPingMs, 'WebSocket tunnels outlast the node’s ping interval');
  assert.doesNotMatch(cfg, /^\s*compression/m);
});

test('deploy/read-tier.sh is valid bash', { skip: missing('haproxy') }, () => {
  const r = spawnSync('bash', ['-n', join(REPO_ROOT, 'deploy/read-tier.sh')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('deploy/read-tier.sh takes its ports from the environment, clear of the README network by default', {
  skip: missing('haproxy'),
}, () => {
  const ports = (env: Record<string, string>) =>
    spawnSync('bash', [join(REPO_ROOT, 'deploy/read-tier.sh'), '--ports'], { encoding: 'utf8', env: { ...process.env, ...env } });
  const plan = (out: string) => [...out.matchAll(/\b(\d{2,5})\b/g)].map((m) => Number(m[1]));
  const byDefault = ports({});
  assert.equal(byDefault.status, 0, byDefault.stderr);
  // The README's network: `ombra testnet --nodes 3 --port-base 8001` (HTTP and p2p 8001..8006, metrics 9464..9466).
  const readme = new Set([8001, 8002, 8003, 8004, 8005, 8006, 9464, 9465, 9466]);
  for (const p of plan(byDefault.stdout)) assert.ok(!readme.has(p), `default port ${p} clear of the README network`);
  const moved = ports({ OMBRA_TIER_PORT: '18080', OMBRA_TIER_STATS_PORT: '18404', OMBRA_TIER_PORT_BASE: '19000' });
  assert.equal(moved.status, 0, moved.stderr);
  assert.deepEqual(
    plan(moved.stdout).sort(),
    [18080, 18404, 19000, 19001, 19002, 19003, 19100, 19101, 19102, 19103, 19200, 19201, 19202, 19203].sort(),
  );
  const bad = ports({ OMBRA_TIER_PORT_BASE: 'x' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /OMBRA_TIER_PORT_BASE/);
});
