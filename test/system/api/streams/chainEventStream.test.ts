/** GET /api/chain/events over real HTTP: hello, block, tx, ping, retry, resume without gap or duplicate, reorg, detach. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SseClient, withServedChain } from '../../../helpers/streamClients.ts';
import { waitFor } from '../../../helpers/nodeProcess.ts';
import { DEV_KEYS } from '../../../helpers/testChain.ts';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const heights = (c: SseClient) => c.named('block').map((m) => m.data.index);

test('a new client gets the retry hint and hello with the height and the latest block hash', () =>
  withServedChain(async ({ chain, url }) => {
    await chain.produce(2);
    const c = await SseClient.open(`${url}/api/chain/events`);
    try {
      const hello = await c.waitFor((m) => m.event === 'hello');
      assert.deepEqual(hello.data, { height: 2, latestBlockHash: chain.node.head().hash });
      assert.equal(hello.id, `2:${chain.node.head().hash}`, 'hello carries the height and hash the client is up to date with');
      assert.equal(c.retry, 1000);
    } finally {
      await c.close();
    }
  }));

test('every new block is a block event with its height and hash as id and index, hash, timestamp, proposer, transactions', () =>
  withServedChain(async ({ chain, url }) => {
    const c = await SseClient.open(`${url}/api/chain/events`);
    try {
      await c.waitFor((m) => m.event === 'hello');
      const tx = await chain.node.submitTx(chain.transfer(1, DEV_KEYS[2].address, 5n));
      await chain.produce(1);
      const block = await c.waitFor((m) => m.event === 'block');
      const head = chain.node.head();
      assert.equal(block.id, `1:${head.hash}`);
      assert.deepEqual(Object.keys(block.data).sort(), ['hash', 'index', 'proposer', 'timestamp', 'transactions']);
      assert.deepEqual(block.data, {
        index: 1,
        hash: head.hash,
        timestamp: head.timestamp,
        proposer: head.proposer,
        transactions: head.transactions,
      });
      assert.equal(block.data.transactions[0].hash, tx.hash);
    } finally {
      await c.close();
    }
  }));

test('an accepted transaction is a tx event {type: tx, txType, hash} without an id', () =>
  withServedChain(async ({ chain, url }) => {
    const c = await SseClient.open(`${url}/api/chain/events`);
    try {
      await c.waitFor((m) => m.event === 'hello');
      const tx = await chain.node.submitTx(chain.transfer(1, DEV_KEYS[2].address, 5n));
      const ev = await c.waitFor((m) => m.event === 'tx');
      assert.deepEqual(ev.data, { type: 'tx', txType: 'TRANSFER', hash: tx.hash });
      assert.equal(ev.id, undefined);
    } finally {
      await c.close();
    }
  }));

test('a ping {ts} arrives every ping interval while the stream is idle', () =>
  withServedChain(
    async ({ url }) => {
      const c = await SseClient.open(`${url}/api/chain/events`);
      try {
        await waitFor(async () => (c.named('ping').length >= 2 ? true : undefined), 10_000, 10);
        const ping = c.named('ping')[0];
        assert.deepEqual(Object.keys(ping.data), ['ts']);
        assert.ok(Math.abs(ping.data.ts - Date.now()) < 60_000);
      } finally {
        await c.close();
      }
    },
    { ssePingMs: 40 },
  ));

test('a client reconnecting with Last-Event-ID gets every missed block from the log, then live ones, with no gap and no duplicate', () =>
  withServedChain(async ({ chain, url }) => {
    const first = await SseClient.open(`${url}/api/chain/events`);
    await chain.produce(3);
    await first.waitFor((m) => m.event === 'block' && m.data.index === 3);
    await first.close();
    await chain.produce(4);
    // Blocks keep coming while the client reconnects: the log/live hand-over races on purpose.
    const producing = chain.produce(6);
    const again = await SseClient.open(`${url}/api/chain/events`, { 'Last-Event-ID': '3' });
    try {
      await producing;
      await chain.produce(2);
      const head = chain.node.head().index;
      await again.waitFor((m) => m.event === 'block' && m.data.index === head);
      assert.deepEqual(heights(first), [1, 2, 3]);
      assert.deepEqual(heights(again), range(4, head));
      assert.deepEqual(
        again.named('block').map((m) => m.id),
        again.named('block').map((m) => `${m.data.index}:${m.data.hash}`),
      );
    } finally {
      await again.close();
    }
  }));

test('?fromHeight=N replays from height N, and Last-Event-ID wins over it on a reconnect', () =>
  withServedChain(async ({ chain, url }) => {
    await chain.produce(5);
    const c = await SseClient.open(`${url}/api/chain/events?fromHeight=2`);
    const d = await SseClient.open(`${url}/api/chain/events?fromHeight=2`, { 'Last-Event-ID': '4' });
    try {
      await chain.produce(1);
      await c.waitFor((m) => m.event === 'block' && m.data.index === 6);
      await d.waitFor((m) => m.event === 'block' && m.data.index === 6);
      assert.deepEqual(heights(c), range(2, 6));
      assert.deepEqual(heights(d), [5, 6]);
      assert.equal(c.named('hello')[0].id, '1', 'hello says the client holds everything below fromHeight');
    } finally {
      await c.close();
      await d.close();
    }
  }));

test('a resume point past the head (a client failing over from a node further ahead) gets no block twice; fromHeight=0 includes the genesis block', () =>
  withServedChain(async ({ chain, url }) => {
    await chain.produce(2);
    const failedOver = await SseClient.open(`${url}/api/chain/events`, { 'Last-Event-ID': '4' });
    const all = await SseClient.open(`${url}/api/chain/events?fromHeight=0`);
    try {
      assert.equal((await failedOver.waitFor((m) => m.event === 'hello')).id, '4', 'hello keeps the client at the height it holds');
      await chain.produce(3);
      await failedOver.waitFor((m) => m.event === 'block');
      await all.waitFor((m) => m.event === 'block' && m.data.index === 5);
      assert.deepEqual(heights(failedOver), [5]);
      assert.deepEqual(heights(all), [0, 1, 2, 3, 4, 5]);
      assert.equal(all.named('hello')[0].id, undefined);
    } finally {
      await failedOver.close();
      await all.close();
    }
  }));

test('a resume point more than maxResumeBlocks past the head cannot be this chain and resumes at the head', () =>
  withServedChain(
    async ({ chain, url }) => {
      await chain.produce(2);
      const foreign = await SseClient.open(`${url}/api/chain/events?fromHeight=99`);
      try {
        assert.equal((await foreign.waitFor((m) => m.event === 'hello')).id, `2:${chain.node.head().hash}`);
        await chain.produce(1);
        await foreign.waitFor((m) => m.event === 'block');
        assert.deepEqual(heights(foreign), [3]);
      } finally {
        await foreign.close();
      }
    },
    { maxResumeBlocks: 3 },
  ));

test('a malformed fromHeight or one further back than maxResumeBlocks is 400 INVALID_PARAMS; a foreign Last-Event-ID is ignored', () =>
  withServedChain(
    async ({ chain, url }) => {
      await chain.produce(5);
      for (const q of ['-1', 'abc', '1.5', '']) {
        const c = await SseClient.open(`${url}/api/chain/events?fromHeight=${q}`);
        assert.equal(c.status, 400, `fromHeight=${q}`);
        assert.equal(c.messages[0].data.code, 'INVALID_PARAMS');
      }
      const far = await SseClient.open(`${url}/api/chain/events?fromHeight=1`);
      assert.equal(far.status, 400);
      assert.match(far.messages[0].data.error, /more than 3 blocks behind/);
      const foreign = await SseClient.open(`${url}/api/chain/events`, { 'Last-Event-ID': 'not-a-height' });
      try {
        assert.equal(foreign.status, 200);
        assert.equal((await foreign.waitFor((m) => m.event === 'hello')).data.height, 5);
      } finally {
        await foreign.close();
      }
    },
    { maxResumeBlocks: 3 },
  ));

test('a reorganisation is its own event (id = common ancestor), followed by the new branch from the log', () =>
  withServedChain(async ({ chain, url }) => {
    await chain.produce(5);
    const c = await SseClient.open(`${url}/api/chain/events`);
    try {
      await c.waitFor((m) => m.event === 'hello');
      const head = chain.node.head();
      const dropped = [(await chain.node.store.block(3))!.hash, (await chain.node.store.block(4))!.hash, head.hash];
      const ancestor = (await chain.node.store.block(2))!.hash;
      chain.node.events$.next({
        type: 'reorg',
        fromHeight: 3,
        oldHead: { index: 5, hash: 'ab'.repeat(32) },
        newHead: { index: 5, hash: head.hash },
        dropped,
        ancestorHash: ancestor,
      });
      await c.waitFor((m) => m.event === 'block' && m.data.index === 5);
      const reorg = c.named('reorg')[0];
      assert.equal(reorg.id, `2:${ancestor}`);
      assert.deepEqual(reorg.data, {
        fromHeight: 3,
        oldHead: { index: 5, hash: 'ab'.repeat(32) },
        newHead: { index: 5, hash: head.hash },
        dropped,
      });
      await chain.produce(1);
      await c.waitFor((m) => m.event === 'block' && m.data.index === 6);
      assert.deepEqual(heights(c), [3, 4, 5, 6]);
      assert.ok(c.messages.findIndex((m) => m.event === 'reorg') < c.messages.findIndex((m) => m.event === 'block'));
    } finally {
      await c.close();
    }
  }));

test('a client that disconnects is detached from the feed: the subscriber count returns to its previous value', () =>
  withServedChain(async ({ url, hub, chain }) => {
    const before = hub.subscriberCount;
    const clients = await Promise.all([1, 2, 3].map(() => SseClient.open(`${url}/api/chain/events`)));
    const mempool = await SseClient.open(`${url}/api/mempool/events`);
    await Promise.all([...clients, mempool].map((c) => c.waitFor((m) => m.event === 'hello')));
    assert.equal(hub.subscriberCount, before + 4);
    await Promise.all([...clients, mempool].map((c) => c.close()));
    await waitFor(async () => (hub.subscriberCount === before ? true : undefined), 5_000, 10);
    await chain.produce(1);
    assert.equal(hub.subscriberCount, before);
  }));

test('the stream ends when the node closes its feed', () =>
  withServedChain(async ({ chain, url }) => {
    const c = await SseClient.open(`${url}/api/chain/events`);
    await c.waitFor((m) => m.event === 'hello');
    chain.node.events$.complete();
    await waitFor(async () => (c.ended ? true : undefined), 5_000, 10);
  }));
