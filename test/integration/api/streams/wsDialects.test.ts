/** The older /ws: {type: subscribe, topic} with new_block, new_tx, address:<addr> and task:<taskId>. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syntheticBlock, WsClient, withServedChain } from '../../../helpers/streamClients.ts';
import { DEV_KEYS } from '../../../helpers/testChain.ts';

test('new_block and new_tx carry the block and the transaction summary', () =>
  withServedChain(async ({ chain, wsUrl }) => {
    const c = await WsClient.open(`${wsUrl}/ws`);
    try {
      assert.deepEqual(await c.request({ type: 'subscribe', topic: 'new_block' }), { type: 'subscribed', topic: 'new_block' });
      assert.deepEqual(await c.request({ type: 'subscribe', topic: 'new_tx' }), { type: 'subscribed', topic: 'new_tx' });
      const tx = await chain.node.submitTx(chain.transfer(1, DEV_KEYS[2].address, 5n));
      const m = await c.waitFor((x) => x.type === 'new_tx');
      assert.deepEqual([m.data.type, m.data.hash, m.data.from, m.data.amount], ['TRANSFER', tx.hash, DEV_KEYS[1].address, '5']);
      await chain.produce(1);
      assert.deepEqual(await c.waitFor((x) => x.type === 'new_block'), { type: 'new_block', data: chain.node.head() });
    } finally {
      c.close();
    }
  }));

test('address:<addr> (any case) gets transactions naming that address, pending then confirmed, and no others', () =>
  withServedChain(async ({ chain, wsUrl }) => {
    const c = await WsClient.open(`${wsUrl}/ws`);
    try {
      const addr = DEV_KEYS[2].address;
      const topic = `address:${addr}`;
      assert.deepEqual(await c.request({ type: 'subscribe', topic: `address:${addr.slice(0, 2)}${addr.slice(2).toUpperCase()}` }), {
        type: 'subscribed',
        topic,
      });
      await chain.node.submitTx(chain.transfer(3, DEV_KEYS[4].address, 7n));
      const tx = await chain.node.submitTx(chain.transfer(1, addr, 5n));
      const pending = await c.waitFor((x) => x.type === 'address_tx');
      assert.equal(pending.topic, topic);
      assert.deepEqual([pending.data.hash, pending.data.status, pending.data.to], [tx.hash, 'pending', addr]);
      await chain.produce(1);
      const confirmed = await c.waitFor((x) => x.type === 'address_tx' && x.data.status === 'confirmed');
      assert.deepEqual([confirmed.data.hash, confirmed.data.blockIndex], [tx.hash, 1]);
      const pong = await c.request({ type: 'ping' });
      assert.equal(pong.type, 'pong');
      assert.equal(c.messages.filter((x) => x.type === 'address_tx').length, 2, 'the transfer between others was not sent');
    } finally {
      c.close();
    }
  }));

test('task:<taskId> gets block transactions of that task, a TASK_SUBMIT without taskId by its derived id', () =>
  withServedChain(async ({ chain, wsUrl }) => {
    const c = await WsClient.open(`${wsUrl}/ws`);
    try {
      const ev = syntheticBlock(chain, [
        { type: 'TASK_SUBMIT', prompt: 'p', fee: '1' },
        { type: 'TASK_RESPONSE', taskId: 'task-0001', fee: '1' },
        { type: 'TASK_RESPONSE', taskId: 'task-0002', fee: '1' },
      ]);
      const derived = ev.block.transactions[0].hash.slice(0, 32);
      await c.request({ type: 'subscribe', topic: 'task:task-0001' });
      await c.request({ type: 'subscribe', topic: `task:${derived}` });
      chain.node.events$.next(ev);
      await c.waitFor((x) => x.type === 'task_tx' && x.topic === `task:${derived}`);
      await c.waitFor((x) => x.type === 'task_tx' && x.topic === 'task:task-0001');
      const tasks = c.messages.filter((x) => x.type === 'task_tx');
      assert.deepEqual(
        tasks.map((x) => [x.data.taskId, x.data.hash, x.data.blockIndex, x.data.status]).sort(),
        [
          [derived, ev.block.transactions[0].hash, ev.block.index, 'confirmed'],
          ['task-0001', ev.block.transactions[1].hash, ev.block.index, 'confirmed'],
        ].sort(),
      );
    } finally {
      c.close();
    }
  }));

test('bad topics, unknown types and too many topics are errors; unsubscribe is acknowledged', () =>
  withServedChain(
    async ({ wsUrl }) => {
      const c = await WsClient.open(`${wsUrl}/ws`);
      try {
        for (const msg of [
          { type: 'subscribe', topic: 'address:oxnothex' },
          { type: 'subscribe', topic: 'blocks' },
          { type: 'jump' },
          { topic: 'new_tx' },
          { type: 'subscribe' },
        ]) {
          const m = await c.request(msg);
          assert.deepEqual([m.type, m.code], ['error', 'INVALID_PARAMS'], JSON.stringify(msg));
        }
        await c.request({ type: 'subscribe', topic: 'new_tx' });
        await c.request({ type: 'subscribe', topic: 'new_block' });
        const third = await c.request({ type: 'subscribe', topic: 'task:abc' });
        assert.deepEqual([third.type, third.code], ['error', 'INVALID_PARAMS']);
        assert.match(third.error, /at most 2/);
        assert.deepEqual(await c.request({ type: 'unsubscribe', topic: 'new_tx' }), { type: 'unsubscribed', topic: 'new_tx' });
        assert.deepEqual(await c.request({ type: 'subscribe', topic: 'task:abc' }), { type: 'subscribed', topic: 'task:abc' });
      } finally {
        c.close();
      }
    },
    { wsMaxTopics: 2 },
  ));
