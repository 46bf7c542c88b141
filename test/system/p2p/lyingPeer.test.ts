/** A peer that lies about its head and serves junk cannot make a node roll back, rebuild or hoard memory. */
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { identify } from '@libp2p/identify';
import { tcp } from '@libp2p/tcp';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../core/txCodec.ts';
import { syncProtocols } from '../../../p2p/sync.ts';
import { decode, encode, readAll } from '../../../p2p/wire.ts';
import type { ChainEvent } from '../../../projections/events.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { heightsReach, testNet } from '../../helpers/testnet.ts';
import { claimHead, hostileLibp2p } from '../../helpers/hostilePeer.ts';

test('a peer claiming head + 30,000 with junk blocks is banned and dropped: no rollback, no lower height, blocks keep coming', async () => {
  const net = testNet(2, 1000);
  const evil = await createLibp2p({
    addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: { identify: identify() },
  });
  try {
    const a = await net.start(0, []);
    await net.start(1, [0]);
    await heightsReach(net, 3);
    // An account whose balance differs from genesis: a rollback would show the old one.
    const funded = DEV_KEYS[1].address;
    const genesisBalance = (await a.queries.chain.account(funded)).balance;
    await a.node.submitTx(
      signTx(
        { type: 'TRANSFER', from: funded, to: DEV_KEYS[2].address, amount: '7', fee: '1000', nonce: 0, timestamp: Date.now() },
        DEV_KEYS[1],
      ),
    );
    await waitFor(async () => ((await a.queries.chain.account(funded)).nonce === 1 ? true : undefined), 10_000);
    assert.notEqual((await a.queries.chain.account(funded)).balance, genesisBalance);
    const protocols = syncProtocols(a.node.info.genesisBlock.hash);
    let served = 0;
    // Status: a head 30,000 blocks ahead; blocks: well-formed JSON that is no valid block.
    await claimHead(evil, protocols.status, a.node.info.genesisBlock.hash, () => a.node.head().index + 30_000);
    await evil.handle(protocols.blocks, async ({ stream }) => {
      const req = decode(await readAll(stream, 1024), 1024) as { from: number; to: number };
      const blocks = [];
      for (let i = req.from; i <= req.to; i++) {
        blocks.push({
          index: i,
          hash: 'ab'.repeat(32),
          previousHash: 'cd'.repeat(32),
          timestamp: Date.now(),
          proposer: DEV_KEYS[0].address,
          txRoot: '0'.repeat(64),
          stateRoot: '0'.repeat(64),
          tokensBurned: '0',
          tokensConsumed: '0',
          transactions: [],
          attestations: [],
        });
      }
      served += blocks.length;
      await stream.sink([encode({ blocks })]);
    });
    const events: ChainEvent[] = [];
    const sub = a.node.events$.subscribe((e) => events.push(e));
    const seen = { height: a.node.head().index, balance: (await a.queries.chain.account(funded)).balance };
    const rssBefore = process.memoryUsage().rss;
    const watch = setInterval(() => {
      // What the API serves never goes back.
      const h = a.node.head().index;
      assert.ok(h >= seen.height, `height went back from ${seen.height} to ${h}`);
      seen.height = h;
      assert.equal(a.node.state().accounts.get(funded)?.balance, seen.balance);
    }, 20);
    try {
      await evil.dial(multiaddr(net.addr(0)));
      const syncer = (a.p2p as unknown as { syncer: { isBanned(p: unknown): boolean } }).syncer;
      await waitFor(async () => (syncer.isBanned(evil.peerId) ? true : undefined), 15_000);
      await waitFor(async () => (a.p2p!.peers().some((p) => p.peerId === evil.peerId.toString()) ? undefined : true), 10_000);
      const h = a.node.head().index;
      await heightsReach(net, h + 2);
    } finally {
      clearInterval(watch);
      sub.unsubscribe();
    }
    assert.ok(served > 0, 'the node asked the liar for blocks');
    assert.equal(events.filter((e) => e.type === 'reorg').length, 0, 'no reorganisation');
    const growth = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    assert.ok(growth < 100, `rss grew ${growth.toFixed(0)} MiB`);
  } finally {
    await evil.stop();
    await net.stop();
  }
});

test('a peer answering sync with more than 16 MiB, or with malformed JSON, is banned; one refusing with {error} is not', async () => {
  const net = testNet(1, 1000);
  const peers = await Promise.all([0, 1, 2].map(() => hostileLibp2p()));
  try {
    const a = await net.start(0, []);
    const protocols = syncProtocols(a.node.info.genesisBlock.hash);
    const answers = [
      // One byte over the limit, in 1 MiB chunks: the reader stops at the limit, not at the end.
      () => Array.from({ length: 16 }, (_, i) => new Uint8Array(i === 15 ? 1024 * 1024 + 1 : 1024 * 1024).fill(0x20)),
      () => [new TextEncoder().encode('{"blocks": [')],
      () => [encode({ error: 'too many sync requests; slow down' })],
    ];
    const syncer = (a.p2p as unknown as { syncer: { isBanned(p: unknown): boolean; banned: { total: number } } }).syncer;
    const asked = [0, 0, 0];
    for (const [i, peer] of peers.entries()) {
      await claimHead(peer, protocols.status, a.node.info.genesisBlock.hash, () => a.node.head().index + 5);
      await peer.handle(protocols.blocks, async ({ stream }) => {
        asked[i]++;
        await stream.sink(answers[i]()).catch(() => undefined);
      });
      await peer.dial(multiaddr(net.addr(0)));
    }
    await waitFor(async () => (syncer.isBanned(peers[0].peerId) && syncer.isBanned(peers[1].peerId) ? true : undefined), 15_000);
    // The polite peer was asked again and again, never banned.
    await waitFor(async () => (asked[2] >= 2 ? true : undefined), 15_000);
    assert.ok(!syncer.isBanned(peers[2].peerId));
    assert.equal(syncer.banned.total, 2);
    await waitFor(async () => (a.p2p!.peers().some((p) => p.peerId === peers[0].peerId.toString()) ? undefined : true), 10_000);
  } finally {
    await Promise.all(peers.map((p) => p.stop()));
    await net.stop();
  }
});
