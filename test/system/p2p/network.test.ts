import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slotOf, slotOwner } from '../../../core/block.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { converged, heightsReach, testNet } from '../../helpers/testnet.ts';

test('three authorities take turns by slot, agree at every height, and carry a transaction to every node', async () => {
  const net = testNet(3);
  try {
    await net.start(0, []);
    await net.start(1, [0]);
    await net.start(2, [0]);
    await heightsReach(net, 7);
    const hash = await converged(net);
    const node0 = net.nodes[0]!.node;
    const blocks = await node0.store.blocksIn(1, node0.head().index);
    for (const b of blocks) assert.equal(b.proposer, slotOwner(net.genesis, slotOf(b.timestamp, net.genesis.blockTimeMs)));
    assert.deepEqual(new Set(blocks.map((b) => b.proposer)).size, 3, 'all three proposed');
    for (const x of net.nodes)
      assert.equal((await x!.node.store.block(blocks.length))!.hash, (await node0.store.block(blocks.length))!.hash);
    void hash;
    // A transfer posted to node 1 is mined and readable on nodes 0 and 2.
    const before = (await net.nodes[2]!.queries.chain.account(DEV_KEYS[8].address)).balance;
    const res = await fetch(`${net.nodes[1]!.url}/api/chain/tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(txFrom(7, DEV_KEYS[8].address)),
    });
    const { hash: txHash } = (await res.json()) as { hash: string };
    for (const i of [0, 2]) {
      const tx = await waitFor(async () => net.nodes[i]!.queries.chain.tx(txHash), 20_000);
      assert.equal(tx.hash, txHash);
    }
    assert.equal((await net.nodes[2]!.queries.chain.account(DEV_KEYS[8].address)).balance, before + 5n);
  } finally {
    await net.stop();
  }
});

test('/api/chain/peers lists each peer by the addresses it listens on, never the ephemeral port it dialled from', async () => {
  const net = testNet(2, 400, 1);
  try {
    const a = await net.start(0, []);
    const b = await net.start(1, [0]);
    const listening = async (x: typeof a) =>
      ((await (await fetch(`${x.url}/api/chain/network`)).json()) as { addresses: string[] }).addresses;
    const bListens = (await listening(b)).map((m) => m.replace(/\/p2p\/.*$/, ''));
    const aListens = (await listening(a)).map((m) => m.replace(/\/p2p\/.*$/, ''));
    // A sees B's connection as inbound (from an ephemeral port); B announced its listen address.
    const seenByA = await waitFor(async () => {
      const body = (await (await fetch(`${a.url}/api/chain/peers`)).json()) as { peers: { peerId: string; addresses: string[] }[] };
      const peer = body.peers.find((p) => p.peerId === b.p2p!.peerId());
      return peer && peer.addresses.length > 0 ? peer : undefined;
    });
    for (const addr of seenByA.addresses) assert.ok(bListens.includes(addr), `${addr} is one of B's listen addresses ${bListens}`);
    const seenByB = (await (await fetch(`${b.url}/api/chain/peers`)).json()) as { peers: { peerId: string; addresses: string[] }[] };
    const peer = seenByB.peers.find((p) => p.peerId === a.p2p!.peerId());
    assert.ok(peer && peer.addresses.length > 0);
    for (const addr of peer.addresses) assert.ok(aListens.includes(addr), `${addr} is one of A's listen addresses ${aListens}`);
  } finally {
    await net.stop();
  }
});

test('a network node with no peer produces nothing', async () => {
  const net = testNet(1, 200, 2);
  try {
    const x = await net.start(0, []);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(x.node.head().index, 0);
    const health = await (await fetch(`${x.url}/api/health`)).json();
    assert.deepEqual(health, { status: 'ok', height: 0, peers: 0, syncing: false });
  } finally {
    await net.stop();
  }
});

test('with --mdns two nodes given no peers find each other and produce together', async () => {
  const net = testNet(2, 300);
  try {
    await net.start(0, [], { mdns: true });
    await net.start(1, [], { mdns: true });
    await heightsReach(net, 3);
    await converged(net);
    assert.equal(net.nodes[0]!.p2p!.peerCount(), 1);
  } finally {
    await net.stop();
  }
});

function txFrom(i: number, to: string) {
  const { signTx } = TX;
  return signTx({ type: 'TRANSFER', from: DEV_KEYS[i].address, to, amount: '5', fee: '10', nonce: 0, timestamp: Date.now() }, DEV_KEYS[i]);
}
const TX = await import('../../../core/txCodec.ts');
