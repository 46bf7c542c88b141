/**
 * HTTP semantics at the edge, as validators (Prism, a fuzzer) and plain HTTP clients expect them:
 * an unread body closes its connection and says so (413 over a real socket), a known path asked
 * with another method is 405 with `Allow`, a query parameter given twice is refused, and a body
 * that is not JSON on a JSON route is 415.
 */
import { connect, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../api/app.ts';
import { HttpServer } from '../../api/httpServer.ts';
import { openTestChain, testApiDeps, type TestChain } from '../helpers/testChain.ts';
import { assertError, call } from './support.ts';

const t = suite('http semantics');

let c: TestChain;
t.before(async () => {
  c = await openTestChain();
});
t.after(async () => {
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

t('a 413 on POST /api/chain/tx (2.2 MB) says Connection: close and closes; a read body keeps the connection', async () => {
  await withServer(async (port) => {
    const big = await open(port);
    const length = 2_200_000;
    big.s.write(`POST /api/chain/tx HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`);
    big.s.write(`{"s":"${'a'.repeat(64 * 1024)}`);
    await until(big.s, big.closed, () => big.received().includes('\r\n\r\n'));
    const answer = head(big.received());
    assert.is(answer.status, 413);
    // Before: `Connection: keep-alive`, then the socket was cut ~0.5 s later with the next request unanswered.
    assert.is(answer.headers.connection, 'close', JSON.stringify(answer.headers));
    await big.closed;

    // A body the handler reads leaves the connection open: a second request on it is answered.
    const kept = await open(port);
    const body = '{"not":"a transaction"}';
    const post = `POST /api/chain/tx HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    kept.s.write(post);
    await until(kept.s, kept.closed, () => /\r\n\r\n[\s\S]*\}/.test(kept.received()));
    const first = head(kept.received());
    assert.is(first.status, 400);
    assert.is.not(first.headers.connection, 'close');
    kept.s.write('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await kept.closed;
    assert.match(kept.received(), /HTTP\/1\.1 400[\s\S]*HTTP\/1\.1 200/);
  });
});

t.run();
