/** Rate limits: quotas and their reset per tier, concurrency, streams, headers, bans, bad keys. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.ts';
import { normalizeIp } from '../../../api/clientIp.ts';
import { MatchRecorder, wrapDispatch } from '../../../api/envelope.ts';
import { parseBanList } from '../../../api/banList.ts';
import { RateLimiter } from '../../../api/rateLimit.ts';
import { streamed } from '../../../api/streamedAnswer.ts';
import type { RateLimitOptions } from '../../../api/rateLimitOptions.ts';
import { ApiKeyStore } from '../../../services/apiKeys.ts';
import { openTestChain, tempDir, testApiDeps, type TestChain } from '../../helpers/testChain.ts';
import { assertErrorShape } from '../../helpers/apiSupport.ts';

interface Kit {
  chain: TestChain;
  keys: ApiKeyStore;
  limiter: RateLimiter;
  app: ReturnType<typeof createApp>;
  clock: { now: number };
  req(path: string, opts?: { ip?: string; key?: string; init?: RequestInit }): Promise<Response>;
}

async function withLimits(options: Partial<RateLimitOptions>, fn: (k: Kit) => Promise<void>): Promise<void> {
  const chain = await openTestChain();
  const keys = await new ApiKeyStore(chain.node.store).load();
  const clock = { now: 1_700_000_000_000 };
  const limiter = new RateLimiter(keys, { now: () => clock.now, ...options });
  await limiter.start();
  const app = createApp(testApiDeps(chain.node, { keys, limiter }));
  const req = (path: string, o: { ip?: string; key?: string; init?: RequestInit } = {}) =>
    Promise.resolve(
      app.request(
        path,
        { ...o.init, headers: { ...(o.key ? { 'X-API-Key': o.key } : {}), ...((o.init?.headers as Record<string, string>) ?? {}) } },
        { incoming: { socket: { remoteAddress: o.ip ?? '198.51.100.1' } } },
      ),
    );
  try {
    await fn({ chain, keys, limiter, app, clock, req });
  } finally {
    await limiter.stop();
    await keys.stop();
    await chain.destroy();
  }
}

const headersOf = (r: Response) => ({
  limit: r.headers.get('x-ratelimit-limit'),
  remaining: r.headers.get('x-ratelimit-remaining'),
  reset: r.headers.get('x-ratelimit-reset'),
});

test('every response carries X-RateLimit-Limit, -Remaining and -Reset (Unix seconds), errors included', () =>
  withLimits({}, async (k) => {
    const ok = await k.req('/api/chain/height');
    assert.equal(ok.status, 200);
    const reset = String(Math.ceil((k.clock.now + 60_000) / 1000));
    assert.deepEqual(headersOf(ok), { limit: '60', remaining: '59', reset });
    const nf = await k.req('/api/nowhere');
    assert.equal(nf.status, 404);
    assert.deepEqual(headersOf(nf), { limit: '60', remaining: '58', reset });
    const bad = await k.req('/api/chain/block/x');
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get('x-ratelimit-remaining'), '57');
    const big = await k.req('/api/chain/tx', {
      init: { method: 'POST', body: 'x'.repeat(1024 * 1024 + 1), headers: { 'content-type': 'application/json' } },
    });
    assert.equal(big.status, 413);
    assert.equal(big.headers.get('x-ratelimit-remaining'), '56');
  }));

test('anonymous callers get 60 a minute per IP, then 429 RATE_LIMITED with Retry-After, until the window resets', () =>
  withLimits({}, async (k) => {
    for (let i = 0; i < 60; i++) assert.equal((await k.req('/api/chain/height')).status, 200);
    k.clock.now += 20_000;
    const over = await k.req('/api/chain/height');
    assert.equal(over.status, 429);
    const body = (await over.json()) as any;
    assertErrorShape(body);
    assert.equal(body.code, 'RATE_LIMITED');
    assert.match(body.error, /60 requests per minute/);
    assert.equal(over.headers.get('retry-after'), '40');
    assert.equal(over.headers.get('x-ratelimit-remaining'), '0');
    assert.equal((await k.req('/api/chain/height', { ip: '198.51.100.2' })).status, 200, 'another IP has its own quota');
    k.clock.now += 40_000;
    const fresh = await k.req('/api/chain/height');
    assert.equal(fresh.status, 200);
    assert.equal(fresh.headers.get('x-ratelimit-remaining'), '59');
  }));

test('tier 1 keys get 600 a minute and tier 2 keys 6000, each per key, whatever the IP', () =>
  withLimits({}, async (k) => {
    const one = await k.keys.create({ tier: 1, label: '', createdBy: 'x' });
    const two = await k.keys.create({ tier: 2, label: '', createdBy: 'operator' });
    for (const [cred, limit] of [
      [one.key, 600],
      [two.key, 6000],
    ] as const) {
      for (let i = 0; i < limit; i++) {
        const r = await k.req('/api/health', { key: cred, ip: `203.0.113.${i % 200}` });
        if (r.status !== 200) assert.fail(`request ${i} answered ${r.status}`);
      }
      const over = await k.req('/api/health', { key: cred });
      assert.equal(over.status, 429);
      assert.equal(over.headers.get('x-ratelimit-limit'), String(limit));
      assert.match(((await over.json()) as any).error, literal(new RegExp(`${limit} requests per minute for this API key`)));
    }
    assert.equal((await k.req('/api/health')).status, 200, 'the anonymous quota of the IP is untouched');
    k.clock.now += 60_000;
    assert.equal((await k.req('/api/health', { key: one.key })).status, 200, 'reset after the window');
    assert.equal((await k.req('/api/health', { key: one.key })).headers.get('x-ratelimit-remaining'), '598');
  }));

/** An app with the limiter (in the envelope, as createApp has it) around a route that holds requests until released, and a stream route. */
function holdingApp(limiter: RateLimiter) {
  const gates: (() => void)[] = [];
  const recorder = new MatchRecorder();
  const app = new Hono({ router: recorder });
  app.get('/slow', async (c) => {
    await new Promise<void>((r) => gates.push(r));
    return c.json({ ok: true });
  });
  app.get('/api/chain/events', (c) => {
    let ctrl!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (x) => void (ctrl = x) });
    ctrl.enqueue(new TextEncoder().encode('event: hello\ndata: {}\n\n'));
    return c.body(body, 200, { 'content-type': 'text/event-stream' });
  });
  wrapDispatch(app, { recorder, skip: new Set(), corsOrigin: '*', limiter });
  const env = (ip: string) => ({ incoming: { socket: { remoteAddress: ip } } });
  return { app, gates, env };
}

