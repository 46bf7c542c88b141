/** Sync answers are bounded by bytes: a server answers a prefix of a range and the asker carries on from there. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { converged, heightsReach, testNet } from '../helpers/testnet.ts';

const t = suite('sync by bytes');

t('a late node syncs from peers that answer one block per request (byte budget), without gaps', async () => {
  // One authority (node 0); node 1 keeps it company so it produces; node 2 arrives late.
  const net = testNet(3, 400, 1);
  // A budget below one block's bytes: every answer is a one-block prefix of what was asked.
  const tiny = { maxSyncResponseBytes: 65_536 + 100 };
  try {
    await net.start(0, [], tiny);
    await net.start(1, [0], tiny);
    await heightsReach(net, 8);
    const late = await net.start(2, [0]);
    await converged(net, 30_000);
    assert.ok(late.node.head().index >= 8);
    for (let i = 1; i <= late.node.head().index; i++) assert.is((await late.node.store.block(i))?.index, i);
  } finally {
    await net.stop();
  }
});

t.run();
