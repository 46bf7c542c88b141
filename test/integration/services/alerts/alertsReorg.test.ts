/** Alerts follow reorganisations: the winning branch's blocks fire, and an event in both branches is delivered once. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answer, openAlertChain, sleep, startReceiver, subscribe, until } from '../../../helpers/alertKit.ts';
import { DEV_KEYS, openTestChain } from '../../../helpers/testChain.ts';

const STRANGER = `ox${'ef'.repeat(20)}`;

test('after a reorganisation the new branch fires its alerts, and a transaction in both branches is delivered once', async () => {
  const r = await startReceiver(answer(200));
  const a = await openAlertChain({ retryDelaysMs: [40, 80, 160] });
  const b = await openTestChain();
  try {
    const toStranger = await subscribe(a, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
    const mined = await subscribe(a, {
      trigger: 'miner_block',
      params: { address: DEV_KEYS[0].address },
      channel: 'webhook',
      target: r.url,
    });
    assert.equal(toStranger.status, 200);
    // The same signed transfer lands in both branches; b's branch also has one of its own.
    const shared = a.transfer(1, STRANGER, 5n);
    await a.node.submitTx(shared);
    await a.produce(1);
    await until(() => r.got.length === 2, 5000, 'the first branch fires');
    const orphanBlock = a.node.head().hash;
    // b's first block lands in a later slot, so the branches differ from height 1.
    b.advance(b.genesis.blockTimeMs * 3);
    await b.node.submitTx(shared);
    await b.produce(1);
    const own = b.transfer(3, STRANGER, 7n);
    await b.node.submitTx(own);
    await b.produce(2);
    a.advance(Math.max(0, b.now() - a.now()));
    await a.node.reorg(0, await b.node.store.blocksIn(1, 3));
    assert.equal(a.node.head().hash, b.node.head().hash);
    // One more delivery for b's own transfer, three for b's blocks, none again for the shared one.
    await until(() => r.got.length === 6 && a.alerts.pendingCount() === 0, 5000, 'the new branch fires');
    await sleep(300);
    assert.equal(r.got.length, 6, 'nothing delivered twice');
    assert.equal(new Set(r.got.map((g) => g.headers['webhook-id'])).size, 6, 'every delivery id once');
    const bodies = r.got.map((g) => ({ sub: g.headers['x-chain-subscription'], body: JSON.parse(g.body) }));
    const txs = bodies.filter((x) => x.sub === toStranger.body.id).map((x) => x.body.tx.hash);
    assert.deepEqual(txs, [shared.hash, own.hash]);
    const blocks = bodies.filter((x) => x.sub === mined.body.id).map((x) => x.body.blockHash);
    const branch = (await b.node.store.blocksIn(1, 3)).map((x) => x.hash);
    assert.deepEqual(blocks, [orphanBlock, ...branch]);
    assert.equal(a.alerts.height(), 3, 'the reactor stands at the new head');
  } finally {
    await a.destroy();
    await b.destroy();
    await r.close();
  }
});
