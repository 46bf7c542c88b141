/**
 * The envelope around Hono's dispatch: every answer timed by its route template and carrying the
 * CORS header, and hot reads answered without a promise when nothing needs waiting for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.ts';
import { MATCH_CACHE } from '../../../api/envelope.ts';
import { NodeMetrics } from '../../../api/metrics/nodeMetrics.ts';
import { RateLimiter } from '../../../api/rateLimit.ts';
import { ApiKeyStore } from '../../../services/apiKeys.ts';
import { openTestChain, testApiDeps, type TestChain } from '../../helpers/testChain.ts';

/** The request counts of the exposition, as `method route status` → count. */
async function requestCounts(metrics: NodeMetrics): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const line of (await metrics.exposition()).body.split('\n')) {
    const m = /^ombra_http_requests_total\{method="([^"]*)",route="([^"]*)",status="([^"]*)"\} (\d+)$/.exec(line);
    if (m) counts[`${m[1]} ${m[2]} ${m[3]}`] = Number(m[4]);
  }
  return counts;
}

async function withApp(fn: (c: TestChain, app: ReturnType<typeof createApp>, metrics: NodeMetrics) => Promise<void>, limiter = false) {
  const chain = await openTestChain();
  const keys = await new ApiKeyStore(chain.node.store).load();
  const rl = limiter ? new RateLimiter(keys, { tiers: { anonymous: { perMinute: 2, concurrent: 10, streams: 10 } } }) : undefined;
  const metrics = new NodeMetrics({ processMetrics: false });
  try {
    await chain.produce(2);
    await fn(chain, createApp(testApiDeps(chain.node, { keys, metrics, limiter: rl })), metrics);
  } finally {
    await rl?.stop();
    await keys.stop();
    await chain.destroy();
  }
}

test('answers are counted by route template, refusals and unmatched paths included', () =>
  withApp(async (_c, app, metrics) => {
    for (const path of ['/api/chain/block/0', '/api/chain/block/1', '/api/chain/block/abc', '/api/chain/block/99', '/api/health'])
      await app.request(path);
    await app.request('/api/chain/tx', { method: 'POST', body: 'x'.repeat(1024 * 1024 + 1) });
    await app.request('/api/chain/tx', { method: 'OPTIONS' });
    await app.request('/no/such/route');
    assert.deepEqual(await requestCounts(metrics), {
      'GET /api/chain/block/:index 200': 2,
      'GET /api/chain/block/:index 400': 1,
      'GET /api/chain/block/:index 404': 1,
      'GET /api/health 200': 1,
      'POST /api/chain/tx 413': 1,
      'OPTIONS unmatched 204': 1,
      'GET unmatched 404': 1,
    });
    const timed = (await metrics.exposition()).body
      .split('\n')
      .find((l) => l.startsWith('ombra_http_request_duration_seconds_count{method="GET",route="/api/chain/block/:index"}'));
    assert.equal(timed?.split(' ')[1], '4');
  }));

test('remembered matches keep each path’s own parameters, past the cache’s size', () =>
  withApp(async (c, app) => {
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < MATCH_CACHE + 50; i++) {
        const height = i % 4 === 0 ? (i / 4) % 3 : 1000 + i;
        const res = await app.request(`/api/chain/block/${height}`);
        if (height <= 2) assert.equal(((await res.json()) as { index: number }).index, height);
        else assert.deepEqual(await res.json(), { error: `block ${height} not found`, code: 'NOT_FOUND' });
      }
    assert.equal((await app.request(`/api/chain/block/hash/${c.node.head().hash}`)).status, 200);
  }));

test('a rate-limited answer is counted under the route it stood in front of', () =>
  withApp(async (_c, app, metrics) => {
    const env = { incoming: { socket: { remoteAddress: '198.51.100.7' } } };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await app.request('/api/health', undefined, env)).status);
    assert.deepEqual(statuses, [200, 200, 429]);
    const counts = await requestCounts(metrics);
    assert.deepEqual([counts['GET /api/health 200'], counts['GET /api/health 429']], [2, 1]);
  }, true));

test('health, the head and a cached block are answered synchronously, with the CORS header on Node’s response', () =>
  withApp(async (c, app) => {
    const set: Record<string, string> = {};
    const env = () => ({ outgoing: { setHeader: (n: string, v: string) => void (set[n.toLowerCase()] = v) } });
    const fetchOf = (path: string) => app.fetch(new Request(`http://node${path}`), env());
    // First read of a block waits for LevelDB; the next one is served from memory.
    const first = fetchOf('/api/chain/block/1');
    assert.ok(first instanceof Promise);
    const block = await (first as Promise<Response>).then((r) => r.text());
    await fetchOf('/api/chain/block/2');
    for (const path of ['/api/health', '/api/chain/height', '/api/chain/block/1', `/api/chain/block/hash/${c.node.head().hash}`]) {
      const res = fetchOf(path);
      assert.ok(!(res instanceof Promise), path);
      assert.equal((res as Response).status, 200, path);
    }
    assert.equal(await (fetchOf('/api/chain/block/1') as Response).text(), block);
    assert.deepEqual(JSON.parse(await (fetchOf('/api/chain/height') as Response).text()).height, 2);
    assert.equal(set['access-control-allow-origin'], '*');
  }));

test('with rate limits on, a hot read is still answered synchronously, its X-RateLimit-* headers on Node’s response, and a refusal carries CORS', () =>
  withApp(async (_c, app) => {
    const set: Record<string, string> = {};
    const env = {
      incoming: { headers: {}, socket: { remoteAddress: '198.51.100.9' } },
      outgoing: { setHeader: (n: string, v: string) => void (set[n.toLowerCase()] = v) },
    };
    const res = app.fetch(new Request('http://node/api/health'), env);
    assert.ok(!(res instanceof Promise));
    assert.equal((res as Response).status, 200);
    assert.deepEqual([set['x-ratelimit-limit'], set['x-ratelimit-remaining'], set['access-control-allow-origin']], ['2', '1', '*']);
    app.fetch(new Request('http://node/api/health'), env);
    for (const name in set) delete set[name];
    const refused = app.fetch(new Request('http://node/api/health'), env) as Response;
    assert.equal(refused.status, 429);
    assert.equal(set['access-control-allow-origin'], '*', 'a refusal is readable by a browser');
    assert.deepEqual(await refused.json(), {
      error: 'rate limit exceeded: 2 requests per minute for anonymous callers from this IP',
      code: 'RATE_LIMITED',
    });
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  }, true));

test('the head summary and health follow a new head', () =>
  withApp(async (c, app) => {
    const read = async (path: string) => JSON.parse(await (await app.request(path)).text());
    assert.equal((await read('/api/health')).height, 2);
    assert.equal((await read('/api/chain/height')).latestBlock.hash, c.node.head().hash);
    await c.produce(1);
    assert.deepEqual(await read('/api/health'), { status: 'ok', height: 3, peers: 0, syncing: false });
    assert.deepEqual(await read('/api/chain/height'), {
      height: 3,
      latestBlock: { index: 3, hash: c.node.head().hash, timestamp: c.node.head().timestamp },
    });
  }));
