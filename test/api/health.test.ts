/** GET /api/health: liveness for operators and load balancers. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { noNetwork } from '../../api/context.ts';
import { assertKeys, get, withChain } from './support.ts';

const t = suite('GET /api/health');

t('a serving node answers 200 {status: "ok", height, peers, syncing}', () =>
  withChain(async (c) => {
    const res = await get(c, '/api/health');
    assert.is(res.status, 200);
    assert.equal(res.body, { status: 'ok', height: 0, peers: 0, syncing: false });
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  }),
);

t('height follows the head and the trailing slash is optional', () =>
  withChain(async (c) => {
    await c.produce(3);
    const res = await get(c, '/api/health/');
    assert.is(res.status, 200);
    assertKeys(res.body, ['status', 'height', 'peers', 'syncing']);
    assert.is(res.body.height, 3);
    assert.type(res.body.height, 'number');
  }),
);

t('peers and syncing come from the network view', () =>
  withChain(
    async (c) => {
      assert.equal((await get(c, '/api/health')).body, { status: 'ok', height: 0, peers: 4, syncing: true });
    },
    { network: { ...noNetwork, peerCount: () => 4, syncing: () => true } },
  ),
);

t.run();
