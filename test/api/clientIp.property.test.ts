/** The client-IP rule: only trusted proxies are believed, and the rightmost untrusted hop is the client. */
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { clientIpFrom, trustedProxies } from '../../api/clientIp.ts';

const t = suite('client IP rule');
const proxies = trustedProxies(['10.0.0.0/8', '2001:db8::/32', '192.0.2.7']);
const v4 = fc.tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));

t('examples: direct clients, one and two proxies, IPv4-mapped and IPv6 hops, junk hops', () => {
  assert.is(clientIpFrom('1.2.3.4', '198.51.100.1', proxies), '198.51.100.1', 'a client that is no proxy');
  assert.is(clientIpFrom('6.6.6.6, 203.0.113.9', '10.1.2.3', proxies), '203.0.113.9', 'the rightmost untrusted hop');
  assert.is(clientIpFrom('203.0.113.9, 10.9.9.9', '::ffff:10.1.2.3', proxies), '203.0.113.9', 'two proxies, IPv4-mapped socket');
  assert.is(clientIpFrom('2001:db8::5, 2001:db8::6', '192.0.2.7', proxies), '2001:db8::5', 'every hop trusted: the leftmost');
  assert.is(clientIpFrom('junk, 203.0.113.9', '10.1.2.3', proxies), '203.0.113.9');
  assert.is(clientIpFrom('203.0.113.9, junk', '10.1.2.3', proxies), '10.1.2.3', 'a junk hop ends what can be believed');
  assert.is(clientIpFrom(undefined, '10.1.2.3', proxies), '10.1.2.3');
  assert.is(clientIpFrom('1.2.3.4', '10.1.2.3', null), '10.1.2.3', 'no trusted proxy: the socket');
  assert.throws(() => trustedProxies(['10.0.0.0/33']), /prefix/);
  assert.throws(() => trustedProxies(['proxy.example']), /not an IP/);
});

t('property: whatever a client prepends, it never changes the answer', () => {
  fc.assert(
    // The real client is no trusted proxy (a client inside one would be a proxy hop itself).
    fc.property(
      fc.array(fc.oneof(v4, fc.string({ maxLength: 20 })), { maxLength: 6 }),
      v4.filter((ip) => !proxies?.has(ip)),
      (spoof, real) => {
        const honest = clientIpFrom(real, '10.0.0.1', proxies);
        const spoofed = clientIpFrom([...spoof, real].join(', '), '10.0.0.1', proxies);
        return spoofed === honest;
      },
    ),
    { numRuns: 500 },
  );
});

t('property: never throws, always answers an address it was given', () => {
  fc.assert(
    fc.property(fc.option(fc.string({ maxLength: 200 })), fc.option(fc.string({ maxLength: 50 })), (xff, remote) => {
      const ip = clientIpFrom(xff ?? undefined, remote ?? undefined, proxies);
      return typeof ip === 'string' && ip.length > 0;
    }),
    { numRuns: 1000 },
  );
});

t.run();