test('concurrency: the 11th parallel anonymous request is 429 while 10 are open; slots free as they finish', async () => {
  const keys = new ApiKeyStore({ sublevel: () => ({}) } as never);
  const limiter = new RateLimiter(keys, {});
  const { app, gates, env } = holdingApp(limiter);
  const open = Array.from({ length: 10 }, () => app.request('/slow', {}, env('192.0.2.9')));
  await new Promise((r) => setTimeout(r, 20));
  const extra = await app.request('/slow', {}, env('192.0.2.9'));
  assert.equal(extra.status, 429);
  assert.match(((await extra.json()) as any).error, /at most 10/);
  assert.equal(extra.headers.get('retry-after'), '1');
  gates.splice(0).forEach((g) => g());
  const done = await Promise.all(open);
  assert.deepEqual(
    done.map((r) => r.status),
    Array(10).fill(200),
  );
  const again = app.request('/slow', {}, env('192.0.2.9'));
  await new Promise((r) => setTimeout(r, 20));
  gates.splice(0).forEach((g) => g());
  assert.equal((await again).status, 200);
  await limiter.stop();
});

test('streams count while open: tier 1 allows 10 per key; closing one frees its slot', () =>
  withLimits({}, async (k) => {
    const { app, env } = holdingApp(k.limiter);
    const key = (await k.keys.create({ tier: 1, label: '', createdBy: 'x' })).key;
    const streams: Response[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await app.request('/api/chain/events', { headers: { 'X-API-Key': key } }, env('192.0.2.1'));
      assert.equal(r.status, 200);
      streams.push(r);
    }
    const eleventh = await app.request('/api/chain/events', { headers: { 'X-API-Key': key } }, env('192.0.2.1'));
    assert.equal(eleventh.status, 429);
    assert.match(((await eleventh.json()) as any).error, /too many open streams: at most 10/);
    const plain = await app.request('/api/health', { headers: { 'X-API-Key': key } }, env('192.0.2.1'));
    assert.equal(plain.status, 404, 'ordinary requests still pass (no such route in this little app)');
    await streams[0].body!.cancel();
    const again = await app.request('/api/chain/events', { headers: { 'X-API-Key': key } }, env('192.0.2.1'));
    assert.equal(again.status, 200);
    for (const s of [...streams.slice(1), again]) await s.body!.cancel();
  }));

