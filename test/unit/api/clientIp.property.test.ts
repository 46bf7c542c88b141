/** The client-IP rule: only trusted proxies are believed, and the rightmost untrusted hop is the client. */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quotaBucketOf } from '../../../node/cidr.ts';
import { clientIpFrom, trustedProxies } from '../../../api/clientIp.ts';

const proxies = trustedProxies(['10.0.0.0/8', '2001:db8::/32', '192.0.2.7']);
const v4 = fc.tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));

test('examples: direct clients, one and two proxies, IPv4-mapped and IPv6 hops, junk hops', () => {
  assert.equal(clientIpFrom('1.2.3.4', '198.51.100.1', proxies), '198.51.100.1', 'a client that is no proxy');
  assert.equal(clientIpFrom('6.6.6.6, 203.0.113.9', '10.1.2.3', proxies), '203.0.113.9', 'the rightmost untrusted hop');
  assert.equal(clientIpFrom('203.0.113.9, 10.9.9.9', '::ffff:10.1.2.3', proxies), '203.0.113.9', 'two proxies, IPv4-mapped socket');
  assert.equal(clientIpFrom('2001:db8::5, 2001:db8::6', '192.0.2.7', proxies), '2001:db8::5', 'every hop trusted: the leftmost');
  assert.equal(clientIpFrom('junk, 203.0.113.9', '10.1.2.3', proxies), '203.0.113.9');
  assert.equal(clientIpFrom('203.0.113.9, junk', '10.1.2.3', proxies), '10.1.2.3#junk', 'a junk hop is its own client of the proxy');
  assert.equal(clientIpFrom('junk, 10.9.9.9', '10.1.2.3', proxies), '10.9.9.9#junk', 'of the proxy that wrote it');
  assert.equal(clientIpFrom('203.0.113.9:4711', '10.1.2.3', proxies), '203.0.113.9', 'a hop with a port');
  assert.equal(clientIpFrom('"[2001:db9::5]:443"', '10.1.2.3', proxies), '2001:db9::5', 'a quoted, bracketed IPv6 hop with a port');
  assert.equal(clientIpFrom('[2001:db9::6]', '10.1.2.3', proxies), '2001:db9::6');
  assert.equal(clientIpFrom(undefined, '10.1.2.3', proxies), '10.1.2.3');
  assert.equal(clientIpFrom('1.2.3.4', '10.1.2.3', null), '10.1.2.3', 'no trusted proxy: the socket');
  assert.throws(() => trustedProxies(['10.0.0.0/33']), /prefix/);
  assert.throws(() => trustedProxies(['proxy.example']), /not an IP/);
});

test('property: whatever a client prepends, it never changes the answer', () => {
  fc.assert(
    // The real client is no trusted proxy (a client inside one would be a proxy hop itself).
    fc.property(
      fc.array(fc.oneof(v4, fc.string({ maxLength: 20 })), { maxLength: 6 }),
      v4.filter((ip) => !proxies?.cidrs.has(ip)),
      (spoof, real) => {
        const honest = clientIpFrom(real, '10.0.0.1', proxies);
        const spoofed = clientIpFrom([...spoof, real].join(', '), '10.0.0.1', proxies);
        return spoofed === honest;
      },
    ),
    { numRuns: 500 },
  );
});

test('property: never throws, always answers an address it was given', () => {
  fc.assert(
    fc.property(fc.option(fc.string({ maxLength: 200 })), fc.option(fc.string({ maxLength: 50 })), (xff, remote) => {
      const ip = clientIpFrom(xff ?? undefined, remote ?? undefined, proxies);
      return typeof ip === 'string' && ip.length > 0;
    }),
    { numRuns: 1000 },
  );
});

test('property: a malformed rightmost hop never puts its client in the proxy bucket, and distinct hops stay apart', () => {
  const junk = fc.stringMatching(/^[A-Za-z_-][A-Za-z0-9_-]{0,30}$/);
  fc.assert(
    fc.property(fc.array(v4, { maxLength: 3 }), junk, junk, (left, a, b) => {
      const one = clientIpFrom([...left, a].join(', '), '10.0.0.1', proxies);
      const two = clientIpFrom([...left, b].join(', '), '10.0.0.1', proxies);
      return one !== '10.0.0.1' && (a === b) === (one === two);
    }),
    { numRuns: 500 },
  );
});

test('property: IPv6 quota buckets are the /64: addresses share one exactly when their first 64 bits agree', () => {
  const word = fc.integer({ min: 0, max: 0xffff });
  const v6 = fc.array(word, { minLength: 8, maxLength: 8 }).filter((w) => w[0] !== 0);
  fc.assert(
    fc.property(v6, v6, fc.boolean(), (x, y, samePrefix) => {
      const b = samePrefix ? [...x.slice(0, 4), ...y.slice(4)] : y;
      const text = (w: number[]) => w.map((n) => n.toString(16)).join(':');
      const same = x.slice(0, 4).every((n, i) => n === b[i]);
      return (quotaBucketOf(text(x)) === quotaBucketOf(text(b))) === same && quotaBucketOf(text(x)).endsWith('::/64');
    }),
    { numRuns: 1000 },
  );
  assert.equal(quotaBucketOf('2001:db8:0:7::1'), '2001:db8:0:7::/64');
  assert.equal(quotaBucketOf('::ffff:1.2.3.4'), '::ffff:1.2.3.4', 'IPv4-mapped stays an address');
  assert.equal(quotaBucketOf('1.2.3.4'), '1.2.3.4');
});
