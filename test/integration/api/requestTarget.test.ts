/**
 * Dot segments in the raw request target: through the real HTTP server (an in-process request
 * would have its URL resolved before routing), `/web/<alias>/%2e%2e/...` never leaves /web/.
 */
import { request } from 'node:http';
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.ts';
import { HttpServer } from '../../../api/httpServer.ts';
import { dotSegmentProblem } from '../../../api/requestTarget.ts';
import { StreamHub } from '../../../api/streams/streamHub.ts';
import { openTestChain, testApiDeps } from '../../helpers/testChain.ts';

/** GET of a raw target (node:http sends the path as written). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { path }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('an encoded or literal dot segment is refused 400 before routing; /api/health is never reached through /web/', async () => {
  const chain = await openTestChain();
  const hub = new StreamHub(chain.node.streamPorts());
  const http = new HttpServer(createApp(testApiDeps(chain.node, { streams: hub })), hub, null, { host: '127.0.0.1', port: 0 });
  await http.start();
  try {
    for (const path of [
      '/web/hello/%2e%2e/%2e%2e/api/health',
      '/web/hello/%2E%2E/%2e%2E/api/health',
      '/web/hello/.%2e/.%2e/api/health',
      '/web/hello/../../api/health',
      '/web/hello/./%2e%2e/%2e%2e/api/health?x=1',
    ]) {
      const res = await rawGet(http.url, path);
      assert.equal(res.status, 400, `${path}: ${res.body}`);
      assert.equal(JSON.parse(res.body).code, 'INVALID_PARAMS', path);
    }
    assert.equal((await rawGet(http.url, '/api/health')).status, 200, 'a plain path still answers');
    assert.equal((await rawGet(http.url, '/web/hello/%2e%2e%2fapi%2fhealth')).status, 404, 'an encoded slash is no segment end');
    assert.equal((await rawGet(http.url, '/api/health?path=../..')).status, 200, 'the query is not the path');
  } finally {
    await http.stop();
    await chain.destroy();
  }
});

test('property: a path refused by the check is exactly one a URL parser would rewrite', () => {
  const seg = fc.oneof(
    fc.constantFrom('.', '..', '%2e', '%2E%2e', '.%2e', 'a', 'web', 'x.y', '...', '%2e%2e%2f'),
    fc.stringMatching(/^[a-z0-9._-]{0,6}$/),
  );
  fc.assert(
    fc.property(fc.array(seg, { minLength: 1, maxLength: 6 }), (segs) => {
      const path = `/${segs.join('/')}`;
      const rewritten = new URL(`http://h${path}`).pathname !== path;
      return (dotSegmentProblem(path) !== null) === rewritten;
    }),
    { numRuns: 2000 },
  );
});
