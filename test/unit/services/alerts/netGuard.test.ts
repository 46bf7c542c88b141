/** The SSRF guard's address classification and its connect-time lookup. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { forbiddenAddress, guardedLookup, resolvePublic } from '../../../../services/alerts/netGuard.ts';
import { errorMessage } from '../../../../core/errors.ts';

test('loopback, private, CGNAT, ULA, link-local, metadata, multicast and unspecified addresses are forbidden', () => {
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
    assert.equal(forbiddenAddress(ip), null, ip);
  assert.equal(forbiddenAddress('not-ip'), 'not an IP address');
});

test('property: every 10/8, 127/8 and 192.168/16 address is forbidden, in IPv4 and IPv4-mapped IPv6 form', () => {
  const octet = fc.integer({ min: 0, max: 255 });
  fc.assert(
    fc.property(fc.constantFrom('10', '127', '192.168'), octet, octet, octet, (p, a, b, c) => {
      const ip = p === '192.168' ? `192.168.${b}.${c}` : `${p}.${a}.${b}.${c}`;
      assert.ok(forbiddenAddress(ip));
      assert.ok(forbiddenAddress(`::ffff:${ip}`));
    }),
  );
});

test('IPv6 forms that carry an IPv4 address are judged by it: IPv4-compatible, NAT64, 6to4 and Teredo', () => {
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
    assert.equal(forbiddenAddress(ip), null, ip);
});

test('property: an IPv4 address is forbidden exactly when its 6to4, NAT64 and IPv4-compatible forms are', () => {
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

test('resolvePublic refuses names that resolve to loopback; the connect-time lookup refuses them too unless allowed', async () => {
  try {
    await resolvePublic('localhost');
    assert.fail('localhost accepted');
  } catch (e) {
    assert.match(errorMessage(e), /localhost resolves to .* \(loopback\)/);
  }
  const refused = await new Promise<Error | null>((r) => guardedLookup(false)('localhost', {}, (err) => r(err)));
  assert.ok(refused, 'lookup refused');
  const allowed = await new Promise<string>((r, j) => guardedLookup(true)('localhost', {}, (err, a) => (err ? j(err) : r(a as string))));
  assert.ok(['127.0.0.1', '::1'].includes(allowed));
});

test('every block the IANA special-purpose registries mark not globally reachable is forbidden; global unicast is allowed', () => {
  for (const ip of [
    '5f00::1', // SRv6 SIDs
    '2001:20::1', // ORCHIDv2
    '2001:10::1', // ORCHID (deprecated)
    '2001:2::1', // benchmarking
    '2001:1::1', // IETF protocol assignments
    '3fff::1', // documentation (RFC 9637)
    '3fff:fff:ffff::1',
    '100::1', // discard-only
    '100:0:0:1::1', // RFC 9780's 100:0:0:1::/64
    '2001:db8::1', // documentation
    '64:ff9b:1::a00:1', // NAT64 local use
    '64:ff9b:1:ffff::1',
    'fec0::1', // site-local
    '4000::1', // outside 2000::/3: not global unicast
    'e000::1',
    '::2:0:0:0:1',
    '192.0.0.9',
    '192.0.0.170',
    '192.0.2.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '192.88.99.1',
    '240.0.0.1',
    '250.1.2.3',
  ])
    assert.ok(forbiddenAddress(ip), `${ip} allowed`);
  for (const ip of ['2a00:1450:4001::1', '2001:4860:4860::8888', '2400:cb00::1', '3ffe::1', '2620:fe::fe', '198.20.0.1', '223.255.255.1'])
    assert.equal(forbiddenAddress(ip), null, ip);
});

test('property: an IPv6 address outside 2000::/3 that carries no IPv4 address is forbidden', () => {
  const word = fc.integer({ min: 0, max: 0xffff });
  fc.assert(
    fc.property(fc.array(word, { minLength: 8, maxLength: 8 }), (w) => {
      if ((w[0] & 0xe000) === 0x2000) w[0] = (w[0] & 0x1fff) | 0x4000;
      const ip = w.map((x) => x.toString(16)).join(':');
      const carries = /^(0:){5}ffff:|^(0:){6}|^64:ff9b:(0:){4}/.test(ip);
      return carries || forbiddenAddress(ip) !== null;
    }),
    { numRuns: 3000 },
  );
});
