/** GET /api/mempool/events over real HTTP: hello {total}, then snapshot {total, ts} every interval. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SseClient, withServedChain } from '../../../helpers/streamClients.ts';
import { DEV_KEYS } from '../../../helpers/testChain.ts';

test('hello carries the mempool size, then snapshots {total, ts} follow it as it changes', () =>
  withServedChain(
    async ({ chain, url }) => {
      await chain.node.submitTx(chain.transfer(1, DEV_KEYS[2].address, 5n));
      const c = await SseClient.open(`${url}/api/mempool/events`);
      try {
        assert.deepEqual((await c.waitFor((m) => m.event === 'hello')).data, { total: 1 });
        const first = await c.waitFor((m) => m.event === 'snapshot');
        assert.deepEqual(Object.keys(first.data).sort(), ['total', 'ts']);
        assert.equal(first.data.total, 1);
        await chain.node.submitTx(chain.transfer(1, DEV_KEYS[2].address, 6n));
        await c.waitFor((m) => m.event === 'snapshot' && m.data.total === 2);
        await chain.produce(1);
        await c.waitFor((m) => m.event === 'snapshot' && m.data.total === 0);
        assert.equal(c.retry, 1000);
      } finally {
        await c.close();
      }
    },
    { mempoolSnapshotMs: 40 },
  ));

test('the mempool stream carries no chain events', () =>
  withServedChain(
    async ({ chain, url }) => {
      const c = await SseClient.open(`${url}/api/mempool/events`);
      try {
        await chain.node.submitTx(chain.transfer(1, DEV_KEYS[2].address, 5n));
        await chain.produce(1);
        await c.waitFor((m) => m.event === 'snapshot' && m.data.total === 0);
        assert.deepEqual([...new Set(c.messages.map((m) => m.event))].sort(), ['hello', 'snapshot']);
      } finally {
        await c.close();
      }
    },
    { mempoolSnapshotMs: 40 },
  ));
