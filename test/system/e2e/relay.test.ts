/**
 * The e2e relay (e2e/relay.ts): bytes pass both ways; a cut closes the open connection and
 * refuses new ones until healed; a dropped link keeps the connection but carries nothing; a
 * dialer that is not the link's node is refused (the relay reads who holds the client socket).
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Relay, type RelayOptions } from '../../../e2e/relay.ts';

/** An echo server on a free loopback port. */
async function echoServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => s.pipe(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port };
}

/** Connects to `port`; resolves with the socket and a reader of what comes back. */
function dial(port: number): Promise<{ sock: Socket; closed: Promise<void>; next: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const sock = createConnection({ host: '127.0.0.1', port });
    const queue: string[] = [];
    const waiting: ((s: string) => void)[] = [];
    sock.on('data', (d) => {
      const w = waiting.shift();
      if (w) w(d.toString());
      else queue.push(d.toString());
    });
    const closed = new Promise<void>((r) => sock.once('close', () => r()));
    sock.once('error', () => undefined);
    sock.once('connect', () =>
      resolve({
        sock,
        closed,
        next: () => (queue.length ? Promise.resolve(queue.shift() as string) : new Promise((r) => waiting.push(r))),
      }),
    );
    sock.once('error', reject);
  });
}

async function relayTo(port: number, dialer: string, events: { event: string; reason?: string; dialer?: string | null }[] = []) {
  const opts: RelayOptions = {
    name: 'me->echo',
    targetPort: port,
    dialer,
    pids: () => new Map([['me', process.pid]]),
    onEvent: (e) => events.push(e),
  };
  const relay = new Relay(opts);
  await relay.listen();
  return relay;
}

test('carries bytes both ways, cuts (closing and refusing), heals', async () => {
  const echo = await echoServer();
  const events: { event: string; reason?: string }[] = [];
  const relay = await relayTo(echo.port, 'me', events);
  const a = await dial(relay.port);
  a.sock.write('hello');
  assert.equal(await a.next(), 'hello');
  relay.cut();
  await a.closed;
  const b = await dial(relay.port);
  await b.closed;
  assert.ok(events.some((e) => e.event === 'refused' && e.reason === 'link cut'));
  relay.heal();
  const c = await dial(relay.port);
  c.sock.write('again');
  assert.equal(await c.next(), 'again');
  c.sock.destroy();
  await relay.close();
  echo.server.close();
});

test('a dropped link holds everything, open connections and new dials alike, and delivers it in order once healed', async () => {
  const echo = await echoServer();
  const relay = await relayTo(echo.port, 'me');
  const a = await dial(relay.port);
  a.sock.write('one');
  assert.equal(await a.next(), 'one');
  relay.drop();
  a.sock.write('held');
  const late = dial(relay.port);
  let arrived = '';
  const all = new Promise<void>((resolve) =>
    a.sock.on('data', (d) => {
      arrived += d.toString();
      if (arrived.length >= 'heldtwo'.length) resolve();
    }),
  );
  // Nothing moves while dropped (a black hole, as under total packet loss).
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(arrived, '');
  relay.heal();
  const b = await late;
  a.sock.write('two');
  await all;
  assert.equal(arrived, 'heldtwo');
  b.sock.write('late');
  assert.equal(await b.next(), 'late');
  a.sock.destroy();
  b.sock.destroy();
  await relay.close();
  echo.server.close();
});

test('a dialer that is not the link node is refused, and named', async () => {
  const echo = await echoServer();
  const events: { event: string; reason?: string; dialer?: string | null }[] = [];
  const relay = await relayTo(echo.port, 'someone-else', events);
  const a = await dial(relay.port);
  await a.closed;
  const refused = events.find((e) => e.event === 'refused');
  assert.equal(refused?.reason, 'only someone-else may dial through this relay');
  assert.equal(refused?.dialer, 'me');
  await relay.close();
  echo.server.close();
});

test('a delayed link delivers in order, no sooner than the delay', async () => {
  const echo = await echoServer();
  const relay = await relayTo(echo.port, 'me');
  relay.delayMs = 150;
  const a = await dial(relay.port);
  const sent = Date.now();
  a.sock.write('x');
  a.sock.write('y');
  let got = '';
  while (got.length < 2) got += await a.next();
  assert.equal(got, 'xy');
  // Both directions are delayed: the echo comes back after two delays at least.
  assert.ok(Date.now() - sent >= 300, `echo after ${Date.now() - sent} ms`);
  a.sock.destroy();
  await relay.close();
  echo.server.close();
});

test('a delayed link whose far end is gone drops what was due and keeps the process turning', { timeout: 20_000 }, async () => {
  const echo = await echoServer();
  const relay = await relayTo(echo.port, 'me');
  relay.delayMs = 150;
  const a = await dial(relay.port);
  a.sock.write('x');
  // The echo is queued on its way back when the client goes away: its end is destroyed with
  // chunks due (the old loop spun on them forever, so no timer fired again).
  await new Promise((r) => setTimeout(r, 200));
  a.sock.destroy();
  await a.closed;
  const turned = await new Promise<boolean>((r) => setTimeout(() => r(true), 400));
  assert.ok(turned, 'timers still fire after the far end is gone');
  await relay.close();
  echo.server.close();
});