test('a streamed answer off the stream paths holds a stream slot until it ends: the 11th is 429, a finished or cancelled one frees its slot', () =>
  withLimits({}, async (k) => {
    const recorder = new MatchRecorder();
    const app = new Hono({ router: recorder });
    const blocks = new TextEncoder().encode('{"blocks":[]}');
    // A range answer: streamed as the reader reads, one piece at a time.
    app.get('/range', (c) => {
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull: (ctrl) => {
          if (sent) ctrl.close();
          else ctrl.enqueue(blocks);
          sent = true;
        },
      });
      return streamed(c.body(body, 200, { 'content-type': 'application/json' }));
    });
    app.get('/plain', (c) => c.json({ ok: true }));
    wrapDispatch(app, { recorder, skip: new Set(), corsOrigin: '*', limiter: k.limiter });
    const env = { incoming: { socket: { remoteAddress: '192.0.2.44' } } };
    const key = (await k.keys.create({ tier: 1, label: '', createdBy: 'x' })).key;
    const keyed = { headers: { 'X-API-Key': key } };
    const open: Response[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await app.request('/range', keyed, env);
      assert.equal(r.status, 200);
      open.push(r);
    }
    // Before: streamed answers off the stream paths held nothing once answered.
    const eleventh = await app.request('/range', keyed, env);
    assert.equal(eleventh.status, 429);
    assert.deepEqual(await eleventh.json(), { error: 'too many open streams: at most 10 for this API key', code: 'RATE_LIMITED' });
    assert.equal(eleventh.headers.get('retry-after'), '1');
    assert.equal(eleventh.headers.get('access-control-allow-origin'), '*');
    assert.ok(eleventh.headers.get('x-ratelimit-limit'));
    // Below the key's concurrency (50), a plain read still passes.
    assert.equal((await app.request('/plain', keyed, env)).status, 200);
    assert.equal(await open[0].text(), '{"blocks":[]}', 'read to its end');
    await open[1].body!.cancel();
    for (let i = 0; i < 2; i++) open.push(await app.request('/range', keyed, env));
    assert.deepEqual(
      open.slice(10).map((r) => r.status),
      [200, 200],
    );
    assert.equal((await app.request('/range', keyed, env)).status, 429);
    for (const r of open.slice(2)) await r.body!.cancel();
    // Anonymous: ten open streams hold the IP's ten concurrency slots too.
    const anon: Response[] = [];
    for (let i = 0; i < 10; i++) anon.push(await app.request('/range', {}, env));
    assert.equal((await app.request('/plain', {}, env)).status, 429);
    for (const r of anon) await r.body!.cancel();
    assert.equal((await app.request('/plain', {}, env)).status, 200);
    const last = await app.request('/range', keyed, env);
    assert.equal(last.status, 200);
    await last.body!.cancel();
  }));

test("the node's own range answers count as streams: ten unread /api/chain/blocks ranges on a key, the eleventh is 429; pages still pass", () =>
  withLimits({}, async (k) => {
    const key = (await k.keys.create({ tier: 1, label: '', createdBy: 'x' })).key;
    const open: Response[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await k.req('/api/chain/blocks?from=0&to=0', { key });
      assert.equal(r.status, 200);
      open.push(r);
    }
    const refused = await k.req('/api/chain/blocks-full?from=0&to=0', { key });
    assert.equal(refused.status, 429);
    assert.match(((await refused.json()) as any).error, /too many open streams/);
    assert.equal((await k.req('/api/chain/blocks?from=0&to=0', { key })).status, 429);
    assert.equal((await k.req('/api/chain/blocks?limit=1', { key })).status, 200, 'a page is no stream');
    const body = JSON.parse(await open[0].text());
    assert.equal(body.count, 1);
    assert.equal((await k.req('/api/chain/blocks-full?from=0&to=0', { key })).status, 200, 'a range read to its end freed its slot');
    for (const r of open.slice(1)) await r.body!.cancel();
  }));

