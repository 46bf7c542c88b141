/**
 * HTTP semantics at the edge, as validators (Prism, a fuzzer) and plain HTTP clients expect them:
 * an unread body closes its connection and says so (413 over a real socket), a known path asked
 * with another method is 405 with `Allow`, a query parameter given twice is refused, and a body
 * that is not JSON on a JSON route is 415.
 */
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.ts';
import { HttpServer } from '../../../api/httpServer.ts';
import { openTestChain, testApiDeps, type TestChain } from '../../helpers/testChain.ts';
import { assertError, call } from '../../helpers/apiSupport.ts';

let c: TestChain;
before(async () => {
  c = await openTestChain();
});
after(async () => {
  await c.destroy();
});

/** The chain's app on a loopback port for `fn`. */
async function withServer(fn: (port: number) => Promise<void>): Promise<void> {
  const deps = testApiDeps(c.node);
  const http = new HttpServer(createApp(deps), deps.streams, null, { host: '127.0.0.1', port: 0 });
  await http.start();
  try {
    await fn(Number(new URL(http.url).port));
  } finally {
    await http.stop();
  }
}

/** A raw connection that collects what it receives; `closed` settles when the server ends it. */
function open(port: number): Promise<{ s: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const s = connect({ host: '127.0.0.1', port }, () => resolve({ s, received: () => text, closed }));
    const closed = new Promise<void>((r) => s.once('close', () => r()));
    s.on('data', (d) => {
      text += d.toString('latin1');
    });
    s.on('error', () => undefined);
    s.once('error', reject);
  });
}

/** Waits until `cond()` holds, checking whenever the socket receives data or closes. */
async function until(s: Socket, closed: Promise<void>, cond: () => boolean): Promise<void> {
  while (!cond()) {
    if (s.destroyed) break;
    await Promise.race([new Promise((r) => s.once('data', r)), closed]);
  }
}

/** The status line and headers (lower-cased names) of the first answer in `text`. */
function head(text: string): { status: number; headers: Record<string, string> } {
  const [lines] = text.split('\r\n\r\n');
  const [statusLine, ...rest] = lines.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of rest) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
  return { status: Number(statusLine.split(' ')[1]), headers };
}

