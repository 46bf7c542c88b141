/** GET /api/health: liveness for operators and load balancers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.ts';
import { noNetwork } from '../../../api/context.ts';
import { openTestChain, testApiDeps } from '../../helpers/testChain.ts';
import { assertKeys, get, withChain } from '../../helpers/apiSupport.ts';

test('a serving node answers 200 {status: "ok", height, peers, syncing}', () =>
  withChain(async (c) => {
    const res = await get(c, '/api/health');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', height: 0, peers: 0, syncing: false });
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  }));

test('height follows the head and the trailing slash is optional', () =>
  withChain(async (c) => {
    await c.produce(3);
    const res = await get(c, '/api/health/');
    assert.equal(res.status, 200);
    assertKeys(res.body, ['status', 'height', 'peers', 'syncing']);
    assert.equal(res.body.height, 3);
    assert.equal(typeof res.body.height, 'number');
  }));

test('peers and syncing come from the network view', () =>
  withChain(
    async (c) => {
      assert.deepEqual((await get(c, '/api/health')).body, { status: 'ok', height: 0, peers: 4, syncing: true });
    },
    { network: { ...noNetwork, peerCount: () => 4, syncing: () => true } },
  ));

/** Makes the node's block log refuse writes (a full or failing disk) until the returned undo is called. */
function failWrites(c: { node: { store: { appendMany: (...a: never[]) => Promise<unknown> } } }): () => void {
  const store = c.node.store;
  const real = store.appendMany;
  store.appendMany = async () => {
    throw new Error('simulated write failure: no space left on device');
  };
  return () => {
    store.appendMany = real;
  };
}

test('production failing 3 times in a row answers 503 {status: "degraded", reason} until a block lands', () =>
  withChain(async (c) => {
    await c.produce(1);
    const undo = failWrites(c);
    for (let i = 1; i <= 3; i++) {
      await c.produce(1).then(
        () => assert.fail('production should fail'),
        () => undefined,
      );
      const res = await get(c, '/api/health');
      if (i < 3) assert.equal(res.status, 200, `after ${i} failure(s)`);
      else {
        assert.equal(res.status, 503);
        assertKeys(res.body, ['status', 'reason']);
        assert.equal(res.body.status, 'degraded');
        assert.match(res.body.reason, /^block production failed 3 times in a row \(last success \d{4}-.*\): simulated write failure/);
      }
    }
    undo();
    await c.produce(1);
    const res = await get(c, '/api/health');
    assert.equal(res.status, 200);
    assert.equal(res.body.height, 2);
  }));

test('import failing on the node’s own storage degrades health; blocks refused on their merits do not', async () => {
  const source = await openTestChain();
  const c = await openTestChain();
  try {
    await source.produce(1);
    const block = await source.node.readPorts().blocks.block(1);
    for (let i = 0; i < 5; i++) await c.node.importBlock({ junk: i }).catch(() => undefined);
    assert.equal((await get(c, '/api/health')).status, 200, 'invalid peer blocks are the peer’s fault');
    const undo = failWrites(c);
    for (let i = 0; i < 3; i++) await c.node.importBlock(block).catch(() => undefined);
    const res = await get(c, '/api/health');
    assert.equal(res.status, 503);
    assert.match(res.body.reason, /^block import failed 3 times in a row \(no success since start\)/);
    undo();
    await c.node.importBlock(block);
    assert.equal((await get(c, '/api/health')).status, 200);
  } finally {
    await source.destroy();
    await c.destroy();
  }
});

test('a node more than 8 blocks below the best head its peers showed answers 503 {status: "behind", height, networkHeight}', () => {
  let networkHeight: number | null = null;
  return withChain(
    async (c) => {
      assert.equal((await get(c, '/api/health')).status, 200, 'no peer showed a head: nothing to be behind');
      networkHeight = 8;
      assert.deepEqual(
        (await get(c, '/api/health')).body,
        { status: 'ok', height: 0, peers: 1, syncing: false },
        '8 behind is within the lag',
      );
      networkHeight = 9;
      const behind = await get(c, '/api/health');
      assert.equal(behind.status, 503);
      assert.deepEqual(behind.body, { status: 'behind', height: 0, networkHeight: 9 });
      await c.produce(1);
      const caughtUp = await get(c, '/api/health');
      assert.equal(caughtUp.status, 200, 'back in rotation once within the lag');
      assert.equal(caughtUp.body.height, 1);
    },
    { network: { ...noNetwork, peerCount: () => 1, networkHeight: () => networkHeight } },
  );
});

test('the lag allowed is the maxLagBlocks option: 0 drains a node one block behind', () =>
  withChain(async (c) => {
    const app = createApp(testApiDeps(c.node, { network: { ...noNetwork, networkHeight: () => 1 } }), { maxLagBlocks: 0 });
    const res = await app.request('/api/health');
    assert.equal(res.status, 503);
    assert.deepEqual(await res.json(), { status: 'behind', height: 0, networkHeight: 1 });
    await c.produce(1);
    assert.equal((await app.request('/api/health')).status, 200);
  }));
