/**
 * The journal of reorganisations (node/writer/reorgJournal.ts): what a client holding a replaced
 * block lost, across later switches from lower down, and kept across a reopen.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ChainStore } from '../../../../node/store/chainStore.ts';
import { ReorgJournal, type ReorgRecord } from '../../../../node/writer/reorgJournal.ts';
import { tempDir } from '../../../helpers/testChain.ts';

const h = (tag: string, height: number) => `${tag}${height}`.padEnd(64, '0');
const branch = (tag: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => h(tag, from + i));

/** Records a switch from `fromHeight`, dropping `dropped`, with its rows written as the log's batch would. */
async function record(db: ChainStore, j: ReorgJournal, fromHeight: number, dropped: string[], tip: string): Promise<void> {
  const r: Omit<ReorgRecord, 'seq'> = {
    fromHeight,
    oldHead: { index: fromHeight + dropped.length - 1, hash: dropped.at(-1) ?? '' },
    newHead: { index: fromHeight + dropped.length, hash: tip },
    dropped,
  };
  const { ops, record } = j.recordOps(r);
  await db.write(ops);
  j.commit(record);
}

test('a replaced block names the client blocks from where its branch left the chain, through later switches from lower down', async () => {
  const tmp = tempDir();
  const open = () => ChainStore.open(join(tmp.dir, 'db'));
  let db = await open();
  try {
    const j = new ReorgJournal(db.sublevel('local:reorgs'));
    await j.load();
    // Branch a (blocks a5..a8) is dropped for b from 5; then b's blocks b3.. are dropped from 3 for c.
    await record(db, j, 5, branch('a', 5, 8), h('b', 9));
    assert.deepEqual(j.replaced(7, h('a', 7)), { fromHeight: 5, dropped: branch('a', 5, 7) });
    assert.equal(j.replaced(7, h('b', 7)), null, 'a block no switch dropped');
    assert.equal(j.replaced(9, h('a', 7)), null, 'a hash at another height');
    await record(db, j, 3, [...branch('x', 3, 4), ...branch('b', 5, 9)], h('c', 10));
    // The client on a still holds its blocks 3 and 4 (x3, x4: the common ancestors a was built on), gone too.
    assert.deepEqual(j.replaced(7, h('a', 7)), { fromHeight: 3, dropped: [h('x', 3), h('x', 4), ...branch('a', 5, 7)] });
    assert.deepEqual(j.replaced(6, h('b', 6)), { fromHeight: 3, dropped: [h('x', 3), h('x', 4), h('b', 5), h('b', 6)] });
    // A later switch from higher up changes nothing below it.
    await record(db, j, 9, [h('c', 9), h('c', 10)], h('d', 11));
    assert.deepEqual(j.replaced(7, h('a', 7)), { fromHeight: 3, dropped: [h('x', 3), h('x', 4), ...branch('a', 5, 7)] });
    await db.close();
    // Reopened: the same answers, from the rows.
    db = await open();
    const again = new ReorgJournal(db.sublevel('local:reorgs'));
    await again.load();
    assert.deepEqual(again.replaced(7, h('a', 7)), j.replaced(7, h('a', 7)));
    assert.deepEqual(again.replaced(10, h('c', 10)), { fromHeight: 9, dropped: [h('c', 9), h('c', 10)] });
  } finally {
    await db.close();
    tmp.cleanup();
  }
});

test('the journal keeps the newest 256 switches, in memory and in its rows', async () => {
  const tmp = tempDir();
  const db = await ChainStore.open(join(tmp.dir, 'db'));
  try {
    const rows = db.sublevel('local:reorgs');
    const j = new ReorgJournal(rows);
    await j.load();
    for (let i = 1; i <= 260; i++) await record(db, j, i * 2, [h('z', i * 2)], h('y', i * 2));
    assert.equal(j.replaced(2, h('z', 2)), null, 'the oldest ones are forgotten');
    assert.deepEqual(j.replaced(520, h('z', 520)), { fromHeight: 520, dropped: [h('z', 520)] });
    assert.equal((await rows.keys().all()).length, 256);
  } finally {
    await db.close();
    tmp.cleanup();
  }
});
