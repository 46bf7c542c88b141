/**
 * The HTTP server's lifecycle as its users see it: the URL it serves on is known from start and
 * still named after stop (alert links built while a node shuts down read it: the e2e runner saw a
 * SIGTERM end in exit 1, "the HTTP server is not started", thrown from the alert reactor); a stop
 * lets the answers under way finish before the node closes its store (a two-hour soak saw one
 * read fail with "Database is not open" as a store reopened after a full disk), and an answer
 * that outlives the store anyway is a warning, not an error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { createApp } from '../../../api/app.ts';
import { silentLogger } from '../../../node/log.ts';
import { HttpServer } from '../../../api/httpServer.ts';
import { StreamHub } from '../../../api/streams/streamHub.ts';
import { DEV_KEYS, openTestChain, testApiDeps } from '../../helpers/testChain.ts';

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

/** A server on `app`, with a chain for its stream hub; `drainMs` as given. */
async function serving(app: Hono, drainMs?: number) {
  const chain = await openTestChain();
  const hub = new StreamHub(chain.node.streamPorts());
  const http = new HttpServer(app, hub, null, { host: '127.0.0.1', port: 0, drainMs });
  await http.start();
  return { http, close: () => http.stop().then(() => chain.destroy()) };
}

/** A route that answers once released, and says when it has begun. */
function heldRoute() {
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  let begun = () => {};
  const inside = new Promise<void>((r) => {
    begun = r;
  });
  let storeOpen = true;
  const app = new Hono();
  app.get('/held', async (c) => {
    begun();
    await held;
    return c.json({ storeOpen });
  });
  return { app, release, inside, closeStore: () => (storeOpen = false) };
}

test('a stop waits for the answers under way, so they read the store before the node closes it', async () => {
  const route = heldRoute();
  const s = await serving(route.app);
  try {
    const answer = fetch(`${s.http.url}/held`).then((r) => r.json());
    await route.inside;
    let stopped = false;
    // As launch/lifecycle.ts does: the node's store closes once the HTTP server has stopped.
    const stopping = s.http.stop().then(() => {
      stopped = true;
      route.closeStore();
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(stopped, false, 'the stop waits for the answer under way');
    route.release();
    assert.deepEqual(await answer, { storeOpen: true }, 'answered in full, before the store closed');
    await stopping;
    assert.equal(stopped, true);
  } finally {
    route.release();
    await s.close();
  }
});

test('a stop gives up on an answer still under way after its drain time, and closes its connection', async () => {
  const route = heldRoute();
  const s = await serving(route.app, 50);
  try {
    const answer = fetch(`${s.http.url}/held`);
    await route.inside;
    await s.http.stop();
    await answer.then(
      () => assert.fail('a connection closed at stop still answered'),
      () => undefined,
    );
  } finally {
    route.release();
    await s.close();
  }
});

test('an answer that outlives the store is logged as a warning naming the stop, not as an error', async () => {
  const chain = await openTestChain();
  const warned: string[] = [];
  const errors: string[] = [];
  const log = { ...silentLogger, warn: (msg: string) => void warned.push(msg), error: (msg: string) => void errors.push(msg) };
  const app = createApp(testApiDeps(chain.node, { log }));
  try {
    const address = DEV_KEYS[1].address;
    assert.equal((await app.request(`/api/chain/account/${address}`)).status, 200);
    await chain.node.store.db.close();
    const res = await app.request(`/api/chain/account/${address}`);
    assert.equal(res.status, 500);
    assert.deepEqual(errors, []);
    assert.deepEqual(warned, ['request outlived the store: the node is stopping or reopening it']);
  } finally {
    await chain.destroy();
  }
});
