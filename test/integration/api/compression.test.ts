/**
 * Answers over real HTTP (@hono/node-server, as `ombra start` serves them): JSON, HTML, JS and
 * CSS above ~1 KB compressed with brotli or gzip as Accept-Encoding allows, `Vary:
 * Accept-Encoding` on them, small answers and streams left alone; the node's static files with
 * ETags, 304s and a year's cache when asked for by version; and none of them counted by the rate
 * limiter.
 */
import { serve, type ServerType } from '@hono/node-server';
import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.ts';
import { pickEncoding } from '../../../api/compression.ts';
import { RateLimiter } from '../../../api/rateLimit.ts';
import { ApiKeyStore } from '../../../services/apiKeys.ts';
import { openTestChain, testApiDeps, type TestChain } from '../../helpers/testChain.ts';

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** GET `path` with `headers`, the body as sent (not decoded); a stream is read for 300 ms only. */
function raw(base: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = get(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', done);
      if (String(res.headers['content-type']).startsWith('text/event-stream'))
        setTimeout(() => {
          req.destroy();
          done();
        }, 300);
    });
    req.on('error', reject);
  });
}

const decode = (r: Raw) =>
  (r.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(r.body)
    : r.headers['content-encoding'] === 'gzip'
      ? gunzipSync(r.body)
      : r.body
  ).toString('utf8');

async function withServer(fn: (base: string, chain: TestChain) => Promise<void>, perMinute?: number, banned: string[] = []) {
  const chain = await openTestChain();
  const keys = await new ApiKeyStore(chain.node.store).load();
  const limiter =
    perMinute === undefined && banned.length === 0
      ? undefined
      : new RateLimiter(keys, { banned, tiers: { anonymous: { perMinute: perMinute ?? 60, concurrent: 10, streams: 10 } } });
  let server: ServerType | undefined;
  try {
    for (let i = 0; i < 30; i++) await chain.node.submitTx(chain.transfer(1, chain.genesis.authorities[0], String(i + 1)));
    await chain.produce(3);
    const app = createApp(testApiDeps(chain.node, { keys, limiter }));
    const base = await new Promise<string>((resolve) => {
      server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
        resolve(`http://127.0.0.1:${((server as ServerType).address() as AddressInfo).port}`),
      );
    });
    await fn(base, chain);
  } finally {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await limiter?.stop();
    await keys.stop();
    await chain.destroy();
  }
}

test('Accept-Encoding picks brotli first, then gzip; q=0 refuses', () => {
  assert.equal(pickEncoding('gzip, deflate, br, zstd'), 'br');
  assert.equal(pickEncoding('gzip'), 'gzip');
  assert.equal(pickEncoding('br;q=0, gzip;q=0.5'), 'gzip');
  assert.equal(pickEncoding('identity'), null);
  assert.equal(pickEncoding(undefined), null);
  assert.equal(pickEncoding('x-gzip-ish'), null);
});

test('JSON, HTML, JS and CSS above 1 KB go out in the encoding asked for, with Vary; small answers and streams as they are', () =>
  withServer(async (base) => {
    for (const path of ['/api/chain/block/1', '/', '/explorer/app.ts', '/explorer/pages.css', '/api/openapi.json']) {
      const plain = await raw(base, path);
      assert.equal(plain.status, 200, path);
      assert.ok(plain.body.length > 1024, `${path} is above 1 KB (${plain.body.length})`);
      assert.equal(plain.headers['content-encoding'], undefined, path);
      assert.match(String(plain.headers.vary), /Accept-Encoding/i, path);
      for (const enc of ['br', 'gzip']) {
        const r = await raw(base, path, { 'Accept-Encoding': enc === 'br' ? 'gzip, deflate, br' : 'gzip' });
        assert.equal(r.headers['content-encoding'], enc, `${path} ${enc}`);
        assert.match(String(r.headers.vary), /Accept-Encoding/i);
        assert.ok(r.body.length < plain.body.length / 2, `${path} ${enc}: ${r.body.length} of ${plain.body.length} bytes`);
        assert.equal(Number(r.headers['content-length']), r.body.length);
        assert.equal(decode(r), plain.body.toString('utf8'), `${path} ${enc} decodes to the same answer`);
      }
    }
    const small = await raw(base, '/api/health', { 'Accept-Encoding': 'br, gzip' });
    assert.ok(small.body.length < 1024);
    assert.equal(small.headers['content-encoding'], undefined);
    const stream = await raw(base, '/api/chain/events', { 'Accept-Encoding': 'br, gzip' });
    assert.match(String(stream.headers['content-type']), /text\/event-stream/);
    assert.equal(stream.headers['content-encoding'], undefined);
    assert.match(stream.body.toString('utf8'), /event: hello/);
    const range = await raw(base, '/api/chain/blocks-full?from=0&to=3', { 'Accept-Encoding': 'br, gzip' });
    assert.equal(range.status, 200);
    assert.equal(range.headers['content-encoding'], undefined, 'a block range is a stream: sent as it comes');
  }));

test('static files: ETag and 304, a year in the cache when asked for by version, the page naming every file by version', () =>
  withServer(async (base) => {
    const first = await raw(base, '/explorer/app.ts');
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[0-9a-f]{16}"$/);
    assert.equal(first.headers['cache-control'], 'no-cache');
    const again = await raw(base, '/explorer/app.ts', { 'If-None-Match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const version = etag.slice(1, -1);
    const pinned = await raw(base, `/explorer/app.ts?v=${version}`);
    assert.match(String(pinned.headers['cache-control']), /max-age=31536000.*immutable/);
    const stale = await raw(base, '/explorer/app.ts?v=0000000000000000');
    assert.equal(stale.headers['cache-control'], 'no-cache', 'an old version is not cached as if it were this one');
    const page = (await raw(base, '/')).body.toString('utf8');
    assert.ok(page.includes(`/explorer/app.ts?v=${version}`), 'the page names app.js by its version');
    const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(page)?.[1] ?? '{}') as { imports: Record<string, string> };
    assert.equal(map.imports['/explorer/app.ts'], `/explorer/app.ts?v=${version}`);
    assert.match(map.imports['/explorer/client/browser.ts'] ?? '', /^\/explorer\/client\/browser\.ts\?v=[0-9a-f]{16}$/);
    assert.match(map.imports['/explorer/vendor/uPlot.js'] ?? '', /\?v=[0-9a-f]{16}$/);
    const docs = (await raw(base, '/docs')).body.toString('utf8');
    assert.match(docs, /\/docs\/docs\.js\?v=[0-9a-f]{16}/);
  }));

test('the rate limiter does not count static files, and a ban still covers them', async () => {
  await withServer(async (base) => {
    const remaining = async () => Number((await raw(base, '/api/health')).headers['x-ratelimit-remaining']);
    const before = await remaining();
    for (const path of ['/', '/explorer/app.ts', '/explorer/client/browser.ts', '/explorer/vendor/uPlot.js', '/docs', '/docs/docs.js']) {
      for (let i = 0; i < 3; i++) assert.equal((await raw(base, path)).status, 200, path);
    }
    assert.equal(await remaining(), before - 1, 'eighteen static answers cost nothing; the one API read cost one');
    assert.equal((await raw(base, '/api/chain/height')).status, 200);
    assert.equal((await raw(base, '/api/chain/height')).status, 429, 'the API quota is still enforced');
  }, 3);
  await withServer(
    async (base) => {
      assert.equal((await raw(base, '/explorer/app.ts')).status, 403);
    },
    undefined,
    ['127.0.0.1'],
  );
});
