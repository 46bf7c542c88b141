/**
 * The best head peers showed (readiness): sealed gossip counts, a bare claim does not, a departed
 * peer's is forgotten. A block sealed by its slot's authority proves the network's height whatever
 * the peer that relayed it answers to sync, so failed syncs with that peer do not erase it; one
 * stamped more than a slot ahead of the clock never counts.
 */
import { multiaddr } from '@multiformats/multiaddr';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syncProtocols } from '../../../p2p/sync.ts';
import { claimHead, hostileLibp2p } from '../../helpers/hostilePeer.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { aheadPeer } from '../../helpers/sealedAhead.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { heightsReach, testNet } from '../../helpers/testnet.ts';

test('a follower learns the network head from its peers, and a block sealed ahead of it counts until its sender leaves', async () => {
  const net = testNet(2, 300, 1);
  try {
    const authority = await net.start(0, []);
    const follower = await net.start(1, [0]);
    const p2p = follower.p2p;
    if (!p2p) throw new Error('the follower has no network');
    await heightsReach(net, 3);
    // Gossiped blocks reach the follower one at a time: the head its peers show is never far off its own.
    const shown = p2p.networkHeight();
    assert.ok(shown === null || shown <= authority.node.head().index, `shown ${shown}`);
    const ahead = await aheadPeer(net.addr(1), authority.node.info.genesisBlock.hash, DEV_KEYS[0]);
    const far = authority.node.head().index + 500;
    try {
      await waitFor(
        async () => {
          await ahead.show(far);
          return p2p.networkHeight() === far ? true : undefined;
        },
        15_000,
        200,
      );
    } finally {
      await ahead.stop();
    }
    await waitFor(async () => ((p2p.networkHeight() ?? 0) < far ? true : undefined), 15_000);
  } finally {
    await net.stop();
  }
});

test('a peer that only claims a head far ahead, serving nothing, never raises it', async () => {
  const net = testNet(1, 300, 1);
  const liar = await hostileLibp2p();
  try {
    const node = await net.start(0, []);
    const p2p = node.p2p;
    if (!p2p) throw new Error('no network');
    const genesisHash = node.node.info.genesisBlock.hash;
    let asked = 0;
    await claimHead(liar, syncProtocols(genesisHash).status, genesisHash, () => {
      asked++;
      return node.node.head().index + 30_000;
    });
    await liar.dial(multiaddr(net.addr(0)));
    await waitFor(async () => (asked >= 2 ? true : undefined), 15_000);
    const shown = p2p.networkHeight();
    assert.ok(shown === null || shown < 30_000, `a bare claim raised the network head to ${shown}`);
  } finally {
    await liar.stop();
    await net.stop();
  }
});

test('a peer that gossiped a sealed block far ahead but serves no sync keeps the follower 503 behind until it disconnects', async () => {
  const net = testNet(2, 300, 1);
  try {
    const authority = await net.start(0, []);
    const follower = await net.start(1, [0]);
    await heightsReach(net, 3);
    const peer = await aheadPeer(net.addr(1), authority.node.info.genesisBlock.hash, DEV_KEYS[0]);
    const health = async () => {
      const res = await fetch(`${follower.url}/api/health`);
      return { status: res.status, body: (await res.json()) as { status: string; networkHeight?: number } };
    };
    try {
      const far = authority.node.head().index + 1000;
      // A sealed block stamped ten minutes ahead of the clock is no evidence: no import would take it.
      const future = () => peer.show(far + 500, Date.now() + 600_000);
      await waitFor(
        async () => {
          await future();
          await peer.show(far);
          return (await health()).status === 503 ? true : undefined;
        },
        15_000,
        100,
      );
      // Shown once: every sync the follower tries with that peer fails (it speaks no sync protocol),
      // and each of them (one a second at least) used to forget the height.
      let behind = 0;
      const samples = 12;
      for (let i = 0; i < samples; i++) {
        await future();
        const h = await health();
        assert.equal(h.body.networkHeight ?? null, h.status === 503 ? far : null, 'a future-stamped block never counts');
        if (h.status === 503) behind++;
        await new Promise((r) => setTimeout(r, 250));
      }
      console.log(`  shown once: ${behind} of ${samples} health samples 503 behind over 3 s`);
      assert.equal(behind, samples, 'behind on every sample while the peer that showed it is connected');
    } finally {
      await peer.stop();
    }
    // The peer is gone: nothing shows the network ahead any more.
    await waitFor(async () => ((await health()).status === 200 ? true : undefined), 15_000, 100);
  } finally {
    await net.stop();
  }
});