test("free keys do not multiply an IP's streams: anonymous and tier-1 streams from one IP share 20; tier 2 and other IPs are apart", () =>
  withLimits({}, async (k) => {
    const { app, env } = holdingApp(k.limiter);
    const free = await Promise.all([1, 2, 3].map(async () => (await k.keys.create({ tier: 1, label: '', createdBy: '192.0.2.7' })).key));
    const open: Response[] = [];
    const stream = async (key: string | undefined, ip = '192.0.2.7') =>
      app.request('/api/chain/events', key ? { headers: { 'X-API-Key': key } } : {}, env(ip));
    for (const key of free.slice(0, 2))
      for (let i = 0; i < 10; i++) {
        const r = await stream(key);
        assert.equal(r.status, 200);
        open.push(r);
      }
    // Before: each free key had its own 10, so 20 keys from one IP held 200 streams.
    for (const key of [free[2], undefined]) {
      const r = await stream(key);
      assert.equal(r.status, 429);
      assert.match(((await r.json()) as any).error, /at most 20 from this IP/);
    }
    const other = await stream(free[2], '198.51.100.9');
    assert.equal(other.status, 200, 'the same kind of key from another IP');
    const tier2 = await stream((await k.keys.create({ tier: 2, label: '', createdBy: 'operator' })).key);
    assert.equal(tier2.status, 200, 'an operator-issued key is not capped per IP');
    await open[0].body!.cancel();
    const again = await stream(free[2]);
    assert.equal(again.status, 200, 'a closed stream frees its IP slot');
    for (const r of [...open.slice(1), other, tier2, again]) await r.body!.cancel();
  }));

test('a banned IP or CIDR gets 403 IP_BANNED, from the option and from the ban file as it changes', async () => {
  const tmp = tempDir();
  const banFile = join(tmp.dir, 'banned-ips.txt');
  try {
    await withLimits({ banned: ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32'], banFile, banFilePollMs: 20 }, async (k) => {
      for (const ip of ['203.0.113.7', '10.1.2.3', '::ffff:10.9.9.9', '2001:db8::5']) {
        const r = await k.req('/api/health', { ip });
        assert.equal(r.status, 403, ip);
        const body = (await r.json()) as any;
        assertErrorShape(body);
        assert.equal(body.code, 'IP_BANNED');
        assert.ok(r.headers.get('x-ratelimit-limit'));
      }
      assert.equal((await k.req('/api/health', { ip: '198.51.100.77' })).status, 200);
      writeFileSync(banFile, '# abuse\n198.51.100.77\n');
      k.limiter.reloadBanFile();
      assert.equal((await k.req('/api/health', { ip: '198.51.100.77' })).status, 403);
      writeFileSync(banFile, 'not-an-ip\n');
      k.limiter.reloadBanFile();
      assert.equal((await k.req('/api/health', { ip: '198.51.100.77' })).status, 403, 'a broken file keeps the previous list');
      writeFileSync(banFile, '');
      k.limiter.reloadBanFile();
      assert.equal((await k.req('/api/health', { ip: '198.51.100.77' })).status, 200);
    });
  } finally {
    tmp.cleanup();
  }
});

test('invalid keys are 401; after 10 in a minute the IP gets 429 for the block period, even with a good key', () =>
  withLimits({ badKeyBlockMs: 120_000 }, async (k) => {
    const good = (await k.keys.create({ tier: 1, label: '', createdBy: 'x' })).key;
    for (let i = 0; i < 10; i++) {
      const r = await k.req('/api/health', { key: `ombra_live_${i}`, ip: '192.0.2.50' });
      assert.equal(r.status, 401);
      assert.equal(((await r.json()) as any).code, 'UNAUTHORIZED');
    }
    const blocked = await k.req('/api/health', { key: good, ip: '192.0.2.50' });
    assert.equal(blocked.status, 429);
    assert.match(((await blocked.json()) as any).error, /too many invalid API keys/);
    assert.equal(blocked.headers.get('retry-after'), '120');
    assert.equal((await k.req('/api/health', { key: good, ip: '192.0.2.51' })).status, 200, 'other IPs are not affected');
    k.clock.now += 121_000;
    assert.equal((await k.req('/api/health', { key: good, ip: '192.0.2.50' })).status, 200);
  }));

