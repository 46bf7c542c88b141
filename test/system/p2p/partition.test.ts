import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { converged, heightsReach, testNet } from '../../helpers/testnet.ts';

test('four nodes split 2-2 for several slots converge on one tip when healed, with read models equal to a replay', async () => {
  const net = testNet(4, 400);
  try {
    await net.start(0, []);
    await net.start(1, [0]);
    await net.start(2, []);
    await net.start(3, [2]);
    // Each half produces in its own authorities' slots and the halves diverge.
    await heightsReach(net, 3);
    await waitFor(async () => (net.nodes[0]!.node.head().hash !== net.nodes[2]!.node.head().hash ? true : undefined));
    let reorgs = 0;
    const subs = net.nodes.map((x) => x!.node.events$.subscribe((e) => void (e.type === 'reorg' && reorgs++)));
    net.nodes[1]!.p2p!.connect(net.addr(2));
    const tip = await converged(net, 30_000);
    subs.forEach((s) => s.unsubscribe());
    assert.ok(reorgs >= 2, `the losing half reorganised (${reorgs} reorg events)`);
    // Keep going together for a few blocks, then compare each node with a fresh replay of the chain.
    await heightsReach(net, net.nodes[0]!.node.head().index + 2);
    for (const x of net.nodes) await x!.producer?.stop();
    await converged(net);
    void tip;
    const dumps = [];
    for (const x of net.nodes) {
      const node = x!.node;
      const live = await node.runner.dump();
      await node.runner.resetAll();
      await node.catchUp(undefined, { verifySignatures: true });
      assert.deepEqual(await node.runner.dump(), live);
      dumps.push(live);
    }
    for (const d of dumps.slice(1)) assert.deepEqual(d, dumps[0]);
  } finally {
    await net.stop();
  }
});
