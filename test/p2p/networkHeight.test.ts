/** The best head peers showed (readiness): sealed gossip counts, a bare claim does not, a departed peer's is forgotten. */
import { multiaddr } from '@multiformats/multiaddr';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { syncProtocols } from '../../p2p/sync.ts';
import { claimHead, hostileLibp2p } from '../helpers/hostilePeer.ts';
import { waitFor } from '../helpers/nodeProcess.ts';
import { aheadPeer } from '../helpers/sealedAhead.ts';
import { DEV_KEYS } from '../helpers/testChain.ts';
import { heightsReach, testNet } from '../helpers/testnet.ts';

const t = suite('network height');

t('a follower learns the network head from its peers, and a block sealed ahead of it counts until its sender leaves', async () => {
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

t('a peer that only claims a head far ahead, serving nothing, never raises it', async () => {
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

t.run();
