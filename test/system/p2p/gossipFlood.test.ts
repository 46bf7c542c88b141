/**
 * A gossip flood against a real node process, from two plain libp2p peers with no authority key,
 * published as fast as gossipsub lets them: 3,000 junk transactions of 48 KiB from one (144 MB;
 * junk whose fault may depend on state, so it costs the sender in the peer score until it is
 * graylisted) and 40 junk blocks of 3.5 MiB from the other (140 MB; a block not sealed by its
 * slot's authority is never an honest relay, so its sender is banned at the first). The node
 * handles each peer's messages one after another (a flooding stream is held back by flow control,
 * not queued), keeps producing and answering, and its resident memory peaks less than 100 MB
 * above where it started.
 */
import type { GossipsubEvents } from '@chainsafe/libp2p-gossipsub';
import type { Libp2p, PubSub } from '@libp2p/interface';
import { multiaddr } from '@multiformats/multiaddr';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encode } from '../../../p2p/wire.ts';
import { getJson, hostileLibp2p, junkBlock, memoryOf, metricOf } from '../../helpers/hostilePeer.ts';
import { startNodeProcess, waitFor, type NodeProcess } from '../../helpers/nodeProcess.ts';
import { tempDir } from '../../helpers/testChain.ts';

type Height = { height: number; latestBlock: { hash: string } };
type Peer = Libp2p<{ pubsub: PubSub<GossipsubEvents> }>;

test('280 MB of junk gossip from two peers: node live, the block flooder banned, peak memory growth < 100 MB', async () => {
  const tmp = tempDir('ombra-flood-');
  const [txFlooder, blockFlooder] = await Promise.all([hostileLibp2p(true), hostileLibp2p(true)]);
  let node: NodeProcess | null = null;
  try {
    node = await startNodeProcess(['--dev', '--block-time-ms', '500', '--data-dir', tmp.dir]);
    const url = node.url;
    const id = (await getJson<{ hash: string }>(url, '/api/chain/block/0')).hash.slice(0, 16);
    const topics = { block: `/ombra/${id}/block/1`, tx: `/ombra/${id}/tx/1` };
    const address = multiaddr((await getJson<{ addresses: string[] }>(url, '/api/chain/network')).addresses[0]);
    const join = async (peer: Peer, topic: string) => {
      peer.services.pubsub.subscribe(topic);
      await peer.dial(address);
      await waitFor(async () => (peer.services.pubsub.getSubscribers(topic).length > 0 ? true : undefined));
    };
    // The junk is built before the flooders connect: 280 MB take seconds of CPU (many more on a
    // loaded machine), and a test process busy building answers no ping meanwhile; the node
    // rightly hangs up on a peer silent for 5 s (libp2p's connection monitor), before it read any
    // of the flood (then nothing bans the block flooder and the wait below ran out).
    const head = await getJson<Height>(url, '/api/chain/height');
    const memo = 'y'.repeat(48 * 1024);
    const txs = Array.from({ length: 3000 }, (_, i) => encode({ type: 'TRANSFER', nonce: i, memo }));
    // Half on the node's head (they would wait for its write queue), half far ahead (they would start a sync).
    const blocks = Array.from({ length: 40 }, (_, i) =>
      encode(junkBlock(i % 2 === 0 ? head.height + 1 : head.height + 1000 + i, head.latestBlock.hash, 3.5 * 1024 * 1024, i)),
    );
    await join(txFlooder, topics.tx);
    await join(blockFlooder, topics.block);
    const before = memoryOf(node.child.pid!);
    const start = await getJson<Height>(url, '/api/chain/height');
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < txs.length; i++) {
      sends.push(txFlooder.services.pubsub.publish(topics.tx, txs[i]));
      if (i % 75 === 0) sends.push(blockFlooder.services.pubsub.publish(topics.block, blocks[i / 75]));
      // Published as fast as gossipsub takes them, with a turn of the event loop between
      // messages, so the flooders keep answering pings as a flooding process of its own would.
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(sends.map((p) => p.catch(() => undefined)));
    // Live throughout: it keeps producing and answering while the flood is read.
    for (let h = start.height; h < start.height + 6; ) {
      const now = await getJson<Height>(url, '/api/chain/height');
      assert.ok(now.height >= h, 'the height never goes back');
      h = now.height;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal((await getJson<{ status: string }>(url, '/api/health')).status, 'ok');
    // `publish` resolves once sent, not once read: on a loaded machine the node may not have read
    // the first junk block yet, so wait for the ban it causes (a flood never read fails here).
    await waitFor(async () => ((await metricOf(url, 'ombra_peer_bans_total')) >= 1 ? true : undefined), 60_000).catch((e) => {
      // The node's log, without its block lines, says what happened to the flooders' connections.
      console.error(
        node
          ?.stderr()
          .split('\n')
          .filter((l) => !l.includes('produced block'))
          .join('\n')
          .slice(0, 8000),
      );
      throw e;
    });
    const rejected = {
      block: await metricOf(url, 'ombra_gossip_rejected_total', 'topic="block"'),
      tx: await metricOf(url, 'ombra_gossip_rejected_total', 'topic="tx"'),
    };
    assert.equal(rejected.block, 1, 'the first junk block bans its sender: nothing more is read from it');
    assert.ok(rejected.tx >= 1 && rejected.tx < 3000, `junk transactions rejected until the sender was graylisted: ${rejected.tx}`);
    assert.equal(await metricOf(url, 'ombra_peer_bans_total'), 1);
    const peers = (await getJson<{ peers: { peerId: string }[] }>(url, '/api/chain/peers')).peers.map((p) => p.peerId);
    assert.ok(!peers.includes(blockFlooder.peerId.toString()), 'the block flooder is hung up on');
    const growth = memoryOf(node.child.pid!).peak - before.rss;
    assert.ok(growth < 100, `the node's resident memory grew ${growth.toFixed(0)} MiB at its peak`);
  } finally {
    await Promise.all([txFlooder.stop(), blockFlooder.stop()]);
    node?.child.kill('SIGTERM');
    await node?.exited;
    tmp.cleanup();
  }
});
