/**
 * `--assume-valid HASH` on sync: the synced ancestors of HASH go in without their signatures
 * checked; a block off the chain leading to HASH is checked in full, and a bad signature there is
 * refused (the peer banned). Without the flag every signature is checked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../../core/block.ts';
import { heightKey } from '../../../core/encoding.ts';
import { signTx } from '../../../core/txCodec.ts';
import { ancestorsIn } from '../../../p2p/assumeValid.ts';
import { runCli } from '../../helpers/cliRun.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { heightsReach, testNet } from '../../helpers/testnet.ts';

test('ancestorsIn: the blocks of an answer up to the assumed block, none without it', () => {
  const answer = [1, 2, 3, 4].map((index) => ({ index, hash: `h${index}` }) as unknown as Block);
  assert.deepEqual(
    ancestorsIn(answer, 'h3').map((b) => b.index),
    [1, 2, 3],
  );
  assert.deepEqual(ancestorsIn(answer, 'h9'), []);
});

test('a bad signature below the assumed block is taken, one above it is refused; without the flag both are refused', async () => {
  const net = testNet(4, 300, 1);
  try {
    const a = await net.start(0, []);
    // The authority produces only with a peer: node 3 keeps it company from the start.
    await net.start(3, [0]);
    // Two transfers, in blocks `low` and `high` with at least two blocks between them.
    const send = async (nonce: number) => {
      const tx = signTx(
        { type: 'TRANSFER', from: DEV_KEYS[1].address, to: DEV_KEYS[2].address, amount: '5', fee: '1000', nonce, timestamp: Date.now() },
        DEV_KEYS[1],
      );
      await a.node.submitTx(tx);
      return waitFor(async () => {
        const head = a.node.head().index;
        for (const b of await a.node.store.blocksIn(1, head)) if (b.transactions.some((x) => x.hash === tx.hash)) return b.index;
        return undefined;
      }, 20_000);
    };
    const low = await send(0);
    await heightsReach(net, low + 3);
    const assumedAt = low + 2;
    const high = await send(1);
    assert.ok(high > assumedAt);
    await heightsReach(net, high + 2);
    // The serving node's stored blocks get a changed transaction signature (no hash covers it).
    for (const h of [low, high]) {
      const b = (await a.node.store.block(h)) as Block;
      const sig = b.transactions[0].signature;
      b.transactions[0].signature = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
      await a.node.store.blocks.put(heightKey(h), b);
    }
    const assumed = (await a.node.store.block(assumedAt))!.hash;
    // Node 3 holds the untampered blocks: gone, so the syncing nodes have only node 0 to ask.
    await net.nodes[3]!.stop();
    net.nodes[3] = null;
    const trusting = await net.start(1, [0], { assumeValid: assumed });
    const checking = await net.start(2, [0]);
    // The node checking everything stops below `low`; the one assuming stops below `high`.
    await waitFor(async () => (checking.p2p!.guardStats().bans >= 1 ? true : undefined), 20_000);
    await waitFor(async () => (trusting.p2p!.guardStats().bans >= 1 ? true : undefined), 20_000);
    assert.equal(checking.node.head().index, low - 1);
    assert.equal(trusting.node.head().index, high - 1);
    assert.equal(
      (await trusting.node.store.block(low))!.transactions[0].signature,
      (await a.node.store.block(low))!.transactions[0].signature,
    );
    // The blocks taken on trust leave the verified mark below them: a replay checks them.
    assert.ok(trusting.node.store.verified.mark.height < low);
    assert.equal(checking.node.store.verified.mark.height, low - 1);
  } finally {
    await net.stop();
  }
});

test('--assume-valid takes a block hash only', async () => {
  const r = await runCli(['start', '--dev', '--assume-valid', 'abc']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--assume-valid abc must be a block hash: 64 lower-case hex characters/);
});
