/** The SSRF guard's address classification and its connect-time lookup. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { forbiddenAddress, guardedLookup, resolvePublic } from '../../../services/alerts/netGuard.ts';

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

t('IPv6 forms that carry an IPv4 address are judged by it: IPv4-compatible, NAT64, 6to4 and Teredo', () => {
  for (const ip of [
    '::7f00:1', // IPv4-compatible 127.0.0.1
    '::a9fe:a9fe', // IPv4-compatible 169.254.169.254 (metadata)
    '64:ff9b::7f00:1', // NAT64 loopback
    '64:ff9b::169.254.169.254',
    '64:ff9b:1::1', // NAT64 local use
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:c0a8:0101::1', // 6to4 of 192.168.1.1
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo client 127.0.0.1 (stored inverted)
    '2001:0:0a00:0001::1', // Teredo server 10.0.0.1
  ]) {
    assert.ok(forbiddenAddress(ip), `${ip} allowed`);
  }
  for (const ip of ['2002:0808:0808::1', '64:ff9b::808:808', '::808:808', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'])
    assert.is(forbiddenAddress(ip), null, ip);
});

t('property: an IPv4 address is forbidden exactly when its 6to4, NAT64 and IPv4-compatible forms are', () => {
  const octet = fc.integer({ min: 0, max: 255 });
  fc.assert(
    fc.property(octet, octet, octet, octet, (a, b, c, d) => {
      const v4 = `${a}.${b}.${c}.${d}`;
      if (a === 0 && b === 0 && c === 0 && d <= 1) return true; // :: and ::1 are themselves
      const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
      const forms = [`2002:${hex(a, b)}:${hex(c, d)}::1`, `64:ff9b::${hex(a, b)}:${hex(c, d)}`, `::${hex(a, b)}:${hex(c, d)}`];
      const bad = forbiddenAddress(v4) !== null;
      return forms.every((f) => (forbiddenAddress(f) !== null) === bad);
    }),
    { numRuns: 2000 },
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
