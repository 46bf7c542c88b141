/** /api/ws over a real WebSocket: every channel, ping, errors that keep the connection, limits, heartbeat, slow consumers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import type { SignedTx } from '../../../../core/tx/handler.ts';
import { waitFor } from '../../../helpers/nodeProcess.ts';
import { syntheticBlock, WsClient, withServedChain } from '../../../helpers/streamClients.ts';
import { DEV_KEYS } from '../../../helpers/testChain.ts';

const RUN = 'a1'.repeat(32);

test('subscribe to blocks is acknowledged, then every new block arrives as {type: block, data: <the block>}', () =>
  withServedChain(async ({ chain, wsUrl }) => {
    const c = await WsClient.open(`${wsUrl}/api/ws`);
    try {
      assert.deepEqual(await c.request({ action: 'subscribe', channel: 'blocks' }), { type: 'subscribed', channel: 'blocks' });
      await chain.node.submitTx(chain.transfer(1, DEV_KEYS[2].address, 5n));
      await chain.produce(1);
      const m = await c.waitFor((x) => x.type === 'block');
      assert.deepEqual(m, { type: 'block', data: chain.node.head() });
    } finally {
      c.close();
    }
  }));

test('txs carries {type: tx, data: {type, hash, from, to, amount, fee, nonce, timestamp}} per accepted transaction', () =>
  withServedChain(async ({ chain, wsUrl }) => {
    const c = await WsClient.open(`${wsUrl}/api/ws`);
    try {
      await c.request({ action: 'subscribe', channel: 'txs' });
      const tx = await chain.node.submitTx(chain.transfer(1, DEV_KEYS[2].address, 5n));
      const m = await c.waitFor((x) => x.type === 'tx');
      const t = tx as SignedTx & { to: string; amount: string; fee: string };
      assert.deepEqual(m.data, {
        type: 'TRANSFER',
        hash: tx.hash,
        from: tx.from,
        to: t.to,
        amount: t.amount,
        fee: t.fee,
        nonce: tx.nonce,
        timestamp: tx.timestamp,
      });
    } finally {
      c.close();
    }
  }));

test('mempool sends {type: mempool, data: {total, ts}} at once and then periodically', () =>
  withServedChain(
    async ({ chain, wsUrl }) => {
      const c = await WsClient.open(`${wsUrl}/api/ws`);
      try {
        await c.request({ action: 'subscribe', channel: 'mempool' });
        const first = await c.waitFor((x) => x.type === 'mempool');
        assert.deepEqual(Object.keys(first.data).sort(), ['total', 'ts']);
        assert.equal(first.data.total, 0);
        await chain.node.submitTx(chain.transfer(1, DEV_KEYS[2].address, 5n));
        await c.waitFor((x) => x.type === 'mempool' && x.data.total === 1);
      } finally {
        c.close();
      }
    },
    { mempoolSnapshotMs: 40 },
  ));

test('agent turns AGENT_CLAIM, AGENT_STEP and AGENT_FINISH of a new block into claimed, step and finished updates', () =>
  withServedChain(async ({ chain, wsUrl }) => {
    const c = await WsClient.open(`${wsUrl}/api/ws`);
    try {
      await c.request({ action: 'subscribe', channel: 'agent' });
      const ev = syntheticBlock(chain, [
        { type: 'TRANSFER', to: DEV_KEYS[1].address, amount: '1', fee: '1' },
        { type: 'AGENT_CLAIM', agentRunId: RUN, modelInfo: 'llama-3-8b', hardwareTier: 'gpu-a', fee: '1' },
        { type: 'AGENT_STEP', agentRunId: RUN, stepIndex: 0, outputTokens: 12, outputHash: 'd'.repeat(64), toolCalls: [], fee: '1' },
        { type: 'AGENT_FINISH', agentRunId: RUN, outcome: 'completed', finalAnswerInline: '42', totalTokensOut: 12, fee: '1' },
      ]);
      chain.node.events$.next(ev);
      await c.waitFor((x) => x.type === 'agent' && x.data.event === 'finished');
      const agent = c.messages.filter((x) => x.type === 'agent');
      const common = (i: number) => ({
        agentRunId: RUN,
        blockIndex: ev.block.index,
        txHash: ev.block.transactions[i].hash,
        miner: DEV_KEYS[3].address,
        timestamp: ev.block.transactions[i].timestamp,
      });
      assert.deepEqual(agent, [
        { type: 'agent', data: { event: 'claimed', ...common(1), modelInfo: 'llama-3-8b', hardwareTier: 'gpu-a' } },
        { type: 'agent', data: { event: 'step', ...common(2), stepIndex: 0, outputTokens: 12, outputHash: 'd'.repeat(64), toolCalls: [] } },
        { type: 'agent', data: { event: 'finished', ...common(3), outcome: 'completed', totalTokensOut: 12, finalAnswerInline: '42' } },
      ]);
    } finally {
      c.close();
    }
  }));

test('chat turns each CHAT_TURN of a new block into {type: chat, data: the turn}', () =>
  withServedChain(async ({ chain, wsUrl }) => {
    const c = await WsClient.open(`${wsUrl}/api/ws`);
    try {
      await c.request({ action: 'subscribe', channel: 'chat' });
      const ev = syntheticBlock(chain, [
        { type: 'CHAT_TURN', conversationId: 'e'.repeat(64), role: 'user', content: 'hello there', agentRunId: RUN, fee: '1' },
      ]);
      chain.node.events$.next(ev);
      const m = await c.waitFor((x) => x.type === 'chat');
      const tx = ev.block.transactions[0];
      assert.deepEqual(m.data, {
        hash: tx.hash,
        from: tx.from,
        conversationId: 'e'.repeat(64),
        role: 'user',
        content: 'hello there',
        agentRunId: RUN,
        timestamp: tx.timestamp,
        blockIndex: ev.block.index,
      });
    } finally {
      c.close();
    }
  }));

test('a reorganisation reaches blocks subscribers as {type: reorg, data}', () =>
  withServedChain(async ({ chain, wsUrl }) => {
    const c = await WsClient.open(`${wsUrl}/api/ws`);
    try {
      await c.request({ action: 'subscribe', channel: 'blocks' });
      const reorg = {
        fromHeight: 1,
        oldHead: { index: 2, hash: 'a'.repeat(64) },
        newHead: { index: 2, hash: 'b'.repeat(64) },
        dropped: ['c'.repeat(64), 'a'.repeat(64)],
      };
      chain.node.events$.next({ type: 'reorg', ...reorg });
      assert.deepEqual(await c.waitFor((x) => x.type === 'reorg'), { type: 'reorg', data: reorg });
    } finally {
      c.close();
    }
  }));

test('unsubscribe is acknowledged and stops the channel; ping is answered with pong', () =>
  withServedChain(async ({ chain, wsUrl }) => {
    const c = await WsClient.open(`${wsUrl}/api/ws`);
    try {
      await c.request({ action: 'subscribe', channel: 'blocks' });
      assert.deepEqual(await c.request({ action: 'unsubscribe', channel: 'blocks' }), { type: 'unsubscribed', channel: 'blocks' });
      await chain.produce(2);
      const pong = await c.request({ action: 'ping' });
      assert.equal(pong.type, 'pong');
      assert.ok(Math.abs(pong.ts - Date.now()) < 60_000);
      assert.equal(c.messages.filter((x) => x.type === 'block').length, 0, 'messages are in order, so none can come after the pong');
    } finally {
      c.close();
    }
  }));

test('invalid messages get {type: error, error, code} and the connection stays usable', () =>
  withServedChain(async ({ wsUrl }) => {
    const c = await WsClient.open(`${wsUrl}/api/ws`);
    try {
      const cases: [unknown, string][] = [
        ['{not json', 'INVALID_JSON'],
        ['[1,2]', 'INVALID_PARAMS'],
        ['"subscribe"', 'INVALID_PARAMS'],
        [{ action: 'dance' }, 'INVALID_PARAMS'],
        [{ action: 'subscribe' }, 'INVALID_PARAMS'],
        [{ action: 'subscribe', channel: 'everything' }, 'INVALID_PARAMS'],
        [{ action: 'subscribe', channel: 42 }, 'INVALID_PARAMS'],
      ];
      for (const [msg, code] of cases) {
        const m = await c.request(msg);
        assert.deepEqual(Object.keys(m).sort(), ['code', 'error', 'type'], JSON.stringify(msg));
        assert.deepEqual([m.type, m.code], ['error', code], JSON.stringify(msg));
        assert.ok(m.error.length > 0);
      }
      const at = c.messages.length;
      c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      assert.equal((await c.waitFor(() => true, at)).code, 'INVALID_PARAMS');
      assert.deepEqual(await c.request({ action: 'subscribe', channel: 'txs' }), { type: 'subscribed', channel: 'txs' });
    } finally {
      c.close();
    }
  }));

test('a message larger than wsMaxPayload closes the connection with 1009', () =>
  withServedChain(
    async ({ wsUrl }) => {
      const c = await WsClient.open(`${wsUrl}/api/ws`);
      c.send(JSON.stringify({ action: 'ping', pad: 'x'.repeat(2048) }));
      assert.equal((await c.closed()).code, 1009);
    },
    { wsMaxPayload: 1024 },
  ));

test('the server pings and drops a peer that stops answering, while a live one stays', () =>
  withServedChain(
    async ({ wsUrl, sockets, hub }) => {
      const live = await WsClient.open(`${wsUrl}/api/ws`);
      const dead = await WsClient.open(`${wsUrl}/api/ws`, { autoPong: false });
      let pings = 0;
      live.ws.on('ping', () => pings++);
      try {
        await dead.closed();
        await waitFor(async () => (pings >= 3 ? true : undefined));
        assert.equal(live.ws.readyState, WebSocket.OPEN);
        assert.equal(sockets.sessions.size, 1);
        assert.equal(hub.subscriberCount, 1);
      } finally {
        live.close();
      }
    },
    { wsPingMs: 40 },
  ));

test('a consumer that stops reading is closed with 1008 SLOW_CONSUMER; a reading one is not slowed', () =>
  withServedChain(
    async ({ chain, wsUrl, hub }) => {
      const slow = await WsClient.open(`${wsUrl}/api/ws`);
      const fast = await WsClient.open(`${wsUrl}/api/ws`);
      try {
        await slow.request({ action: 'subscribe', channel: 'txs' });
        await fast.request({ action: 'subscribe', channel: 'txs' });
        slow.ws.pause();
        let sent = 0;
        for (; sent < 400 && hub.slowConsumerDrops === 0; sent++) {
          chain.node.events$.next({
            type: 'tx',
            tx: {
              type: 'TRANSFER',
              hash: `${sent}`.padStart(8, '0') + 'f'.repeat(64 * 1024),
              from: 'ox',
              nonce: 0,
              timestamp: 0,
            } as unknown as SignedTx,
          });
          await new Promise((r) => setTimeout(r, 2));
        }
        assert.equal(hub.slowConsumerDrops, 1);
        await waitFor(async () => (fast.messages.filter((m) => m.type === 'tx').length === sent ? true : undefined));
        assert.equal(fast.ws.readyState, WebSocket.OPEN);
        slow.ws.resume();
        const closed = await slow.closed();
        assert.equal(closed.code, 1008);
        assert.match(closed.reason, /^SLOW_CONSUMER/);
      } finally {
        slow.close();
        fast.close();
      }
    },
    { maxBufferedMessages: 64, maxBufferedBytes: 1024 * 1024, slowConsumerGraceMs: 20_000 },
  ));

test('a closed connection is detached from the feed; an unknown WebSocket path is refused with 404', () =>
  withServedChain(async ({ wsUrl, hub }) => {
    const before = hub.subscriberCount;
    const cs = await Promise.all([1, 2].map(() => WsClient.open(`${wsUrl}/api/ws`)));
    const old = await WsClient.open(`${wsUrl}/ws`);
    assert.equal(hub.subscriberCount, before + 3);
    for (const c of [...cs, old]) c.ws.close();
    await waitFor(async () => (hub.subscriberCount === before ? true : undefined));
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${wsUrl}/api/nope`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => undefined);
    });
    assert.equal(status, 404);
  }));
