/** `ombra start` refuses flag combinations that would make the public edge unsafe. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from '../helpers/cliRun.ts';

const t = suite('ombra start');

t('--trust-proxy alone refuses to start: trusting every hop would let any client forge its IP', async () => {
  const r = await runCli(['start', '--dev', '--trust-proxy']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /--trust-proxy no longer trusts every hop: name your reverse proxies with --trusted-proxy CIDR/);
});

t('its environment twin OMBRA_TRUST_PROXY is refused the same way', async () => {
  const r = await runCli(['start', '--dev'], { env: { OMBRA_TRUST_PROXY: '1' } });
  assert.is(r.code, 2);
  assert.match(r.stderr, /--trust-proxy no longer trusts every hop/);
});

t('a bad --trusted-proxy is a usage error naming it', async () => {
  const r = await runCli(['start', '--trusted-proxy', '10.0.0.0/33']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /--trusted-proxy: trusted proxy 10\.0\.0\.0\/33 has a bad prefix length/);
});

t('alert limits are integers within bounds: anything else is a usage error naming the flag', async () => {
  for (const [flag, value] of [
    ['--alert-disable-after', '0'],
    ['--alert-max-outbox', 'lots'],
    ['--alert-max-per-target', '-1'],
  ]) {
    const r = await runCli(['start', '--dev', flag, value]);
    assert.is(r.code, 2, flag);
    assert.match(r.stderr, new RegExp(`${flag} must be an integer`));
  }
});

t.run();
