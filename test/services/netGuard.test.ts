/** The SSRF guard's address classification and its connect-time lookup. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { forbiddenAddress, guardedLookup, resolvePublic } from '../../services/netGuard.ts';

const t = suite('webhook SSRF guard');

t('loopback, private, CGNAT, ULA, link-local, metadata, multicast and unspecified addresses are forbidden', () => {
  for (const ip of [
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.251',
    '255.255.255.255',
    '::',
    '::1',
    'fd00:ec2::254',
    'fc00::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a00:1',
    '64:ff9b::a00:1',
    '0:0:0:0:0:ffff:7f00:1',
  ]) {
    assert.ok(forbiddenAddress(ip), `${ip} allowed`);
  }
  for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
    assert.is(forbiddenAddress(ip), null, ip);
  assert.is(forbiddenAddress('not-ip'), 'not an IP address');
});

t('property: every 10/8, 127/8 and 192.168/16 address is forbidden, in IPv4 and IPv4-mapped IPv6 form', () => {
  const octet = fc.integer({ min: 0, max: 255 });
  fc.assert(
    fc.property(fc.constantFrom('10', '127', '192.168'), octet, octet, octet, (p, a, b, c) => {
      const ip = p === '192.168' ? `192.168.${b}.${c}` : `${p}.${a}.${b}.${c}`;
      assert.ok(forbiddenAddress(ip));
      assert.ok(forbiddenAddress(`::ffff:${ip}`));
    }),
  );
});

t('resolvePublic refuses names that resolve to loopback; the connect-time lookup refuses them too unless allowed', async () => {
  try {
    await resolvePublic('localhost');
    assert.unreachable('localhost accepted');
  } catch (e) {
    assert.match((e as Error).message, /localhost resolves to .* \(loopback\)/);
  }
  const refused = await new Promise<Error | null>((r) => guardedLookup(false)('localhost', {}, (err) => r(err)));
  assert.ok(refused, 'lookup refused');
  const allowed = await new Promise<string>((r, j) => guardedLookup(true)('localhost', {}, (err, a) => (err ? j(err) : r(a as string))));
  assert.ok(['127.0.0.1', '::1'].includes(allowed));
});

t.run();
