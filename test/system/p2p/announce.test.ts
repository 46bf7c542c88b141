/**
 * `--p2p-announce` (P2pOptions.announce): a node behind a proxy tells its peers only the address
 * it announces, never its listen address: /api/chain/network serves it, and a peer that was
 * dialled by it learns only that address through identify (so peer exchange passes on nothing
 * else).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { testNet } from '../../helpers/testnet.ts';

const ANNOUNCED = '/ip4/127.0.0.1/tcp/9';

test('a node announcing an address is known to its peers by that address alone', async () => {
  const net = testNet(2, 400, 1);
  try {
    const a = await net.start(0, []);
    const b = await net.start(1, [0], { announce: [ANNOUNCED] });
    const own = ((await (await fetch(`${b.url}/api/chain/network`)).json()) as { addresses: string[] }).addresses;
    assert.deepEqual(
      own.map((m) => m.replace(/\/p2p\/.*$/, '')),
      [ANNOUNCED],
    );
    const seenByA = await waitFor(async () => {
      const body = (await (await fetch(`${a.url}/api/chain/peers`)).json()) as { peers: { peerId: string; addresses: string[] }[] };
      const peer = body.peers.find((p) => p.peerId === b.p2p?.peerId());
      return peer && peer.addresses.length > 0 ? peer : undefined;
    });
    assert.deepEqual(seenByA.addresses, [ANNOUNCED]);
  } finally {
    await net.stop();
  }
});