test('the limiter is opt-in: createApp without one sets no headers', async () => {
  const chain = await openTestChain();
  try {
    const r = await chain.app.request('/api/health');
    assert.equal(r.headers.get('x-ratelimit-limit'), null);
  } finally {
    await chain.destroy();
  }
});

test('client IP: the socket address; X-Forwarded-For only from a trusted proxy', async () => {
  assert.equal(normalizeIp('::ffff:1.2.3.4'), '1.2.3.4');
  assert.equal(normalizeIp('::1'), '::1');
  assert.throws(() => parseBanList(['1.2.3.4/33']), /prefix length/);
  assert.throws(() => parseBanList(['example.com']), /not an IP/);
  for (const trustProxy of [false, true]) {
    // Trusting every address as a proxy (--trusted-proxy 0.0.0.0/0) believes the whole chain.
    await withLimits({ trustedProxies: trustProxy ? ['0.0.0.0/0', '::/0'] : [], banned: ['192.0.2.66'] }, async (k) => {
      const r = await k.req('/api/health', { ip: '198.51.100.3', init: { headers: { 'X-Forwarded-For': '192.0.2.66, 10.0.0.1' } } });
      assert.equal(r.status, trustProxy ? 403 : 200);
    });
  }
});

test('behind a trusted proxy, a spoofed leftmost X-Forwarded-For does not escape the per-IP limit', async () => {
  await withLimits({ trustedProxies: ['10.0.0.0/8'], tiers: { anonymous: { perMinute: 5, concurrent: 10, streams: 10 } } }, async (k) => {
    // The proxy (10.0.0.5) appends the real client (203.0.113.9); the client wrote a new fake hop each time.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await k.req('/api/health', { ip: '10.0.0.5', init: { headers: { 'X-Forwarded-For': `198.18.${i}.1, 203.0.113.9` } } });
      statuses.push(r.status);
    }
    assert.deepEqual(statuses.slice(0, 5), [200, 200, 200, 200, 200]);
    assert.ok(
      statuses.slice(5).every((s) => s === 429),
      String(statuses),
    );
    // Another client behind the same proxy has its own bucket.
    const other = await k.req('/api/health', { ip: '10.0.0.5', init: { headers: { 'X-Forwarded-For': '203.0.113.10' } } });
    assert.equal(other.status, 200);
    // A direct client that is no proxy cannot choose its IP at all.
    const direct = await k.req('/api/health', { ip: '198.51.100.77', init: { headers: { 'X-Forwarded-For': '203.0.113.10' } } });
    assert.equal(direct.status, 200);
  });
});

test('anonymous quotas are per IPv6 /64: a client rotating through its /64 shares one quota; the next /64 has its own', () =>
  withLimits({ tiers: { anonymous: { perMinute: 5, concurrent: 10, streams: 10 } } }, async (k) => {
    const statuses: number[] = [];
    for (let i = 1; i <= 20; i++) statuses.push((await k.req('/api/health', { ip: `2001:db8:0:7::${i.toString(16)}:1` })).status);
    assert.equal(statuses.filter((s) => s === 200).length, 5, String(statuses));
    assert.equal((await k.req('/api/health', { ip: '2001:db8:0:8::1' })).status, 200, 'the next /64');
    assert.equal((await k.req('/api/health', { ip: '198.51.100.9' })).status, 200, 'IPv4 stays per address');
  }));

test('behind a trusted proxy, a malformed rightmost hop is its own client: other clients keep their quota', async () => {
  await withLimits({ trustedProxies: ['10.0.0.0/8'], tiers: { anonymous: { perMinute: 5, concurrent: 10, streams: 10 } } }, async (k) => {
    const via = (xff: string) => k.req('/api/health', { ip: '10.0.0.5', init: { headers: { 'X-Forwarded-For': xff } } });
    const junk: number[] = [];
    for (let i = 0; i < 12; i++) junk.push((await via('203.0.113.9, unknown')).status);
    assert.equal(junk.filter((s) => s === 200).length, 5, String(junk));
    // Every honest client behind the proxy, and the proxy itself, still gets its own quota.
    for (let i = 1; i <= 3; i++) assert.equal((await via(`203.0.113.${i}`)).status, 200);
    assert.equal((await via('203.0.113.20:4711')).status, 200, 'a hop with a port is its address');
    assert.equal((await k.req('/api/health', { ip: '10.0.0.5' })).status, 200, "the proxy's own requests");
  });
});
