/** Sync answers are bounded by bytes: a server answers a prefix of a range and the asker carries on from there. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { converged, heightsReach, testNet } from '../../helpers/testnet.ts';

test('a late node syncs from peers that answer one block per request (byte budget), without gaps', async () => {
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
    for (let i = 1; i <= late.node.head().index; i++) assert.equal((await late.node.store.block(i))?.index, i);
  } finally {
    await net.stop();
  }
});

test('a node restarting a few blocks behind finds its common ancestor through one-block answers: a catch-up, no reorganisation', async () => {
  // Node 0 produces; node 2 keeps it company while node 1 is away.
  const net = testNet(3, 400, 1);
  const tiny = { maxSyncResponseBytes: 65_536 + 100 };
  try {
    await net.start(0, [], tiny);
    await net.start(1, [0], tiny);
    await net.start(2, [0], tiny);
    await heightsReach(net, 4);
    await net.nodes[1]!.stop();
    net.nodes[1] = null;
    const left = Math.max(...net.nodes.map((x) => x?.node.head().index ?? 0));
    await heightsReach(net, left + 5);
    // Back with its old head, several blocks behind: gossip alone cannot fill the gap.
    const back = await net.start(1, [0], tiny);
    assert.ok(back.node.head().index < net.nodes[0]!.node.head().index - 1);
    await heightsReach(net, net.nodes[0]!.node.head().index + 3);
    await converged(net, 30_000);
    // The answers hold one block each: an ancestor search that took them for whole windows found
    // genesis and "reorganised" onto the same chain.
    assert.equal(back.node.epoch(), 0, 'no reorganisation');
    for (const i of [0, 1, 2]) {
      const p2p = net.nodes[i]!.p2p as unknown as { syncer: { banned: { total: number } } };
      assert.equal(p2p.syncer.banned.total, 0, `node ${i} banned no honest peer`);
    }
  } finally {
    await net.stop();
  }
});
