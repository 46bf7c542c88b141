import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainEvent } from '../../../../projections/events.ts';
import { betterTip } from '../../../../node/writer/reorg.ts';
import { SseClient, withServedChain } from '../../../helpers/streamClients.ts';
import { DEV_KEYS, openTestChain } from '../../../helpers/testChain.ts';

test('a node switches to a longer valid branch, rebuilds its read models and returns orphaned transactions', async () => {
  const a = await openTestChain();
  const b = await openTestChain();
  try {
    // Both start from the same genesis; a mines a transfer the other branch never sees.
    const orphan = a.transfer(1, DEV_KEYS[2].address, 111n);
    await a.node.submitTx(orphan);
    await a.produce(2);
    await b.node.submitTx(b.transfer(3, DEV_KEYS[4].address, 222n));
    await b.produce(4);
    const branch = await b.node.store.blocksIn(1, 4);
    a.advance(b.now() - a.now());
    const oldHead = a.node.head();
    const oldBlocks = await a.node.store.blocksIn(1, 2);
    const events: ChainEvent[] = [];
    const sub = a.node.events$.subscribe((e) => events.push(e));
    await a.node.reorg(0, branch);
    sub.unsubscribe();
    assert.equal(a.node.head().hash, b.node.head().hash);
    assert.deepEqual(events[0], {
      type: 'reorg',
      fromHeight: 1,
      oldHead: { index: 2, hash: oldHead.hash },
      newHead: { index: 4, hash: b.node.head().hash },
      dropped: oldBlocks.map((x) => x.hash),
      ancestorHash: (await a.node.store.block(0))?.hash,
    });
    assert.deepEqual(
      events.filter((e) => e.type === 'block').map((e) => (e.type === 'block' ? e.block.index : -1)),
      [1, 2, 3, 4],
    );
    // The orphaned transfer is pending again, and the read models equal the other node's.
    assert.ok(a.node.mempool.has(orphan.hash as string));
    assert.equal((await a.queries.account(DEV_KEYS[4].address)).balance, (await b.queries.account(DEV_KEYS[4].address)).balance);
    const dumpA = await a.node.runner.dump();
    await a.node.runner.resetAll();
    await a.node.catchUp(undefined, { verifySignatures: true });
    assert.deepEqual(await a.node.runner.dump(), dumpA);
    assert.deepEqual(dumpA, await b.node.runner.dump());
  } finally {
    await a.destroy();
    await b.destroy();
  }
});

test('a branch that is not better, or holds an invalid block, changes nothing', async () => {
  const a = await openTestChain();
  const b = await openTestChain();
  try {
    await a.produce(3);
    await b.produce(2);
    const before = await a.node.runner.dump();
    let err = await a.node.reorg(0, await b.node.store.blocksIn(1, 2)).catch((e: Error) => e);
    assert.match(String(err), /not better/);
    await b.produce(3);
    a.advance(Math.max(0, b.now() - a.now()));
    const branch = await b.node.store.blocksIn(1, 5);
    branch[3] = { ...branch[3], stateRoot: '00'.repeat(32) };
    err = await a.node.reorg(0, branch).catch((e: Error) => e);
    assert.match(String(err), /block 4/);
    assert.equal(a.node.head().index, 3);
    assert.deepEqual(await a.node.runner.dump(), before);
  } finally {
    await a.destroy();
    await b.destroy();
  }
});

test('a reorganisation deeper than the undo log falls back to rebuilding read models from genesis, with the same result', async () => {
  const a = await openTestChain({ undoDepth: 2 });
  const b = await openTestChain();
  try {
    await a.node.submitTx(a.transfer(1, DEV_KEYS[2].address, 5n));
    await a.produce(5);
    await b.node.submitTx(b.transfer(3, DEV_KEYS[4].address, 7n));
    await b.produce(6);
    a.advance(b.now() - a.now());
    await a.node.reorg(0, await b.node.store.blocksIn(1, 6));
    assert.equal(a.node.head().hash, b.node.head().hash);
    assert.deepEqual(await a.node.runner.dump(), await b.node.runner.dump());
  } finally {
    await a.destroy();
    await b.destroy();
  }
});

test('the longer chain wins, then the lower slot, then the lower hash', () => {
  const tip = (index: number, timestamp: number, hash: string) => ({ index, timestamp, hash });
  assert.ok(betterTip(tip(5, 9000, 'ff'), tip(4, 1000, '00'), 1000));
  assert.ok(betterTip(tip(4, 1000, 'ff'), tip(4, 2000, '00'), 1000));
  assert.ok(betterTip(tip(4, 1000, '00'), tip(4, 1500, 'ff'), 1000));
  assert.ok(!betterTip(tip(4, 1000, 'ff'), tip(4, 1500, '00'), 1000));
});

test('an SSE client is told of the reorg, then receives the new branch from the ancestor on', () =>
  withServedChain(async ({ chain: a, url }) => {
    const b = await openTestChain();
    try {
      await a.produce(2);
      await b.node.submitTx(b.transfer(3, DEV_KEYS[4].address, 9n));
      await b.produce(4);
      a.advance(b.now() - a.now());
      const sse = await SseClient.open(`${url}/api/chain/events`);
      try {
        await sse.waitFor((m) => m.event === 'hello');
        await a.node.reorg(0, await b.node.store.blocksIn(1, 4));
        const reorg = await sse.waitFor((m) => m.event === 'reorg');
        assert.deepEqual(reorg.data.newHead, { index: 4, hash: b.node.head().hash });
        assert.equal(reorg.data.fromHeight, 1);
        // After the announcement the stream carries the new branch's blocks, heights 1..4.
        await sse.waitFor((m) => m.event === 'block' && m.data.hash === b.node.head().hash);
        const after = sse.messages
          .slice(sse.messages.indexOf(reorg))
          .filter((m) => m.event === 'block')
          .map((m) => m.data.hash);
        assert.deepEqual(
          after,
          (await b.node.store.blocksIn(1, 4)).map((x) => x.hash),
        );
      } finally {
        await sse.close();
      }
    } finally {
      await b.destroy();
    }
  }));
