/**
 * A sender's transactions leave a node in nonce order, never into a gap (p2p/txAnnouncer.ts): a
 * peer that lacks a transaction ignores its successors (NONCE_GAP) and keeps their ids in its seen
 * cache, so a successor published into that gap could not reach it again for minutes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { signTx } from '../../../core/txCodec.ts';
import { type TxAnnouncerOptions, TxAnnouncer } from '../../../p2p/txAnnouncer.ts';
import { decode } from '../../../p2p/wire.ts';
import { multiaddr } from '@multiformats/multiaddr';
import { hostileLibp2p } from '../../helpers/hostilePeer.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { heightsReach, testNet } from '../../helpers/testnet.ts';

const OPTS: TxAnnouncerOptions = {
  reannounceAfterMs: 3000,
  republishAfterMs: 122_000,
  perRound: 4,
  flushPerRound: 16,
  publishThreshold: -200,
};

/** A signed transfer from dev key 5 with `nonce`. */
const tx = (nonce: number, timestamp = 1_700_000_000_000): SignedTx =>
  signTx(
    { type: 'TRANSFER', from: DEV_KEYS[5].address, to: DEV_KEYS[6].address, amount: '5', fee: '1000', nonce, timestamp },
    DEV_KEYS[5],
  ) as SignedTx;

test('a successor waits while its predecessor is stuck, and goes out in order once the predecessor is mined', () => {
  const published: number[] = [];
  const gossip = {
    getSubscribers: () => ['p'],
    getScore: () => 0,
    publish: async (_topic: string, data: Uint8Array) => {
      published.push((decode(data, 1 << 20) as SignedTx).nonce);
      return { recipients: ['p'] };
    },
  };
  const pool: SignedTx[] = [];
  const a = new TxAnnouncer(gossip, 'tx', () => pool, OPTS, undefined, 0);
  pool.push(tx(0));
  a.admitted(pool[0], false, 0);
  // Right behind a fresh predecessor: pipelined.
  pool.push(tx(1));
  a.admitted(pool[1], false, 100);
  assert.deepEqual(published, [0, 1]);
  // Both still pending well after they went out: peers may lack them, so nonce 2 waits.
  pool.push(tx(2), tx(3));
  a.admitted(pool[2], false, OPTS.reannounceAfterMs + 200);
  a.admitted(pool[3], false, OPTS.reannounceAfterMs + 300);
  a.flush(OPTS.reannounceAfterMs + 400);
  assert.deepEqual(published, [0, 1], 'nothing published into a gap peers may have');
  assert.equal(a.unannounced(), 2);
  // Nonces 0 and 1 are mined: 2 and 3 go out, in order.
  pool.splice(0, 2);
  a.flush(OPTS.reannounceAfterMs + 500);
  assert.deepEqual(published, [0, 1, 2, 3]);
  assert.equal(a.unannounced(), 0);
});

test('a stuck predecessor published again takes its waiting successor along in the same round', () => {
  const published: number[] = [];
  const gossip = {
    getSubscribers: () => ['p'],
    getScore: () => 0,
    publish: async (_topic: string, data: Uint8Array) => {
      published.push((decode(data, 1 << 20) as SignedTx).nonce);
      return { recipients: ['p'] };
    },
  };
  const pool = [tx(0)];
  const a = new TxAnnouncer(gossip, 'tx', () => pool, OPTS, undefined, 0);
  a.admitted(pool[0], false, 0);
  pool.push(tx(1));
  a.admitted(pool[1], false, OPTS.reannounceAfterMs);
  assert.deepEqual(published, [0]);
  a.round(OPTS.republishAfterMs + 1);
  assert.deepEqual(published, [0, 0, 1], 'the predecessor again, then its successor for the first time');
});

test('a follower whose acknowledged transactions met a peer lacking the first gets every one mined after a restart', async () => {
  const net = testNet(3, 300, 2);
  // A peer that takes the transaction topic's gossip and passes nothing on: the first
  // transaction goes out to it alone, as if the authorities had missed it.
  const sink = await hostileLibp2p(true);
  try {
    await net.start(0, []);
    await net.start(1, [0]);
    await heightsReach(net, 2);
    const f = await net.start(2, []);
    const topic = `/ombra/${f.node.info.genesisBlock.hash.slice(0, 16)}/tx/1`;
    sink.services.pubsub.subscribe(topic);
    await sink.dial(multiaddr(net.addr(2)));
    const pubsub = (
      f.p2p as unknown as {
        p2p: {
          services: {
            pubsub: { getSubscribers(t: string): unknown[]; mcache: { getGossipIDs(t: Set<string>): Map<string, unknown> } };
          };
        };
      }
    ).p2p.services.pubsub;
    await waitFor(async () => (pubsub.getSubscribers(topic).length > 0 ? true : undefined));
    const post = (body: unknown) =>
      fetch(`${f.url}/api/chain/tx`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const sent = [0, 1, 2, 3, 4].map((n) => tx(n, Date.now()));
    assert.equal((await post(sent[0])).status, 200);
    // Until gossipsub's message cache forgot it, a new peer could fetch it by IHAVE/IWANT.
    await waitFor(async () => (pubsub.mcache.getGossipIDs(new Set([topic])).size === 0 ? true : undefined), 30_000);
    // The follower meets the authorities (it learns the second from the first); what it
    // acknowledges now follows a transaction they lack (their nonce gap).
    f.p2p!.connect(net.addr(0));
    await waitFor(async () => (pubsub.getSubscribers(topic).length === 3 ? true : undefined), 20_000);
    for (const t of sent.slice(1)) {
      const res = await post(t);
      assert.equal(res.status, 200, await res.clone().text());
    }
    // Stopped right after those acknowledgements (a kill -9 leaves the same: the pending log is
    // written before the acknowledgement), restarted with short seen caches and rounds (the
    // authorities keep gossipsub's two minutes).
    await f.stop();
    const again = await net.start(2, [0], { gossipSeenTtlMs: 1500, reannounceIntervalMs: 300 });
    for (const t of sent) assert.ok(again.node.mempool.has(t.hash), `nonce ${t.nonce} restored from the pending log`);
    const started = Date.now();
    const mined = await waitFor(
      async () => {
        const s = await Promise.all(sent.map((t) => net.nodes[0]!.queries.chain.txStatus(t.hash)));
        return s.every((x) => x?.status === 'confirmed') ? true : undefined;
      },
      45_000,
      100,
    ).catch(() => false);
    const statuses = await Promise.all(sent.map(async (t) => (await net.nodes[0]!.queries.chain.txStatus(t.hash))?.status ?? 'unknown'));
    console.log(`  acknowledged ${sent.length}, on the authority after ${Date.now() - started} ms: ${statuses.join(' ')}`);
    assert.equal(mined, true, `every acknowledged transaction mined: ${statuses.join(' ')}`);
  } finally {
    await sink.stop();
    await net.stop();
  }
});
