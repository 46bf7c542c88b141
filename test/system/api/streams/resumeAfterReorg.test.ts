/**
 * GET /api/chain/events resumed from a block the node has since replaced: the client names its
 * last block by height and hash (the frame's id), and is told of the switch with a `reorg` naming
 * its dropped blocks, even when the node restarted between the switch and the resume.
 */
import { serve, type ServerType } from '@hono/node-server';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../../api/app.ts';
import { StreamHub } from '../../../../api/streams/streamHub.ts';
import { attachWebSockets } from '../../../../api/streams/wsServer.ts';
import { SseClient, WsClient } from '../../../helpers/streamClients.ts';
import { DEV_KEYS, openTestChain, testApiDeps, type TestChain } from '../../../helpers/testChain.ts';

/** Serves `chain` over loopback HTTP (SSE and WebSocket) until the returned stop is called. */
async function served(chain: TestChain): Promise<{ url: string; wsUrl: string; stop: () => Promise<void> }> {
  const hub = new StreamHub(chain.node.streamPorts());
  const app = createApp(testApiDeps(chain.node, { streams: hub }));
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const sockets = attachWebSockets(server as Server, hub);
  const port = (server.address() as AddressInfo).port;
  const stop = async () => {
    await sockets.close();
    await new Promise<void>((r) => {
      server.close(() => r());
      (server as Server).closeAllConnections();
    });
  };
  return { url: `http://127.0.0.1:${port}/api/chain/events`, wsUrl: `ws://127.0.0.1:${port}/api/ws`, stop };
}

const wsBlocks = (c: WsClient) => c.messages.filter((m) => m.type === 'block').map((m) => m.data.index);

const heights = (c: SseClient) => c.named('block').map((m) => m.data.index);

test('a client resuming from a block replaced while the node restarted gets a reorg naming its dropped blocks, then the new branch', async () => {
  const a = await openTestChain();
  const b = await openTestChain();
  let reopened: TestChain | null = null;
  try {
    await a.node.submitTx(a.transfer(1, DEV_KEYS[2].address, 7n));
    await a.produce(3);
    await b.produce(4);
    const ours = await a.node.store.blocksIn(1, 3);
    // The client follows a up to its head and keeps the last id it was sent.
    const first = await served(a);
    let last: string | undefined;
    const c = await SseClient.open(`${first.url}?fromHeight=1`);
    try {
      await c.waitFor((m) => m.event === 'block' && m.data.index === 3);
      last = c.named('block').at(-1)?.id;
    } finally {
      await c.close();
      await first.stop();
    }
    assert.equal(last, `3:${ours[2].hash}`, 'a block frame names its height and hash');
    // a switches to b's longer branch, then is stopped and opened again on the same data dir.
    a.advance(b.now() - a.now());
    await a.node.reorg(0, await b.node.store.blocksIn(1, 4));
    await a.close();
    reopened = await openTestChain({ dir: a.dir, clock: a.now() });
    assert.equal(reopened.node.head().hash, b.node.head().hash);
    const second = await served(reopened);
    try {
      const r = await SseClient.open(second.url, { 'Last-Event-ID': String(last) });
      try {
        await r.waitFor((m) => m.event === 'block' && m.data.index === 4);
        const reorg = r.named('reorg');
        assert.equal(reorg.length, 1, 'the resume is told of the switch');
        assert.deepEqual(reorg[0].data, {
          fromHeight: 1,
          oldHead: { index: 3, hash: ours[2].hash },
          newHead: { index: 4, hash: b.node.head().hash },
          dropped: ours.map((x) => x.hash),
        });
        assert.equal(reorg[0].id, `0:${(await reopened.node.store.block(0))?.hash}`, 'its id is the common ancestor');
        assert.deepEqual(heights(r), [1, 2, 3, 4], 'the new branch follows from the common ancestor');
        assert.deepEqual(
          r.named('block').map((m) => m.data.hash),
          (await b.node.store.blocksIn(1, 4)).map((x) => x.hash),
        );
        assert.ok(r.messages.findIndex((m) => m.event === 'reorg') < r.messages.findIndex((m) => m.event === 'block'));
      } finally {
        await r.close();
      }
      // A client whose block is still the chain's resumes after it, with no reorg.
      const head3 = (await reopened.node.store.block(3))?.hash;
      const same = await SseClient.open(second.url, { 'Last-Event-ID': `3:${head3}` });
      try {
        await same.waitFor((m) => m.event === 'block' && m.data.index === 4);
        assert.deepEqual(heights(same), [4]);
        assert.equal(same.named('reorg').length, 0);
      } finally {
        await same.close();
      }
    } finally {
      await second.stop();
    }
  } finally {
    if (reopened) await reopened.destroy();
    else await a.destroy();
    await b.destroy();
  }
});

test('a resume from a block this node never had is told that block was dropped and gets the chain from its height', async () => {
  const a = await openTestChain();
  try {
    await a.produce(4);
    const s = await served(a);
    try {
      const foreign = 'cd'.repeat(32);
      const c = await SseClient.open(s.url, { 'Last-Event-ID': `2:${foreign}` });
      try {
        await c.waitFor((m) => m.event === 'block' && m.data.index === 4);
        assert.deepEqual(c.named('reorg')[0].data, {
          fromHeight: 2,
          oldHead: { index: 2, hash: foreign },
          newHead: { index: 4, hash: a.node.head().hash },
          dropped: [foreign],
        });
        assert.deepEqual(heights(c), [2, 3, 4]);
      } finally {
        await c.close();
      }
    } finally {
      await s.stop();
    }
  } finally {
    await a.destroy();
  }
});

test('a WebSocket subscription to blocks with since (a block the node replaced) gets the reorg, the new branch from the log, then live blocks', async () => {
  const a = await openTestChain();
  const b = await openTestChain();
  try {
    await a.node.submitTx(a.transfer(1, DEV_KEYS[2].address, 7n));
    await a.produce(3);
    await b.produce(4);
    const ours = await a.node.store.blocksIn(1, 3);
    a.advance(b.now() - a.now());
    await a.node.reorg(0, await b.node.store.blocksIn(1, 4));
    const s = await served(a);
    const ws = await WsClient.open(s.wsUrl);
    try {
      ws.send({ action: 'subscribe', channel: 'blocks', since: `3:${ours[2].hash}` });
      await ws.waitFor((m) => m.type === 'block' && m.data.index === 4);
      assert.deepEqual(ws.messages[0], { type: 'subscribed', channel: 'blocks' });
      assert.deepEqual(ws.messages[1], {
        type: 'reorg',
        data: {
          fromHeight: 1,
          oldHead: { index: 3, hash: ours[2].hash },
          newHead: { index: 4, hash: b.node.head().hash },
          dropped: ours.map((x) => x.hash),
        },
      });
      assert.deepEqual(wsBlocks(ws), [1, 2, 3, 4]);
      // Then live, none twice.
      await a.produce(1);
      await ws.waitFor((m) => m.type === 'block' && m.data.index === 5);
      assert.deepEqual(wsBlocks(ws), [1, 2, 3, 4, 5]);
      const bad = await ws.request({ action: 'subscribe', channel: 'txs', since: '3' }, (m) => m.type === 'error');
      assert.equal(bad.code, 'INVALID_PARAMS');
    } finally {
      ws.close();
      await s.stop();
    }
  } finally {
    await a.destroy();
    await b.destroy();
  }
});