test('a 413 on POST /api/chain/tx (2.2 MB) says Connection: close and closes; a read body keeps the connection', async () => {
  await withServer(async (port) => {
    const big = await open(port);
    const length = 2_200_000;
    big.s.write(`POST /api/chain/tx HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`);
    big.s.write(`{"s":"${'a'.repeat(64 * 1024)}`);
    await until(big.s, big.closed, () => big.received().includes('\r\n\r\n'));
    const answer = head(big.received());
    assert.equal(answer.status, 413);
    // Before: `Connection: keep-alive`, then the socket was cut ~0.5 s later with the next request unanswered.
    assert.equal(answer.headers.connection, 'close', JSON.stringify(answer.headers));
    await big.closed;

    // A body the handler reads leaves the connection open: a second request on it is answered.
    const kept = await open(port);
    const body = '{"not":"a transaction"}';
    const post = `POST /api/chain/tx HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    kept.s.write(post);
    await until(kept.s, kept.closed, () => /\r\n\r\n[\s\S]*\}/.test(kept.received()));
    const first = head(kept.received());
    assert.equal(first.status, 400);
    assert.notEqual(first.headers.connection, 'close');
    kept.s.write('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await kept.closed;
    assert.match(kept.received(), /HTTP\/1\.1 400[\s\S]*HTTP\/1\.1 200/);
  });
});

test('a known path asked with another method is 405 METHOD_NOT_ALLOWED naming what it takes in Allow; an unknown path stays 404', async () => {
  const cases: [string, string, string][] = [
    ['PUT', '/api/chain/tx', 'POST, OPTIONS'],
    ['GET', '/api/chain/tx', 'POST, OPTIONS'],
    ['POST', '/api/chain/height', 'GET, HEAD, OPTIONS'],
    ['PATCH', '/api/chain/block/1', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/api/health/', 'GET, HEAD, OPTIONS'],
    ['POST', '/web/site/page.html', 'GET, HEAD, OPTIONS'],
    ['PUT', '/', 'GET, HEAD, OPTIONS'],
  ];
  for (const [method, path, allow] of cases) {
    const res = await call(c, path, {
      method,
      headers: { 'Content-Type': 'application/json' },
      ...(method === 'GET' ? {} : { body: '{}' }),
    });
    // Before: 404 NOT_FOUND, no Allow.
    assertError(res, 405, 'METHOD_NOT_ALLOWED', new RegExp(`^${method} is not allowed`));
    assert.equal(res.headers.get('allow'), allow, `${method} ${path}`);
  }
  for (const [method, path] of [
    ['POST', '/api/nope'],
    ['GET', '/nope/deeper'],
  ]) {
    const res = await call(c, path, {
      method,
      headers: { 'Content-Type': 'application/json' },
      ...(method === 'GET' ? {} : { body: '{}' }),
    });
    assertError(res, 404, 'NOT_FOUND');
    assert.equal(res.headers.get('allow'), null);
  }
  // HEAD is GET without a body; OPTIONS is the preflight everywhere.
  assert.equal((await c.app.request('/api/chain/height', { method: 'HEAD' })).status, 200);
  assert.equal((await c.app.request('/api/chain/tx', { method: 'OPTIONS' })).status, 204);
});

test('a query parameter given twice is 400 INVALID_PARAMS naming it, encoded keys included; once, or another parameter, is served', async () => {
  for (const path of [
    '/api/chain/blocks?limit=1&limit=2',
    '/api/chain/blocks?limit=1&li%6Dit=1',
    '/api/chain/blocks-full?from=1&to=2&from=0',
    '/api/chain/blocks?offset=0&limit=1&offset=',
  ]) {
    // Before: 200, the first value used and the second dropped.
    assertError(await call(c, path), 400, 'INVALID_PARAMS', /given more than once/);
  }
  const once = await call(c, '/api/chain/blocks?limit=1&offset=0&other=1&other=2');
  assert.equal(once.status, 200);
  assert.equal(once.body.blocks.length, 1);
});

test('a body on a JSON route sent as text/plain or a form is 415 UNSUPPORTED_MEDIA_TYPE; JSON types, none, and an empty body are read', async () => {
  const send = (type: string | undefined, body: string, path = '/api/chain/tx') =>
    call(c, path, { method: 'POST', body: new TextEncoder().encode(body), headers: type === undefined ? {} : { 'Content-Type': type } });
  for (const type of [
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonx',
  ]) {
    // Before: text/plain was parsed as JSON (400 naming the transaction's missing fields).
    assertError(await send(type, '{}'), 415, 'UNSUPPORTED_MEDIA_TYPE', /must be JSON/);
    assertError(await send(type, '{}', '/api/keys/register'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assertError(await send(type, '{}', '/api/tasks/submit'), 415, 'UNSUPPORTED_MEDIA_TYPE');
  }
  for (const type of [
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/merge-patch+json',
    undefined,
  ]) {
    assertError(await send(type, '{}'), 400, 'INVALID_PARAMS', /type is required/);
  }
  // An empty body is no body, whatever its type: the route's own answer, not 415.
  const empty = await send('text/plain', '', '/api/keys/register');
  assert.ok(empty.status !== 415 && empty.status < 500, `${empty.status} ${JSON.stringify(empty.body)}`);
  assert.equal(c.node.mempool.size, 0, 'nothing was admitted');
});

test('a 415 reads the body first: the connection is kept and the next request on it answered', async () => {
  await withServer(async (port) => {
    const conn = await open(port);
    const body = '{"type":"TRANSFER"}';
    conn.s.write(`POST /api/chain/tx HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    await until(conn.s, conn.closed, () => /\r\n\r\n[\s\S]*\}/.test(conn.received()));
    const first = head(conn.received());
    assert.equal(first.status, 415);
    assert.notEqual(first.headers.connection, 'close');
    conn.s.write('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await conn.closed;
    assert.match(conn.received(), /HTTP\/1\.1 415[\s\S]*HTTP\/1\.1 200/);
  });
});
