/** Group commit: consecutive blocks imported with one synced write, announced only once durable. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainEvent } from '../../../projections/events.ts';
import type { OmbraNode } from '../../../node/node.ts';
import { txBytes } from '../../../core/applyBlock.ts';
import { MAX_BLOCK_TX_BYTES } from '../../../core/genesis.ts';
import { DEV_KEYS, openTestChain } from '../../helpers/testChain.ts';

test('importBlocks applies each block on the state its predecessors leave and equals importing them one by one', async () => {
  const src = await openTestChain();
  const one = await openTestChain();
  const many = await openTestChain();
  try {
    for (let i = 0; i < 5; i++) {
      await src.node.submitTx(src.transfer(1, DEV_KEYS[2].address, 10n + BigInt(i)));
      await src.node.submitTx(src.transfer(2, DEV_KEYS[3].address, 20n + BigInt(i)));
      await src.produce();
    }
    const blocks = await src.node.store.blocksIn(1, 5);
    for (const c of [one, many]) c.advance(src.now() - c.now());
    for (const b of blocks) await one.node.importBlock(b);
    const events: ChainEvent[] = [];
    const sub = many.node.events$.subscribe((e) => events.push(e));
    const imported = await many.node.importBlocks(blocks);
    sub.unsubscribe();
    assert.deepEqual(
      imported.map((b) => b.hash),
      blocks.map((b) => b.hash),
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'block').map((e) => (e.type === 'block' ? e.block.index : -1)),
      [1, 2, 3, 4, 5],
    );
    assert.equal(many.node.head().hash, src.node.head().hash);
    assert.deepEqual(await many.node.runner.dump(), await one.node.runner.dump());
  } finally {
    await src.destroy();
    await one.destroy();
    await many.destroy();
  }
});

test('a group with an invalid block keeps the valid blocks before it, announces only those, and rethrows the fault', async () => {
  const src = await openTestChain();
  const dst = await openTestChain();
  try {
    await src.produce(4);
    const blocks = await src.node.store.blocksIn(1, 4);
    blocks[2] = { ...blocks[2], stateRoot: '00'.repeat(32) };
    dst.advance(src.now() - dst.now());
    const heads: number[] = [];
    const sub = dst.node.events$.subscribe((e) => e.type === 'block' && heads.push(e.block.index));
    const err = await dst.node.importBlocks(blocks).catch((e: Error) => e);
    sub.unsubscribe();
    assert.match(String(err), /block 3/);
    assert.deepEqual(heads, [1, 2]);
    assert.equal(dst.node.head().index, 2);
    assert.equal((await dst.node.store.block(3)) ?? null, null, 'nothing after the fault was written');
  } finally {
    await src.destroy();
    await dst.destroy();
  }
});

test("importBlocks takes the transactions' byte counts a caller measured: the block limit is judged on them", async () => {
  const src = await openTestChain();
  const dst = await openTestChain();
  try {
    await src.node.submitTx(src.transfer(1, DEV_KEYS[2].address, 10n));
    await src.produce(2);
    const blocks = await src.node.store.blocksIn(1, 2);
    dst.advance(src.now() - dst.now());
    // A figure above the limit is the caller's word: the block is refused on it.
    const err = await dst.node.importBlocks(blocks, [], [txBytes(blocks[0].transactions), MAX_BLOCK_TX_BYTES + 1]).catch((e: Error) => e);
    assert.match(String(err), /block 2: transactions take/);
    assert.equal(dst.node.head().index, 1);
    assert.deepEqual(await dst.node.importBlocks(blocks.slice(1), [], [txBytes(blocks[1].transactions)]), [blocks[1]]);
    assert.equal(dst.node.head().hash, src.node.head().hash);
  } finally {
    await src.destroy();
    await dst.destroy();
  }
});

/** Heights of the blocks the undo log holds records for. */
async function undoHeights(node: OmbraNode): Promise<number[]> {
  const out: number[] = [];
  for await (const key of node.store.sublevel('undo').keys()) out.push(Number(key as string));
  return out.sort((a, b) => a - b);
}

test('a horizon past the group leaves blocks deeper than the undo depth below it without undo records; without one, every block near the head keeps them', async () => {
  const src = await openTestChain();
  const plain = await openTestChain({ undoDepth: 3 });
  const ahead = await openTestChain({ undoDepth: 3 });
  try {
    for (let i = 0; i < 8; i++) {
      await src.node.submitTx(src.transfer(1, DEV_KEYS[2].address, 10n + BigInt(i)));
      await src.produce();
    }
    const blocks = await src.node.store.blocksIn(1, 8);
    for (const c of [plain, ahead]) c.advance(src.now() - c.now());
    await plain.node.importBlocks(blocks.slice(0, 6));
    // Verified blocks up to 8 are known: 1..5 are more than 3 below 8, and only 6 keeps its record.
    await ahead.node.importBlocks(blocks.slice(0, 6), [], [], { horizon: 8 });
    await plain.node.runner.flush();
    await ahead.node.runner.flush();
    assert.deepEqual(await undoHeights(plain.node), [4, 5, 6]);
    assert.deepEqual(await undoHeights(ahead.node), [6]);
    // The horizon holds for that import only: the next one without it keeps records as before.
    await ahead.node.importBlocks(blocks.slice(6));
    await ahead.node.runner.flush();
    assert.deepEqual(await undoHeights(ahead.node), [6, 7, 8]);
    assert.deepEqual(await ahead.node.runner.dump(), await plain.node.importBlocks(blocks.slice(6)).then(() => plain.node.runner.dump()));
  } finally {
    await src.destroy();
    await plain.destroy();
    await ahead.destroy();
  }
});

test('a group that fails midway ignores the horizon: the blocks it kept near the new head keep their undo records', async () => {
  const src = await openTestChain();
  const dst = await openTestChain({ undoDepth: 3 });
  try {
    await src.produce(6);
    const blocks = await src.node.store.blocksIn(1, 6);
    blocks[4] = { ...blocks[4], stateRoot: '00'.repeat(32) };
    dst.advance(src.now() - dst.now());
    const err = await dst.node.importBlocks(blocks, [], [], { horizon: 100 }).catch((e: Error) => e);
    assert.match(String(err), /block 5/);
    await dst.node.runner.flush();
    assert.deepEqual(await undoHeights(dst.node), [2, 3, 4]);
  } finally {
    await src.destroy();
    await dst.destroy();
  }
});
