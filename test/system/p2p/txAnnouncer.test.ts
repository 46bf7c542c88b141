/**
 * Pending transactions are announced until mined (p2p/txAnnouncer.ts): what a node restored from
 * its pending log, or took while no peer listened, goes out when a peer subscribes; what stays
 * pending is published again after gossipsub's seen cache forgot it, a few a round, oldest first.
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
  perRound: 2,
  flushPerRound: 3,
  publishThreshold: -200,
};

/** A signed transfer from dev key 1 with `nonce`. */
const tx = (nonce: number): SignedTx =>
  signTx(
    { type: 'TRANSFER', from: DEV_KEYS[1].address, to: DEV_KEYS[2].address, amount: '5', fee: '1000', nonce, timestamp: 1_700_000_000_000 },
    DEV_KEYS[1],
  ) as SignedTx;

/** Gossipsub as the announcer sees it: subscribers with scores, and what was published. */
function fakeGossip() {
  const g = {
    subscribers: [] as string[],
    scores: new Map<string, number>(),
    published: [] as number[],
    getSubscribers: () => g.subscribers,
    getScore: (p: string) => g.scores.get(p) ?? 0,
    publish: async (_topic: string, data: Uint8Array) => {
      g.published.push((decode(data, 1 << 20) as SignedTx).nonce);
      return { recipients: g.subscribers };
    },
  };
  return g;
}

test('restored transactions wait for a peer, then go out in arrival order, a bounded batch at a time', () => {
  const g = fakeGossip();
  const pool = [0, 1, 2, 3, 4].map(tx);
  const a = new TxAnnouncer(g, 'tx', () => pool, OPTS, undefined, 0);
  assert.equal(a.recipients(), 0);
  a.flush(10);
  a.round(20);
  assert.deepEqual(g.published, [], 'nobody to publish to: nothing is spent on nobody');
  assert.equal(a.unannounced(), 5);
  // A peer scored below the publish threshold would get nothing either.
  g.subscribers = ['bad'];
  g.scores.set('bad', -300);
  a.flush(30);
  assert.deepEqual(g.published, []);
  g.subscribers = ['bad', 'good'];
  assert.equal(a.recipients(), 1);
  a.flush(40);
  assert.deepEqual(g.published, [0, 1, 2], 'oldest first, at most flushPerRound');
  a.round(50);
  assert.deepEqual(g.published, [0, 1, 2, 3, 4]);
  assert.equal(a.unannounced(), 0);
  assert.deepEqual(a.counts, { published: 5, republished: 0 });
});

test('a transaction taken while nobody listens is held back; one taken with a listener goes out at once, after its predecessor', () => {
  const g = fakeGossip();
  const pool: SignedTx[] = [];
  const a = new TxAnnouncer(g, 'tx', () => pool, OPTS, undefined, 0);
  pool.push(tx(0));
  a.admitted(pool[0], false, 0);
  assert.deepEqual(g.published, []);
  g.subscribers = ['p'];
  pool.push(tx(1));
  a.admitted(pool[1], false, 1);
  assert.deepEqual(g.published, [], 'nonce 1 never goes out before nonce 0 (a peer would find a gap)');
  a.flush(2);
  assert.deepEqual(g.published, [0, 1]);
  // What came by gossip is out there already; what follows it goes out at once.
  pool.push(tx(2));
  a.admitted(pool[2], true, 3);
  pool.push(tx(3));
  a.admitted(pool[3], false, 4);
  assert.deepEqual(g.published, [0, 1, 3]);
});

test('still pending: published again after the seen cache forgot it, oldest first, perRound a round; gone when mined', () => {
  const g = fakeGossip();
  g.subscribers = ['p'];
  const pool: SignedTx[] = [];
  const a = new TxAnnouncer(g, 'tx', () => pool, OPTS, undefined, 0);
  for (let n = 0; n < 5; n++) {
    pool.push(tx(n));
    a.admitted(pool[n], n === 4, n);
  }
  assert.deepEqual(g.published, [0, 1, 2, 3]);
  g.published.length = 0;
  // Pending long enough, but the seen cache still holds the ids: a publish would be a duplicate.
  a.round(OPTS.reannounceAfterMs + 10);
  a.round(OPTS.republishAfterMs - 1);
  assert.deepEqual(g.published, []);
  a.round(OPTS.republishAfterMs + 4);
  assert.deepEqual(g.published, [0, 1], 'the oldest, perRound of them');
  a.round(OPTS.republishAfterMs + 5);
  assert.deepEqual(g.published, [0, 1, 2, 3]);
  a.round(OPTS.republishAfterMs + 6);
  assert.deepEqual(g.published, [0, 1, 2, 3, 4], 'one that came by gossip is announced again too');
  a.round(OPTS.republishAfterMs + 7);
  assert.deepEqual(g.published.length, 5, 'each once per seen-cache lifetime');
  // Mined: it leaves the pool and is forgotten.
  pool.splice(0, 3);
  a.round(2 * OPTS.republishAfterMs + 10);
  assert.deepEqual(g.published, [0, 1, 2, 3, 4, 3, 4]);
  assert.deepEqual(a.counts, { published: 4, republished: 7 });
});

