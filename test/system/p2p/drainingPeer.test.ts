/**
 * A peer cannot drain a follower by claiming a far head: one that served one genuine block, then
 * claims a head a million blocks ahead and answers every range with `{error, heldFrom}`, loses its
 * claim at its first refusal, is struck each time it refuses blocks it said it holds and banned at
 * the third strike; the follower, at the head of its honest peers, answers GET /api/health 200
 * throughout.
 */
import { multiaddr } from '@multiformats/multiaddr';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syncProtocols } from '../../../p2p/sync.ts';
import { decode, encode, encodeText, readAll } from '../../../p2p/wire.ts';
import { claimHead, hostileLibp2p } from '../../helpers/hostilePeer.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { heightsReach, testNet } from '../../helpers/testnet.ts';

/** How long the follower's readiness is watched once it is at the head. */
const WATCH_MS = 20_000;

test('one genuine block, then a head a million blocks ahead and {error, heldFrom} for every range: never 503 behind at the head', async () => {
  const net = testNet(3, 300, 1);
  const evil = await hostileLibp2p();
  try {
    const authority = await net.start(0, []);
    await net.start(1, [0]);
    await heightsReach(net, 4);
    const follower = await net.start(2, []);
    const genesisHash = authority.node.info.genesisBlock.hash;
    const protocols = syncProtocols(genesisHash);
    const genuine = authority.node.networkPorts().blocks;
    await claimHead(evil, protocols.status, genesisHash, () => authority.node.head().index + 1_000_000);
    let servedNew = false;
    let refusals = 0;
    await evil.handle(protocols.blocks, async ({ stream }) => {
      const req = decode(await readAll(stream, 1024), 1024) as { from: number; to: number };
      // Genuine blocks (the authority's) until one the follower lacked went out, then refusals only.
      if (!servedNew) {
        const first = Math.min(req.to, Math.max(req.from, follower.node.head().index + 1));
        const blocks = await genuine.blocksJsonIn(req.from, first);
        servedNew = first > follower.node.head().index;
        await stream.sink([encodeText(`{"blocks":[${blocks.join(',')}]}`)]);
        return;
      }
      refusals++;
      await stream.sink([encode({ error: 'this node holds blocks from later only', heldFrom: req.from + 1 })]).catch(() => undefined);
    });
    // The fresh follower's only peer is the hostile one, until it has taken one genuine block from it.
    await evil.dial(multiaddr(net.addr(2)));
    await waitFor(async () => (servedNew && follower.node.head().index >= 1 ? true : undefined), 15_000);
    follower.p2p!.connect(net.addr(0));
    await waitFor(async () => (follower.node.head().index >= authority.node.head().index - 1 ? true : undefined), 20_000);
    let behind = 0;
    let samples = 0;
    let shown = 0;
    const until = Date.now() + WATCH_MS;
    while (Date.now() < until) {
      const atHead = follower.node.head().index >= authority.node.head().index - 1;
      const res = await fetch(`${follower.url}/api/health`);
      const body = (await res.json()) as { status: string; networkHeight?: number };
      if (atHead) {
        samples++;
        if (res.status === 503 && body.status === 'behind') behind++;
        shown = Math.max(shown, follower.p2p!.networkHeight() ?? 0);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const syncer = (follower.p2p as unknown as { syncer: { banned: { has(id: string): boolean } } }).syncer;
    const id = evil.peerId.toString();
    console.log(
      `  at the head: ${behind} of ${samples} health samples 503 behind over ${WATCH_MS / 1000} s; networkHeight up to ${shown} (head ${authority.node.head().index}); ${refusals} refusals`,
    );
    assert.ok(samples > 0, 'the follower was at the head');
    assert.equal(behind, 0, 'never 503 behind at the head of its honest peers');
    assert.ok(shown <= authority.node.head().index + 1, `networkHeight reached ${shown}`);
    assert.ok(refusals > 0, 'the hostile peer was asked again');
    // Each later refusal of blocks it said it holds is a strike (one per cooldown): the third bans it.
    await waitFor(async () => (syncer.banned.has(id) ? true : undefined), 60_000);
  } finally {
    await evil.stop();
    await net.stop();
  }
});

test('a peer naming a heldFrom above the head it claimed is struck at its first refusal, and its claim never counts', async () => {
  const net = testNet(2, 300, 1);
  const evil = await hostileLibp2p();
  try {
    const authority = await net.start(0, []);
    const follower = await net.start(1, [0]);
    await heightsReach(net, 3);
    const genesisHash = authority.node.info.genesisBlock.hash;
    const protocols = syncProtocols(genesisHash);
    await claimHead(evil, protocols.status, genesisHash, () => follower.node.head().index + 20);
    let refusals = 0;
    await evil.handle(protocols.blocks, async ({ stream }) => {
      await readAll(stream, 1024);
      refusals++;
      await stream.sink([encode({ error: 'not yet', heldFrom: 1_000_000 })]).catch(() => undefined);
    });
    await evil.dial(multiaddr(net.addr(1)));
    const syncer = (follower.p2p as unknown as { syncer: { banned: { cooling(id: string): boolean } } }).syncer;
    await waitFor(async () => (syncer.banned.cooling(evil.peerId.toString()) ? true : undefined), 15_000);
    assert.equal(refusals, 1, 'struck at its first refusal');
    assert.ok((follower.p2p!.networkHeight() ?? 0) <= authority.node.head().index + 1);
  } finally {
    await evil.stop();
    await net.stop();
  }
});
