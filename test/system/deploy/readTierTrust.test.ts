/**
 * Issue 34 row 8, the read tier's trust and quotas with real processes and the real HAProxy
 * (deploy/haproxy.cfg.template, two followers, rate limits on as in production):
 * - a key issued by one follower is valid on every node of the tier (tier keys, one secret);
 * - the anonymous quota and a key's quota are the tier's, not each follower's;
 * - a process on the balancer's address cannot name its client in X-Forwarded-For without the
 *   balancer's token, and the balancer's own health checks are not metered.
 * Skipped with a line where haproxy is not installed (.ci/run installs it).
 */
import { after, before, test } from 'node:test';
import { missing } from '../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { haveHaproxy, startReadTier, type ReadTier } from '../../helpers/readTier.ts';

let tier: ReadTier;

before(async () => {
  if (!haveHaproxy()) return;
  tier = await startReadTier({ followers: 2, rateLimits: true }).catch((e: Error) => {
    console.error(`read tier did not start: ${e.message}`);
    throw e;
  });
});
after(async () => {
  await tier?.stop();
});

const get = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${url}/api/chain/height`, { headers });
  return { status: res.status, body: (await res.json()) as { code?: string } };
};

/** Status counts of `n` requests made by `one(i)`, a few at a time. */
async function tally(n: number, one: (i: number) => Promise<{ status: number }>): Promise<Record<number, number>> {
  const out: Record<number, number> = {};
  for (let i = 0; i < n; i += 10) {
    const batch = await Promise.all(Array.from({ length: Math.min(10, n - i) }, (_, j) => one(i + j)));
    for (const r of batch) out[r.status] = (out[r.status] ?? 0) + 1;
  }
  return out;
}

test('a process on the balancer address cannot name its client in X-Forwarded-For: 100 spoofed addresses are one client', {
  skip: missing('haproxy'),
}, async () => {
  assert.ok(tier, 'the read tier started');
  const f = tier.followers[1];
  if (!f) throw new Error('follower 2 is not running');
  // Straight to a follower from 127.0.0.1 (the balancer's address), each request naming another client.
  const direct = await tally(100, (i) => get(f.url, { 'X-Forwarded-For': `203.0.113.${i}`, 'X-Ombra-Proxy-Token': 'a guess' }));
  assert.ok((direct[200] ?? 0) <= 60, `one anonymous quota, not 100: ${JSON.stringify(direct)}`);
  assert.ok((direct[429] ?? 0) >= 40, JSON.stringify(direct));
  // The balancer's own checks (no X-Forwarded-For, its token) are not metered: the follower stays up.
  assert.equal(await tier.serverStatus(1), 'UP');
});

test('the anonymous quota is the tier’s: 150 GETs from one IP through the balancer get at most 60 answers', {
  skip: missing('haproxy'),
}, async () => {
  assert.ok(tier, 'the read tier started');
  const via = await tally(150, () => get(tier.url));
  assert.ok((via[200] ?? 0) <= 60, `at most 60, not followers x 60: ${JSON.stringify(via)}`);
  const refused = await get(tier.url);
  assert.equal(refused.status, 429);
  assert.equal(refused.body.code, 'RATE_LIMITED');
});

test('a key registered on one follower works on every node and through the balancer; its quota is the tier’s; a forged one is 401', {
  skip: missing('haproxy'),
}, async () => {
  assert.ok(tier, 'the read tier started');
  const [a, b] = tier.followers;
  if (!a || !b) throw new Error('a follower is not running');
  const res = await fetch(`${a.url}/api/keys/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.1' },
    body: JSON.stringify({ tier: 1, label: 'tier test' }),
  });
  const body = (await res.json()) as { key: string; id: string };
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.match(body.key, /^ombra_tier1_/);
  for (const url of [a.url, b.url, tier.authority.url]) {
    const me = await fetch(`${url}/api/keys/me`, { headers: { 'X-API-Key': body.key } });
    assert.equal(me.status, 200, `${url}: ${await me.text()}`);
  }
  // 40 keyed reads through the balancer land on both followers: every one answered.
  const keyed = await tally(40, () => get(tier.url, { 'X-API-Key': body.key }));
  assert.deepEqual(keyed, { 200: 40 });
  // The tier-1 quota (600 a minute) holds across the tier: 600 more, then refusals.
  const more = await tally(600, () => get(tier.url, { 'X-API-Key': body.key }));
  assert.ok((more[200] ?? 0) <= 560 && (more[429] ?? 0) >= 40, JSON.stringify(more));
  // A key with one character of its MAC changed is refused by the follower.
  const forged = body.key.slice(0, -1) + (body.key.endsWith('0') ? '1' : '0');
  const bad = await fetch(`${b.url}/api/keys/me`, { headers: { 'X-API-Key': forged } });
  assert.equal(bad.status, 401);
});