test('a follower that acknowledged a transaction and stopped before gossiping it gets it mined after its restart', async () => {
  const net = testNet(3, 300, 2);
  try {
    await net.start(0, []);
    await net.start(1, [0]);
    await heightsReach(net, 2);
    // The follower takes a transaction while no peer hears it (as if killed before its gossip left):
    // acknowledged means written to its pending log.
    const f = await net.start(2, []);
    const sent = signTx(
      { type: 'TRANSFER', from: DEV_KEYS[5].address, to: DEV_KEYS[6].address, amount: '5', fee: '1000', nonce: 0, timestamp: Date.now() },
      DEV_KEYS[5],
    );
    // Over HTTP a node no peer hears says so, and keeps nothing (api/submit.ts).
    const post = (url: string, body: unknown) =>
      fetch(`${url}/api/chain/tx`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const alone = await post(f.url, sent);
    assert.deepEqual({ status: alone.status, code: ((await alone.json()) as { code: string }).code }, { status: 503, code: 'NO_PEERS' });
    assert.ok(!f.node.mempool.has(sent.hash));
    await f.node.submitTx(sent);
    await f.stop();
    const again = await net.start(2, [0]);
    assert.ok(again.node.mempool.has(sent.hash), 'restored from the pending log');
    const started = Date.now();
    const confirmed = await waitFor(
      async () => ((await net.nodes[0]!.queries.chain.txStatus(sent.hash))?.status === 'confirmed' ? 'confirmed' : undefined),
      30_000,
      100,
    ).catch(() => 'never mined');
    console.log(`  restored transaction ${confirmed} on an authority ${Date.now() - started} ms after the follower's restart`);
    assert.equal(confirmed, 'confirmed');
    await waitFor(async () => (again.node.mempool.has(sent.hash) ? undefined : true), 20_000);
    // With a peer that hears it, the follower answers 200 and the transaction is mined.
    const next = signTx(
      { type: 'TRANSFER', from: DEV_KEYS[5].address, to: DEV_KEYS[6].address, amount: '5', fee: '1000', nonce: 1, timestamp: Date.now() },
      DEV_KEYS[5],
    );
    const res = await post(again.url, next);
    assert.equal(res.status, 200, await res.clone().text());
    await waitFor(async () => ((await net.nodes[1]!.queries.chain.txStatus(next.hash))?.status === 'confirmed' ? true : undefined), 30_000);
  } finally {
    await net.stop();
  }
});

test('a restored transaction the network mined meanwhile is not gossiped back: the follower catches up first', async () => {
  const net = testNet(3, 300, 2);
  try {
    const a = await net.start(0, []);
    await net.start(1, [0]);
    await heightsReach(net, 2);
    const f = await net.start(2, []);
    const sent = signTx(
      { type: 'TRANSFER', from: DEV_KEYS[5].address, to: DEV_KEYS[6].address, amount: '5', fee: '1000', nonce: 0, timestamp: Date.now() },
      DEV_KEYS[5],
    );
    await f.node.submitTx(sent);
    await f.stop();
    // The network gets it elsewhere and mines it while the follower is away.
    await a.node.submitTx(sent);
    await waitFor(async () => ((await a.queries.chain.txStatus(sent.hash))?.status === 'confirmed' ? true : undefined), 20_000);
    const target = a.node.head().index + 2;
    await waitFor(async () => (a.node.head().index >= target ? true : undefined), 20_000);
    // Restarted with no peer first: what it restored is pending before anything can tell it otherwise.
    const again = await net.start(2, []);
    assert.ok(again.node.mempool.has(sent.hash), 'restored: its own state does not know it was mined');
    again.p2p?.connect(net.addr(0));
    const announcer = (again.p2p as unknown as { announcer: { counts: { published: number } } }).announcer;
    await waitFor(async () => (again.node.mempool.has(sent.hash) ? undefined : true), 20_000);
    assert.equal(announcer.counts.published, 0, 'published to peers that mined it already');
  } finally {
    await net.stop();
  }
});

test('a transaction whose only recipient dropped it is published again once the seen caches forgot it, and mined', async () => {
  const net = testNet(3, 300, 2);
  // A peer that takes the transaction topic's gossip and passes nothing on.
  const sink = await hostileLibp2p(true);
  try {
    await net.start(0, []);
    await net.start(1, [0]);
    await heightsReach(net, 2);
    // Short seen caches and rounds, so the test waits seconds where a node waits minutes.
    const fast = { gossipSeenTtlMs: 1500, reannounceIntervalMs: 300 };
    const f = await net.start(2, [], fast);
    const topic = `/ombra/${f.node.info.genesisBlock.hash.slice(0, 16)}/tx/1`;
    sink.services.pubsub.subscribe(topic);
    await sink.dial(multiaddr(net.addr(2)));
    const gossip = (f.p2p as unknown as { p2p: { services: { pubsub: { getSubscribers(t: string): unknown[] } } } }).p2p.services.pubsub;
    await waitFor(async () => (gossip.getSubscribers(topic).length > 0 ? true : undefined));
    const got: string[] = [];
    sink.services.pubsub.addEventListener('message', (e) => got.push(new TextDecoder().decode(e.detail.data)));
    const sent = signTx(
      { type: 'TRANSFER', from: DEV_KEYS[5].address, to: DEV_KEYS[6].address, amount: '5', fee: '1000', nonce: 0, timestamp: Date.now() },
      DEV_KEYS[5],
    );
    const res = await fetch(`${f.url}/api/chain/tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sent),
    });
    assert.equal(res.status, 200);
    await waitFor(async () => (got.length > 0 ? true : undefined));
    // Now the follower meets the authorities; the transaction was published, so a new subscriber
    // does not get it at once: it goes out again after the seen caches forgot its id.
    f.p2p!.connect(net.addr(0));
    const started = Date.now();
    const confirmed = await waitFor(
      async () => ((await net.nodes[0]!.queries.chain.txStatus(sent.hash))?.status === 'confirmed' ? 'confirmed' : undefined),
      30_000,
      100,
    ).catch(() => 'never mined');
    console.log(`  dropped by its only recipient: ${confirmed} ${Date.now() - started} ms after the follower met an authority`);
    assert.equal(confirmed, 'confirmed');
  } finally {
    await sink.stop();
    await net.stop();
  }
});
