/** Backpressure on SSE: a consumer that stops reading is cut off with SLOW_CONSUMER; the others are not slowed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { SignedTx } from '../../../../core/tx/handler.ts';
import { waitFor } from '../../../helpers/nodeProcess.ts';
import { SseClient, withServedChain } from '../../../helpers/streamClients.ts';

/** A raw HTTP client that sends the request and then reads nothing until told to. */
function stalledClient(url: string, path: string): Promise<{ socket: Socket; text: () => string; ended: Promise<void> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n`);
      socket.pause();
      resolve({ socket, text: () => text, ended });
    });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    const ended = new Promise<void>((r) => socket.on('close', () => r()));
  });
}

/** A synthetic accepted transaction whose `tx` event is about `bytes` long. */
function bigTx(i: number, bytes: number): SignedTx {
  return { type: 'TRANSFER', hash: `${i.toString(16).padStart(8, '0')}${'f'.repeat(bytes)}` } as unknown as SignedTx;
}

const limits = { maxBufferedMessages: 64, maxBufferedBytes: 1024 * 1024, slowConsumerGraceMs: 20_000, ssePingMs: 60_000 };

test('a consumer that never reads is disconnected with a final SLOW_CONSUMER error event, and a reading one gets every event', () =>
  withServedChain(async ({ chain, hub, url }) => {
    const stalled = await stalledClient(url, '/api/chain/events');
    const reader = await SseClient.open(`${url}/api/chain/events`);
    try {
      await reader.waitFor((m) => m.event === 'hello');
      await waitFor(async () => (hub.subscriberCount === 2 ? true : undefined));
      // ~25 MB in 64 KB events, more than the kernel's socket buffers can hide.
      let sent = 0;
      for (; sent < 400 && hub.slowConsumerDrops === 0; sent++) {
        chain.node.events$.next({ type: 'tx', tx: bigTx(sent, 64 * 1024) });
        await new Promise((r) => setTimeout(r, 2));
      }
      assert.equal(hub.slowConsumerDrops, 1, 'the stalled consumer was dropped');
      assert.equal(hub.subscriberCount, 1, 'and detached from the feed at once');
      // The reader kept up and was not dropped.
      await waitFor(async () => (reader.named('tx').length === sent ? true : undefined));
      assert.deepEqual(
        reader.named('tx').map((m) => parseInt(m.data.hash.slice(0, 8), 16)),
        Array.from({ length: sent }, (_, i) => i),
      );
      assert.ok(!reader.ended);
      // Once the stalled client reads again it finds the reason, then the end of the stream.
      stalled.socket.resume();
      await stalled.ended;
      assert.match(stalled.text(), /event: error\ndata: \{"error":"consumer too slow[^"]*","code":"SLOW_CONSUMER"\}/);
    } finally {
      stalled.socket.destroy();
      await reader.close();
    }
  }, limits));

test('a slow consumer that does not even read the notice is cut off after the grace period', () =>
  withServedChain(
    async ({ chain, hub, server, url }) => {
      const stalled = await stalledClient(url, '/api/chain/events');
      const connections = () => new Promise<number>((r) => server.getConnections((_, n) => r(n)));
      try {
        await waitFor(async () => (hub.subscriberCount === 1 ? true : undefined));
        assert.equal(await connections(), 1);
        for (let i = 0; i < 400 && hub.slowConsumerDrops === 0; i++) {
          chain.node.events$.next({ type: 'tx', tx: bigTx(i, 64 * 1024) });
          await new Promise((r) => setTimeout(r, 1));
        }
        assert.equal(hub.slowConsumerDrops, 1);
        // The server destroys its end although the client has not read a byte of the notice.
        await waitFor(async () => ((await connections()) === 0 ? true : undefined));
        stalled.socket.resume();
        await stalled.ended;
      } finally {
        stalled.socket.destroy();
      }
    },
    { ...limits, slowConsumerGraceMs: 100 },
  ));

test('a log replay is paced by the consumer instead of overflowing its buffer', () =>
  withServedChain(
    async ({ chain, url }) => {
      await chain.produce(40);
      const c = await SseClient.open(`${url}/api/chain/events?fromHeight=1`);
      try {
        await c.waitFor((m) => m.event === 'block' && m.data.index === 40);
        assert.deepEqual(
          c.named('block').map((m) => m.data.index),
          Array.from({ length: 40 }, (_, i) => i + 1),
        );
        assert.equal(c.named('error').length, 0);
      } finally {
        await c.close();
      }
    },
    { maxBufferedMessages: 4 },
  ));
