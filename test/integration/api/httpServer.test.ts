/**
 * The HTTP server's lifecycle as its users see it: the URL it serves on is known from start and
 * still named after stop (alert links built while a node shuts down read it: the e2e runner saw a
 * SIGTERM end in exit 1, "the HTTP server is not started", thrown from the alert reactor).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.ts';
import { HttpServer } from '../../../api/httpServer.ts';
import { StreamHub } from '../../../api/streams/streamHub.ts';
import { openTestChain, testApiDeps } from '../../helpers/testChain.ts';

test('names its URL from start, and still after stop; before start it says it is not started', async () => {
  const chain = await openTestChain();
  const hub = new StreamHub(chain.node.streamPorts());
  const http = new HttpServer(createApp(testApiDeps(chain.node, { streams: hub })), hub, null, { host: '127.0.0.1', port: 0 });
  try {
    assert.throws(() => http.url, /not started/);
    await http.start();
    const url = http.url;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await fetch(`${url}/api/health`)).status, 200);
    await http.stop();
    assert.equal(http.url, url, 'the URL it served on, after stop');
    await fetch(`${url}/api/health`).then(
      () => assert.fail('a stopped server answered'),
      () => undefined,
    );
  } finally {
    await http.stop();
    await chain.destroy();
  }
});
