/** The block JSON cache serves recent blocks from memory and never serves a block a reorganisation replaced. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestChain } from '../helpers/testChain.ts';

const t = suite('block cache');

t('after a reorganisation, GET /api/chain/block/:index answers the new branch, not the cached old block', async () => {
  const a = await openTestChain();
  const b = await openTestChain();
  try {
    await a.produce(2);
    const before = (await (await a.app.request('/api/chain/block/1')).json()) as { hash: string };
    assert.equal(before, JSON.parse(JSON.stringify(await a.node.store.block(1))));
    b.advance(b.genesis.blockTimeMs * 3);
    await b.produce(3);
    a.advance(Math.max(0, b.now() - a.now()));
    await a.node.reorg(0, await b.node.store.blocksIn(1, 3));
    const res = await a.app.request('/api/chain/block/1');
    assert.is(res.headers.get('content-type'), 'application/json');
    const after = (await res.json()) as { hash: string };
    assert.is(after.hash, (await b.node.store.block(1))!.hash);
    assert.is.not(after.hash, before.hash);
  } finally {
    await a.destroy();
    await b.destroy();
  }
});

t.run();
