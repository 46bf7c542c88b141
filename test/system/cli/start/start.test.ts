/** `ombra start`: flag combinations that would make the public edge unsafe are refused; bans always apply. */
import { test } from 'node:test';
import { literal } from '../../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { runCli } from '../../../helpers/cliRun.ts';
import { startNodeProcess } from '../../../helpers/nodeProcess.ts';
import { tempDir } from '../../../helpers/testChain.ts';

test('--trust-proxy alone refuses to start: trusting every hop would let any client forge its IP', async () => {
  const r = await runCli(['start', '--dev', '--trust-proxy']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--trust-proxy no longer trusts every hop: name your reverse proxies with --trusted-proxy CIDR/);
});

test('its environment twin OMBRA_TRUST_PROXY is refused the same way', async () => {
  const r = await runCli(['start', '--dev'], { env: { OMBRA_TRUST_PROXY: '1' } });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--trust-proxy no longer trusts every hop/);
});

test('a bad --trusted-proxy is a usage error naming it', async () => {
  const r = await runCli(['start', '--trusted-proxy', '10.0.0.0/33']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--trusted-proxy: trusted proxy 10\.0\.0\.0\/33 has a bad prefix length/);
});

test('alert limits are integers within bounds: anything else is a usage error naming the flag', async () => {
  for (const [flag, value] of [
    ['--alert-disable-after', '0'],
    ['--alert-max-outbox', 'lots'],
    ['--alert-max-per-target', '-1'],
  ]) {
    const r = await runCli(['start', '--dev', flag, value]);
    assert.equal(r.code, 2, flag);
    assert.match(r.stderr, literal(new RegExp(`${flag} must be an integer`)));
  }
});

test('--ban-ip applies under --dev, where rate limits are off: 403 IP_BANNED, and no X-RateLimit headers', async () => {
  const tmp = tempDir();
  const p = await startNodeProcess(['--dev', '--data-dir', tmp.dir, '--ban-ip', '127.0.0.0/8', '--ban-ip', '::1']);
  try {
    const r = await fetch(`${p.url}/api/health`);
    assert.equal(r.status, 403);
    assert.equal(((await r.json()) as { code: string }).code, 'IP_BANNED');
    assert.equal(r.headers.get('x-ratelimit-limit'), null, 'limits are off: no quota to report');
  } finally {
    p.child.kill('SIGTERM');
    await p.exited;
    tmp.cleanup();
  }
});
