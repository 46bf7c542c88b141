/** The public HTTP edge cuts idle, slow and stalled clients, and caps connections per IP, while serving others. */
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.ts';
import { HttpServer } from '../../../api/httpServer.ts';
import type { ServerLimits } from '../../../api/serverLimits.ts';
import { openTestChain, testApiDeps, type TestChain } from '../../helpers/testChain.ts';

const LIMITS = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300, maxConnectionsPerIp: 3 };

async function withServer(fn: (port: number, chain: TestChain) => Promise<void>, limits: Partial<ServerLimits> = LIMITS): Promise<void> {
  const chain = await openTestChain();
  const deps = testApiDeps(chain.node);
  const http = new HttpServer(createApp(deps), deps.streams, null, { host: '127.0.0.1', port: 0, limits });
  await http.start();
  try {
    await fn(Number(new URL(http.url).port), chain);
  } finally {
    await http.stop();
    await chain.destroy();
  }
}

/** A raw connection from `localAddress`; resolves once connected. */
function open(port: number, localAddress = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, localAddress }, () => resolve(s));
    s.once('error', reject);
  });
}

/** Milliseconds until the server closes `s` (rejects after `within`). */
function closedWithin(s: Socket, within: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still open after ${within} ms`)), within);
    s.on('data', () => undefined);
    s.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

const healthy = async (port: number) => (await fetch(`http://127.0.0.1:${port}/api/health`)).status;

test('an idle client, a slowloris header trickle and a stalled body are cut, while a fresh client is served', async () => {
  await withServer(async (port) => {
    const idle = await open(port);
    const slow = await open(port);
    slow.write('GET /api/health HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => slow.writable && slow.write('X-A: b\r\n'), 100);
    const stalled = await open(port);
    stalled.write('POST /api/chain/tx HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
    try {
      const cut = await Promise.all([closedWithin(idle, 5000), closedWithin(slow, 5000), closedWithin(stalled, 5000)]);
      assert.ok(
        cut.every((ms) => ms < 5000),
        String(cut),
      );
      assert.equal(await healthy(port), 200);
    } finally {
      clearInterval(trickle);
      for (const s of [idle, slow, stalled]) s.destroy();
    }
  });
});

test('connections over the per-IP cap are closed at once; other IPs and loopback are still served', async () => {
  await withServer(async (port) => {
    const held = [await open(port, '127.0.0.2'), await open(port, '127.0.0.2'), await open(port, '127.0.0.2')];
    try {
      const fourth = await open(port, '127.0.0.2');
      assert.ok((await closedWithin(fourth, 2000)) < 2000);
      const other = await open(port, '127.0.0.3');
      other.write('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        other.on('data', (d) => (text += d.toString()));
        other.once('close', () => resolve(text));
      });
      assert.match(answer, /^HTTP\/1\.1 200/);
      assert.equal(await healthy(port), 200);
    } finally {
      for (const s of held) s.destroy();
    }
  });
});

test('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
  await withServer(async (port) => {
    const s = await open(port);
    s.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.ok((await closedWithin(s, 5000)) >= 200);
  });
});

test('a connection with no traffic is cut by the idle timeout even when the header deadline is far off', async () => {
  await withServer(
    async (port) => {
      const quiet = await open(port);
      assert.ok((await closedWithin(quiet, 5000)) < 5000);
      assert.equal(await healthy(port), 200);
    },
    { headersTimeoutMs: 60_000, requestTimeoutMs: 120_000, idleTimeoutMs: 300 },
  );
});

test('connections over the total cap are closed at once, and a slot frees when one closes', async () => {
  await withServer(
    async (port) => {
      const held = [await open(port), await open(port)];
      try {
        const third = await open(port);
        assert.ok((await closedWithin(third, 2000)) < 2000);
        held[0].destroy();
        await new Promise((r) => setTimeout(r, 100));
        assert.equal(await healthy(port), 200);
      } finally {
        for (const s of held) s.destroy();
      }
    },
    { maxConnections: 2, maxConnectionsPerIp: 0 },
  );
});
