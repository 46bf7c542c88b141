/**
 * The trusted-proxy CIDR sets (Node's BlockList behind the entries' own check) agree with the
 * prefix arithmetic on 128-bit addresses and treat IPv4-mapped IPv6 as IPv4.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CidrSet, ipBits, parseCidr } from '../../../node/cidr.ts';

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
const v6 = fc.ipV6();

test('examples: IPv4, IPv6, IPv4-mapped IPv6 in either direction, single addresses, bad entries', () => {
  const s = new CidrSet(['10.0.0.0/8', '2001:db8::/32', '::ffff:192.168.0.0/112', '203.0.113.7']);
  for (const ip of ['10.1.2.3', '::ffff:10.1.2.3', '2001:db8:ff::1', '192.168.4.4', '203.0.113.7', '::ffff:cb00:7107'])
    assert.ok(s.has(ip), ip);
  for (const ip of ['11.0.0.1', '2001:db9::1', '192.169.0.1', '203.0.113.8', 'fe80::1%eth0', 'unknown', '']) assert.ok(!s.has(ip), ip);
  for (const bad of ['10.0.0.0/33', '::/129', '10.0.0.0/8/1', 'host', '10.0.0.0/', '10.0.0.0/-1'])
    assert.throws(() => parseCidr(bad), /trusted proxy/);
});

test('property: an address is inside every prefix of itself, and /0 holds everything of its family', () => {
  fc.assert(
    fc.property(fc.oneof(v4, v6), fc.nat(128), (ip, n) => {
      const width = ip.includes(':') ? 128 : 32;
      assert.ok(new CidrSet([`${ip}/${n % (width + 1)}`]).has(ip));
      assert.ok(new CidrSet([width === 32 ? '0.0.0.0/0' : '::/0']).has(ip));
    }),
  );
});

/** The reference: `ip` is inside `net/n` when their first n bits (of the 32 or 128 written) agree. */
function inPrefix(net: string, n: number, ip: string): boolean {
  const width = net.includes(':') ? 128 : 32;
  const [a, b] = [ipBits(net), ipBits(ip)];
  assert.ok(a !== null && b !== null);
  const shift = BigInt(128 - (n + 128 - width));
  return a >> shift === b >> shift;
}

test('property: agrees with the prefix arithmetic on IPv4 and IPv6 subnets, across families', () => {
  fc.assert(fc.property(v4, fc.nat(32), v4, (net, n, ip) => assert.equal(new CidrSet([`${net}/${n}`]).has(ip), inPrefix(net, n, ip))));
  fc.assert(fc.property(v6, fc.nat(128), v6, (net, n, ip) => assert.equal(new CidrSet([`${net}/${n}`]).has(ip), inPrefix(net, n, ip))));
  fc.assert(fc.property(v6, fc.nat(128), v4, (net, n, ip) => assert.equal(new CidrSet([`${net}/${n}`]).has(ip), inPrefix(net, n, ip))));
  fc.assert(fc.property(v4, fc.nat(32), v6, (net, n, ip) => assert.equal(new CidrSet([`${net}/${n}`]).has(ip), inPrefix(net, n, ip))));
});

test('property: an IPv4 address and its IPv4-mapped IPv6 form are the same address to every CIDR', () => {
  fc.assert(
    fc.property(v4, fc.nat(32), v4, (net, n, ip) => {
      assert.equal(ipBits(`::ffff:${ip}`), ipBits(ip));
      const plain = new CidrSet([`${net}/${n}`]);
      const mapped = new CidrSet([`::ffff:${net}/${96 + n}`]);
      assert.equal(plain.has(`::ffff:${ip}`), plain.has(ip));
      assert.equal(mapped.has(ip), plain.has(ip));
    }),
  );
});
