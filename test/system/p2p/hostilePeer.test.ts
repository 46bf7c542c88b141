/**
 * A hostile peer against a real node process: a plain libp2p peer with no authority key claims a
 * head 30,000 blocks ahead and serves junk blocks of realistic size (about 3 MiB of transaction
 * JSON each, as many as fit a 16 MiB answer). Read over HTTP throughout, the node never serves a
 * lower height or an older balance, keeps producing, never reorganises or resets a read model,
 * grows by less than 100 MB of resident memory, and bans the peer and hangs up on it.
 */
import { multiaddr } from '@multiformats/multiaddr';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../core/txCodec.ts';
import { syncProtocols } from '../../../p2p/sync.ts';
import { decode, encode, readAll } from '../../../p2p/wire.ts';
import { claimHead, getJson, hostileLibp2p, junkBlock, memoryOf, metricOf } from '../../helpers/hostilePeer.ts';
import { startNodeProcess, waitFor, type NodeProcess } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS, tempDir } from '../../helpers/testChain.ts';

const BLOCK_BYTES = 3 * 1024 * 1024 - 64 * 1024;
const ANSWER_BYTES = 15 * 1024 * 1024;

type Wallet = { balance: string; nonce: number };

test('a peer claiming head + 30,000 with megabyte junk blocks: no lower height, no older balance, no rollback or rebuild, < 100 MB, banned', async () => {
  const tmp = tempDir('ombra-hostile-');
  const evil = await hostileLibp2p();
  let node: NodeProcess | null = null;
  try {
    node = await startNodeProcess(['--dev', '--block-time-ms', '500', '--data-dir', tmp.dir]);
    const url = node.url;
    const funded = DEV_KEYS[1];
    const tx = signTx(
      { type: 'TRANSFER', from: funded.address, to: DEV_KEYS[2].address, amount: '7', fee: '1000', nonce: 0, timestamp: Date.now() },
      funded,
    );
    const posted = await fetch(`${url}/api/chain/tx`, {
      method: 'POST',
      body: JSON.stringify(tx),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(posted.status, 200, await posted.text());
    // A balance that differs from genesis: a rollback or a rebuild in progress would show the old one.
    const spent = await waitFor(async () => {
      const w = await getJson<Wallet>(url, `/api/wallet/balance/${funded.address}`);
      return w.nonce === 1 ? w : undefined;
    });
    const genesisHash = (await getJson<{ hash: string }>(url, '/api/chain/block/0')).hash;
    const address = (await getJson<{ addresses: string[] }>(url, '/api/chain/network')).addresses[0];
    const protocols = syncProtocols(genesisHash);
    let servedBytes = 0;
    let claimed = 0;
    await claimHead(evil, protocols.status, genesisHash, async () => {
      claimed = (await getJson<{ height: number }>(url, '/api/chain/height')).height + 30_000;
      return claimed;
    });
    // As many ~3 MiB junk blocks as fit under the node's 16 MiB answer limit, linked to each other.
    await evil.handle(protocols.blocks, async ({ stream }) => {
      const req = decode(await readAll(stream, 1024), 1024) as { from: number; to: number };
      const blocks = [];
      let previousHash = 'cd'.repeat(32);
      for (let i = req.from; i <= req.to && (blocks.length + 1) * BLOCK_BYTES <= ANSWER_BYTES; i++) {
        const b = junkBlock(i, previousHash, BLOCK_BYTES, i);
        blocks.push(b);
        previousHash = b.hash;
      }
      const bytes = encode({ blocks });
      servedBytes += bytes.byteLength;
      await stream.sink([bytes]);
    });
    const before = {
      memory: memoryOf(node.child.pid!),
      resets: await metricOf(url, 'ombra_read_model_resets_total'),
      reorgs: await metricOf(url, 'ombra_reorgs_total'),
    };
    const seen = { height: (await getJson<{ height: number }>(url, '/api/chain/height')).height, reads: 0 };
    const faults: string[] = [];
    let reading = true;
    // The API as a client sees it, read in a loop while the attack runs.
    const reader = (async () => {
      while (reading) {
        const { height } = await getJson<{ height: number }>(url, '/api/chain/height');
        if (height < seen.height) faults.push(`height went back from ${seen.height} to ${height}`);
        seen.height = Math.max(seen.height, height);
        const w = await getJson<Wallet>(url, `/api/wallet/balance/${funded.address}`);
        if (w.balance !== spent.balance || w.nonce !== 1) faults.push(`balance ${w.balance} nonce ${w.nonce} at height ${height}`);
        seen.reads++;
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    try {
      await evil.dial(multiaddr(address));
      await waitFor(async () => ((await metricOf(url, 'ombra_peer_bans_total')) >= 1 ? true : undefined), 20_000);
      const connected = async () =>
        (await getJson<{ peers: { peerId: string }[] }>(url, '/api/chain/peers')).peers.some((p) => p.peerId === evil.peerId.toString());
      await waitFor(async () => ((await connected()) ? undefined : true), 10_000);
      // Coming back does not help: the node hangs up on a banned peer.
      await evil.dial(multiaddr(address)).catch(() => undefined);
      await waitFor(async () => (evil.getConnections().length === 0 && !(await connected()) ? true : undefined), 10_000);
      // Blocks keep coming.
      const h = seen.height;
      await waitFor(async () => ((await getJson<{ height: number }>(url, '/api/chain/height')).height >= h + 3 ? true : undefined), 15_000);
    } finally {
      reading = false;
      await reader;
    }
    assert.deepEqual(faults, [], faults.join('\n'));
    assert.ok(seen.reads > 10, `the API was read ${seen.reads} times during the attack`);
    assert.ok(claimed > 30_000 && servedBytes > 2 * 1024 * 1024, `the node asked the liar for its junk (${servedBytes} bytes served)`);
    assert.equal(await metricOf(url, 'ombra_reorgs_total'), before.reorgs, 'no reorganisation');
    assert.equal(await metricOf(url, 'ombra_read_model_resets_total'), before.resets, 'no read model reset or rebuild');
    assert.equal(await metricOf(url, 'ombra_peers_banned'), 1, 'the liar is banned');
    const growth = memoryOf(node.child.pid!).peak - before.memory.rss;
    assert.ok(growth < 100, `the node's resident memory grew ${growth.toFixed(0)} MiB at its peak`);
    assert.equal((await getJson<{ status: string }>(url, '/api/health')).status, 'ok');
  } finally {
    await evil.stop();
    node?.child.kill('SIGTERM');
    await node?.exited;
    tmp.cleanup();
  }
});
