/** API keys: /api/keys/register, /me, DELETE /:id, the key format and the lastUsedAt batching. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { generateKey, KEY_PREFIX, keyHash, wellFormedKey } from '../../../services/apiKeyFormat.ts';
import { ApiKeyStore } from '../../../services/apiKeys.ts';
import { assertError, call, withChain } from '../../helpers/apiSupport.ts';

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

test('register answers 200 (the success status of the spec) with a tier-1 key shown once, with a live prefix and a checksum; only its hash is stored', () =>
  withChain(async (c) => {
    const res = await call(c, '/api/keys/register', post({ tier: 1, label: 'my app' }));
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['createdAt', 'id', 'key', 'label', 'tier']);
    assert.equal(res.body.tier, 1);
    assert.equal(res.body.label, 'my app');
    assert.ok(res.body.key.startsWith(KEY_PREFIX));
    assert.ok(wellFormedKey(res.body.key));
    const rows: unknown[] = [];
    for await (const v of c.node.store.sublevel('local:keys').values()) rows.push(v);
    assert.equal(rows.length, 1);
    const stored = JSON.stringify(rows[0]);
    assert.ok(!stored.includes(res.body.key), 'the key itself is not stored');
    assert.ok(stored.includes(keyHash(res.body.key)), 'its SHA-256 is');
    const me = await call(c, '/api/keys/me', { headers: { 'X-API-Key': res.body.key } });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body.keys.length, 1);
    const { lastUsedAt, ...rest } = me.body.keys[0];
    assert.deepEqual(rest, { id: res.body.id, label: 'my app', tier: 1, createdAt: res.body.createdAt });
    assert.ok(typeof lastUsedAt === 'number' && lastUsedAt >= res.body.createdAt, 'lastUsedAt notes this use');
    assert.ok(!JSON.stringify(me.body).includes(res.body.key), 'never shown again');
  }));

test('register takes an empty body as tier 1 without a label', () =>
  withChain(async (c) => {
    const res = await call(c, '/api/keys/register', { method: 'POST' });
    assert.equal(res.status, 200);
    assert.deepEqual({ tier: res.body.tier, label: res.body.label }, { tier: 1, label: '' });
  }));

test('tier 2 is not self-service: 400 INVALID_PARAMS naming the operator command', () =>
  withChain(async (c) => {
    assertError(
      await call(c, '/api/keys/register', post({ tier: 2, label: 'x' })),
      400,
      'INVALID_PARAMS',
      /operator only \(ombra keys create --tier 2\)/,
    );
  }));

test('bad register bodies: 400 with a clear message each, 413 when large, and nothing stored', () =>
  withChain(async (c) => {
    const cases: [unknown, number, string, RegExp][] = [
      ['{not json', 400, 'INVALID_JSON', /not valid JSON/],
      [[1], 400, 'INVALID_PARAMS', /JSON object/],
      ['"text"', 400, 'INVALID_PARAMS', /JSON object/],
      [{ tier: 0 }, 400, 'INVALID_PARAMS', /tier must be a positive integer/],
      [{ tier: 1.5 }, 400, 'INVALID_PARAMS', /tier must be a positive integer/],
      [{ tier: '1' }, 400, 'INVALID_PARAMS', /tier must be a positive integer/],
      [{ tier: 1, label: 7 }, 400, 'INVALID_PARAMS', /label must be a string/],
      [{ tier: 1, label: 'x'.repeat(65) }, 400, 'INVALID_PARAMS', /at most 64/],
      [{ tier: 1, label: 'a\nb' }, 400, 'INVALID_PARAMS', /control characters/],
      [{ tier: 1, scope: 'all' }, 400, 'INVALID_PARAMS', /unknown field "scope"/],
      [{ tier: 1, label: 'x'.repeat(5000) }, 413, 'PAYLOAD_TOO_LARGE', /larger than 4096/],
    ];
    for (const [body, status, code, msg] of cases) assertError(await call(c, '/api/keys/register', post(body)), status, code, msg);
    let n = 0;
    for await (const _ of c.node.store.sublevel('local:keys').keys()) n++;
    assert.equal(n, 0);
  }));

test('/me and DELETE need X-API-Key: 401 UNAUTHORIZED when missing, malformed, bad checksum or unknown', () =>
  withChain(async (c) => {
    const good = generateKey();
    const badSum = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
    for (const headers of [{}, { 'X-API-Key': '' }, { 'X-API-Key': 'hello' }, { 'X-API-Key': badSum }, { 'X-API-Key': good }] as Record<
      string,
      string
    >[]) {
      assertError(await call(c, '/api/keys/me', { headers }), 401, 'UNAUTHORIZED');
      assertError(await call(c, '/api/keys/key_0000000000000000', { method: 'DELETE', headers }), 401, 'UNAUTHORIZED');
    }
    assertError(await call(c, '/api/keys/me', { headers: { 'X-API-Key': badSum } }), 401, 'UNAUTHORIZED', /checksum/);
    assertError(await call(c, '/api/keys/me', { headers: { 'X-API-Key': good } }), 401, 'UNAUTHORIZED', /unknown or revoked/);
  }));

test('a caller sees and revokes itself and the keys it registered, nothing else; a revoked key stops at once and leaves the listing', () =>
  withChain(async (c) => {
    const a = (await call(c, '/api/keys/register', post({ tier: 1, label: 'a' }))).body;
    const b = (await call(c, '/api/keys/register', post({ tier: 1, label: 'b' }))).body;
    const child = (await call(c, '/api/keys/register', post({ tier: 1, label: 'a-child' }, { 'X-API-Key': a.key }))).body;
    const list = await call(c, '/api/keys/me', { headers: { 'X-API-Key': a.key } });
    assert.deepEqual(list.body.keys.map((k: any) => k.label).sort(), ['a', 'a-child']);
    assert.deepEqual(
      (await call(c, '/api/keys/me', { headers: { 'X-API-Key': child.key } })).body.keys.map((k: any) => k.label),
      ['a-child'],
    );
    // a may not revoke b (404: it is not among a's keys), b may not revoke a's child
    assertError(await call(c, `/api/keys/${b.id}`, { method: 'DELETE', headers: { 'X-API-Key': a.key } }), 404, 'NOT_FOUND');
    assertError(await call(c, `/api/keys/${child.id}`, { method: 'DELETE', headers: { 'X-API-Key': b.key } }), 404, 'NOT_FOUND');
    const del = await call(c, `/api/keys/${child.id}`, { method: 'DELETE', headers: { 'X-API-Key': a.key } });
    assert.deepEqual(
      { status: del.status, body: del.body },
      { status: 200, body: { ok: true, id: child.id, revoked: true, keysRevoked: 1 } },
    );
    assertError(await call(c, '/api/keys/me', { headers: { 'X-API-Key': child.key } }), 401, 'UNAUTHORIZED');
    assert.deepEqual(
      (await call(c, '/api/keys/me', { headers: { 'X-API-Key': a.key } })).body.keys.map((k: any) => k.label),
      ['a'],
    );
    // a key revokes itself
    assert.equal((await call(c, `/api/keys/${b.id}`, { method: 'DELETE', headers: { 'X-API-Key': b.key } })).status, 200);
    assertError(await call(c, '/api/keys/me', { headers: { 'X-API-Key': b.key } }), 401, 'UNAUTHORIZED');
    assertError(await call(c, `/api/keys/${b.id}`, { method: 'DELETE', headers: { 'X-API-Key': a.key } }), 404, 'NOT_FOUND');
  }));

test('keys survive a restart; a revoked one stays revoked', async () => {
  const { openTestChain } = await import('../../helpers/testChain.ts');
  const first = await openTestChain();
  const keep = (await call(first, '/api/keys/register', post({ tier: 1, label: 'keep' }))).body;
  const gone = (await call(first, '/api/keys/register', post({ tier: 1, label: 'gone' }))).body;
  await call(first, `/api/keys/${gone.id}`, { method: 'DELETE', headers: { 'X-API-Key': gone.key } });
  await first.close();
  const again = await openTestChain({ dir: first.dir });
  try {
    assert.equal((await call(again, '/api/keys/me', { headers: { 'X-API-Key': keep.key } })).status, 200);
    assertError(await call(again, '/api/keys/me', { headers: { 'X-API-Key': gone.key } }), 401, 'UNAUTHORIZED');
  } finally {
    await again.destroy();
  }
});

test('lastUsedAt is kept in memory and written in one batch per flush, not once per request', () =>
  withChain(async (c) => {
    let now = 1_000;
    const keys = await new ApiKeyStore(c.node.store, { flushMs: 60_000, clock: () => now }).load();
    const { record, key } = await keys.create({ tier: 1, label: '', createdBy: '127.0.0.1' });
    const rows = c.node.store.sublevel('local:keys');
    let writes = 0;
    const batch = rows.batch.bind(rows);
    (rows as any).batch = (...a: unknown[]) => {
      writes++;
      return (batch as any)(...a);
    };
    (keys as any).rows = rows;
    for (let i = 0; i < 100; i++) {
      now = 2_000 + i;
      const ck = keys.check(key);
      assert.ok(ck.ok);
      if (ck.ok) keys.touch(ck.record);
    }
    assert.equal(writes, 0, 'no write per request');
    assert.equal(record.lastUsedAt, 2_099);
    await keys.stop();
    assert.equal(writes, 1, 'one batch on flush');
    assert.equal(((await rows.get(record.id)) as any).lastUsedAt, 2_099);
  }));

test('property: generated keys are well formed; any single-character change breaks the checksum or the format', () => {
  fc.assert(
    fc.property(fc.nat(59), fc.constantFrom(...'0123456789abcdef_xZ'), (pos, ch) => {
      const k = generateKey();
      assert.ok(wellFormedKey(k));
      const mutated = k.slice(0, pos) + ch + k.slice(pos + 1);
      if (mutated !== k) assert.ok(!wellFormedKey(mutated), `${mutated} accepted`);
    }),
    { numRuns: 500 },
  );
  fc.assert(fc.property(fc.string({ maxLength: 80 }), (s) => !wellFormedKey(s) || s.startsWith(KEY_PREFIX)));
});

test('derived keys: at most 20 per key (429), one shared quota with their owner, and revoking a key revokes its whole chain', async () => {
  const { openTestChain, testApiDeps } = await import('../../helpers/testChain.ts');
  const { createApp } = await import('../../../api/app.ts');
  const { RateLimiter } = await import('../../../api/rateLimit.ts');
  const chain = await openTestChain();
  const keys = await new ApiKeyStore(chain.node.store).load();
  const clock = { now: 1_700_000_000_000 };
  const limiter = new RateLimiter(keys, {
    now: () => clock.now,
    tiers: { anonymous: { perMinute: 1000, concurrent: 50, streams: 5 }, '1': { perMinute: 102, concurrent: 50, streams: 5 } },
  });
  await limiter.start();
  const app = createApp(testApiDeps(chain.node, { keys, limiter }));
  const req = (path: string, init: RequestInit = {}) =>
    app.request(path, init, { incoming: { socket: { remoteAddress: '198.51.100.9' } } });
  try {
    const root = (await (await req('/api/keys/register', post({ label: 'root' }))).json()) as any;
    // 100 attempts at derived keys: 20 are issued, the rest refused 429 (a quota, not a bad request).
    const derived: any[] = [];
    const refused: number[] = [];
    for (let i = 0; i < 100; i++) {
      const r = await req('/api/keys/register', post({ label: `d${i}` }, { 'X-API-Key': root.key }));
      if (r.status === 200) derived.push(await r.json());
      else refused.push(r.status);
    }
    assert.equal(derived.length, 20);
    assert.ok(refused.every((s) => s === 429));
    const grandchild = (await (await req('/api/keys/register', post({ label: 'g' }, { 'X-API-Key': derived[0].key }))).json()) as any;
    assert.ok(grandchild.key, JSON.stringify(grandchild));
    // One quota of 102 a minute for the whole chain: 100 + 1 register calls used 101 of it, the
    // root takes the last one, and keys that never made a request of their own are out too.
    const statuses: number[] = [];
    for (const k of [root, derived[5], grandchild]) statuses.push((await req('/api/health', { headers: { 'X-API-Key': k.key } })).status);
    assert.deepEqual(statuses, [200, 429, 429]);
    // A minute later the chain has its quota back. Revoking the root revokes every key
    // registered with it, down the chain.
    clock.now += 61_000;
    const del = (await (await req(`/api/keys/${root.id}`, { method: 'DELETE', headers: { 'X-API-Key': root.key } })).json()) as any;
    assert.equal(del.keysRevoked, 22);
    for (const k of [root, derived[19], grandchild])
      assert.equal((await req('/api/keys/me', { headers: { 'X-API-Key': k.key } })).status, 401);
    assert.equal(keys.all().length, 0);
  } finally {
    await limiter.stop();
    await keys.stop();
    await chain.destroy();
  }
});

test('anonymous registrations count per IPv6 /64: rotating addresses of one /64 get 20 keys in all, the next /64 its own', () =>
  withChain(async (c) => {
    const from = (ip: string) => c.app.request('/api/keys/register', post({}), { incoming: { socket: { remoteAddress: ip } } });
    const statuses: number[] = [];
    for (let i = 1; i <= 30; i++) statuses.push((await from(`2001:db8:5:6:${i.toString(16)}::1`)).status);
    assert.equal(statuses.filter((s) => s === 200).length, 20, String(statuses));
    assert.ok(statuses.slice(20).every((s) => s === 429));
    assert.equal((await from('2001:db8:5:7::1')).status, 200, 'the next /64');
  }));
