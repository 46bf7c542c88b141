/** Reorganisations never trust a branch: validated on a copy before any read model moves, and never below finality. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChainError } from '../../../core/errors.ts';
import { HeadMovedError } from '../../../node/writer/reorg.ts';
import { fixtureGenesis, openTestChain } from '../../helpers/testChain.ts';

test('an invalid branch is refused without stepping any read model back', async () => {
  const a = await openTestChain();
  const b = await openTestChain();
  try {
    await a.produce(3);
    b.advance(b.genesis.blockTimeMs * 5);
    await b.produce(5);
    a.advance(Math.max(0, b.now() - a.now()));
    const branch = await b.node.store.blocksIn(1, 5);
    branch[2] = { ...branch[2], stateRoot: '00'.repeat(32) };
    let rollbacks = 0;
    const runner = a.node.runner as unknown as { rollbackTo(n: number): Promise<boolean> };
    const real = runner.rollbackTo.bind(runner);
    runner.rollbackTo = (n: number) => {
      rollbacks++;
      return real(n);
    };
    const before = await a.node.runner.dump();
    const err = await a.node.reorg(0, branch).catch((e: Error) => e);
    assert.match(String(err), /block 3/);
    assert.equal(rollbacks, 0, 'no read model moved');
    assert.deepEqual(await a.node.runner.dump(), before);
    // The same branch, valid, is taken.
    await a.node.reorg(0, await b.node.store.blocksIn(1, 5));
    assert.equal(rollbacks, 1);
    assert.equal(a.node.head().hash, b.node.head().hash);
    assert.deepEqual(await a.node.runner.dump(), await b.node.runner.dump());
  } finally {
    await a.destroy();
    await b.destroy();
  }
});

test('a branch leaving the chain deeper than the finality depth is refused, whatever its length', async () => {
  const genesis = { ...fixtureGenesis(), finalityDepth: 3 };
  const a = await openTestChain({ genesis });
  const b = await openTestChain({ genesis });
  try {
    await a.produce(5);
    b.advance(b.genesis.blockTimeMs * 10);
    await b.produce(8);
    a.advance(Math.max(0, b.now() - a.now()));
    const err = await a.node.reorg(0, await b.node.store.blocksIn(1, 8)).catch((e: Error) => e);
    assert.match(String(err), /more than 3 blocks below the head/);
    assert.equal(a.node.head().index, 5);
  } finally {
    await a.destroy();
    await b.destroy();
  }
});

test('blocks that gossip imported while a catch-up fetched them are skipped, not refused as invalid', async () => {
  const a = await openTestChain();
  const b = await openTestChain();
  try {
    await b.produce(4);
    a.advance(Math.max(0, b.now() - a.now()));
    const fetched = await b.node.store.blocksIn(1, 4);
    // Gossip brought blocks 1 and 2 in before the fetched batch was imported.
    await a.node.importBlock(fetched[0]);
    await a.node.importBlock(fetched[1]);
    const imported = await a.node.importBlocks(fetched);
    assert.deepEqual(
      imported.map((x) => x.index),
      [3, 4],
    );
    assert.equal(a.node.head().hash, b.node.head().hash);
    // Every block already held: nothing to do, nothing refused.
    assert.deepEqual(await a.node.importBlocks(fetched), []);
  } finally {
    await a.destroy();
    await b.destroy();
  }
});

test('blocks that no longer fit because the head moved to another block are refused without blaming the sender', async () => {
  const a = await openTestChain();
  const b = await openTestChain();
  try {
    await a.produce(2);
    b.advance(b.genesis.blockTimeMs * 5);
    await b.produce(3);
    a.advance(Math.max(0, b.now() - a.now()));
    // b's blocks 1..3 were fetched when a held only genesis; a's own blocks 1..2 came meanwhile.
    const err = await a.node.importBlocks(await b.node.store.blocksIn(1, 3)).catch((e: Error) => e);
    assert.ok(err instanceof HeadMovedError);
    assert.ok(!(err instanceof ChainError), 'not an invalid block: the sender is not banned for it');
    assert.equal(a.node.head().index, 2);
  } finally {
    await a.destroy();
    await b.destroy();
  }
});

test('a branch judged against an older head is refused without blaming the sender, and taken against the current one', async () => {
  const a = await openTestChain();
  const b = await openTestChain();
  try {
    await a.produce(2);
    const judgedAgainst = a.node.head().hash;
    await a.produce(1);
    b.advance(b.genesis.blockTimeMs * 5);
    await b.produce(4);
    a.advance(Math.max(0, b.now() - a.now()));
    const branch = await b.node.store.blocksIn(1, 4);
    const err = await a.node.reorg(0, branch, judgedAgainst).catch((e: Error) => e);
    assert.ok(err instanceof HeadMovedError);
    assert.equal(a.node.head().index, 3);
    assert.equal(a.node.epoch(), 0, 'no reorganisation');
    await a.node.reorg(0, branch, a.node.head().hash);
    assert.equal(a.node.head().hash, b.node.head().hash);
  } finally {
    await a.destroy();
    await b.destroy();
  }
});
