/** Cross-cutting HTTP behaviour: unknown routes, the error body, CORS, the body limit, internal errors. */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noNetwork } from '../../../api/context.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { assertError, assertErrorShape, call, get, withChain } from '../../helpers/apiSupport.ts';

test('unknown routes are 404 {error, code: "NOT_FOUND"}', () =>
  withChain(async (c) => {
    // GET / is the explorer (api/resources/operator/explorerRoutes.ts); other unknown top-level paths are 404.
    for (const path of [
      '/nope',
      '/explorer/nope.js',
      '/api',
      '/api/chain',
      '/api/chain/nope',
      '/api/chain/block',
      '/api/wallet/balance',
      '/api/unknown/thing',
      `/api/${'x'.repeat(10_000)}`,
    ]) {
      const res = await get(c, path);
      assertError(res, 404, 'NOT_FOUND');
      assert.ok(res.body.error.length < 300, 'the message does not echo a long path');
    }
  }));

test('a method a route does not serve is 405 METHOD_NOT_ALLOWED with Allow', () =>
  withChain(async (c) => {
    const cases: [string, string, string][] = [
      ['/api/chain/tx', 'GET', 'POST, OPTIONS'],
      ['/api/chain/stats', 'POST', 'GET, HEAD, OPTIONS'],
      [`/api/chain/tx/${'ab'.repeat(32)}`, 'DELETE', 'GET, HEAD, OPTIONS'],
      ['/api/chain/blocks', 'PUT', 'GET, HEAD, OPTIONS'],
    ];
    for (const [path, method, allow] of cases) {
      const res = await call(c, path, { method, ...(method === 'GET' ? {} : { body: '{}' }) });
      assertError(res, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(res.headers.get('allow'), allow, `${method} ${path}`);
    }
  }));

test('a GET from another origin is allowed: Access-Control-Allow-Origin is *', () =>
  withChain(async (c) => {
    const origin = { Origin: 'https://explorer.example' };
    for (const path of [
      '/api/health',
      '/api/chain/stats',
      `/api/wallet/balance/${DEV_KEYS[1].address}`,
      '/api/chain/block/999',
      '/api/nope',
    ]) {
      const res = await get(c, path, origin);
      assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
    }
  }));

test('a POST /api/chain/tx preflight from another origin is allowed with Content-Type', () =>
  withChain(async (c) => {
    const res = await c.app.request('/api/chain/tx', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://wallet.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const methods = (res.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
    assert.ok(methods.includes('POST'), `methods: ${methods}`);
    assert.ok(methods.includes('GET'));
    const headers = (res.headers.get('access-control-allow-headers') ?? '')
      .toLowerCase()
      .split(',')
      .map((h) => h.trim());
    assert.ok(headers.includes('content-type'), `headers: ${headers}`);
    // The actual cross-origin POST carries the header too, refusals included.
    const post = await c.app.request('/api/chain/tx', {
      method: 'POST',
      headers: { Origin: 'https://wallet.example', 'Content-Type': 'application/json' },
      body: '{',
    });
    assert.equal(post.status, 400);
    assert.equal(post.headers.get('access-control-allow-origin'), '*');
  }));

test('every answer is JSON, errors included', () =>
  withChain(async (c) => {
    for (const path of ['/api/health', '/api/nope', '/api/chain/block/abc', '/api/chain/block/99']) {
      const res = await c.app.request(path);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/, path);
    }
  }));

test('a body over 1 MiB is 413 PAYLOAD_TOO_LARGE whether or not Content-Length announces it', () =>
  withChain(async (c) => {
    const body = 'x'.repeat(1024 * 1024 + 1);
    assertError(await call(c, '/api/chain/tx', { method: 'POST', body }), 413, 'PAYLOAD_TOO_LARGE');
    assertError(
      await call(c, '/api/chain/tx', { method: 'POST', body, headers: { 'Content-Length': String(body.length) } }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    // Multi-byte characters count as bytes: 524,289 three-byte characters exceed 1 MiB.
    assertError(
      await call(c, '/api/chain/tx', { method: 'POST', body: JSON.stringify({ s: '€'.repeat(350_000) }) }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    assert.equal(c.node.mempool.size, 0);
  }));

test('an unexpected failure is 500 {error: "internal error", code: "INTERNAL"} without details', () =>
  withChain(
    async (c) => {
      const res = await get(c, '/api/health');
      assertError(res, 500, 'INTERNAL', 'internal error');
      assert.doesNotMatch(JSON.stringify(res.body), /secret-detail/);
      // The node keeps serving.
      assert.equal((await get(c, '/api/chain/height')).status, 200);
    },
    {
      network: {
        ...noNetwork,
        peerCount: () => {
          throw new Error('secret-detail: peer table corrupted');
        },
      },
    },
  ));

test('no GET of any route with any parameter crashes: 200, 400, 404 or 405, and every refusal is {error, code}', () =>
  withChain(async (c) => {
    await c.node.submitTx(c.transfer(1, DEV_KEYS[2].address, 5n));
    await c.produce(2);
    const routes = [
      (p: string) => `/api/chain/block/${p}`,
      (p: string) => `/api/chain/block/hash/${p}`,
      (p: string) => `/api/chain/tx/${p}`,
      (p: string) => `/api/chain/account/${p}`,
      (p: string) => `/api/chain/search/${p}`,
      (p: string) => `/api/wallet/balance/${p}`,
      (p: string) => `/api/address/${p}`,
      (p: string) => `/api/address/${p}/balance`,
      (p: string) => `/api/address/${p}/txs`,
      (p: string) => `/api/chain/blocks?limit=${p}`,
      (p: string) => `/api/chain/blocks?offset=${p}`,
      (p: string) => `/api/chain/blocks?from=${p}`,
      (p: string) => `/api/chain/blocks?from=0&to=${p}`,
      (p: string) => `/api/chain/blocks-full?from=${p}&to=${p}`,
      (p: string) => `/api/mempool/?limit=${p}`,
      (p: string) => `/api/tokenomics/holders?limit=${p}`,
      (p: string) => `/api/address/${DEV_KEYS[1].address}/txs?limit=${p}&offset=${p}`,
    ];
    const param = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.nat().map(String),
      fc.integer().map(String),
      fc.double().map(String),
      fc.constantFrom(
        '0',
        '1',
        '2',
        '3',
        '-0',
        '1e99',
        'x'.repeat(10_000),
        '9'.repeat(400),
        DEV_KEYS[1].address,
        DEV_KEYS[1].address.toUpperCase(),
        c.node.head().hash,
        'ox',
        ' 1',
        '1 ',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: routes.length - 1 }), param, async (r, p) => {
        const path = routes[r](encodeURIComponent(p));
        const res = await c.app.request(path);
        const text = await res.text();
        const body = JSON.parse(text);
        // 405: an empty parameter can leave the path of a POST route (`/api/chain/tx/`).
        assert.ok([200, 400, 404, 405].includes(res.status), `${path.slice(0, 120)} -> ${res.status} ${text.slice(0, 200)}`);
        if (res.status !== 200) assertErrorShape(body);
        if (res.status === 400) assert.equal(body.code, 'INVALID_PARAMS');
        if (res.status === 404) assert.equal(body.code, 'NOT_FOUND');
        if (res.status === 405) assert.equal(body.code, 'METHOD_NOT_ALLOWED');
      }),
      { numRuns: 200 },
    );
  }));
