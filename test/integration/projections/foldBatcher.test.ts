/**
 * The fold batcher (projections/foldBatcher.ts): rows folded but not yet on disk are read back
 * as the disk would give them, a group of blocks folded across awaits goes out as one batch, and
 * nothing read through it ever differs from what a flush then a disk read would answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FoldBatcher } from '../../../projections/foldBatcher.ts';
import type { KvOp, Projection } from '../../../projections/projection.ts';
import type { Slot } from '../../../projections/slot.ts';
import type { ProjectionStore, RowOp, Rows } from '../../../projections/store.ts';
import { UndoLog } from '../../../projections/undoLog.ts';

/** A real LevelDB store whose batches can be held in flight, counting the batches written. */
function rig() {
  const dir = mkdtempSync(join(tmpdir(), 'ombra-foldbatcher-'));
  const db = new Level<string, unknown>(join(dir, 'db'), { valueEncoding: 'json' });
  const subs = new Map<string, Rows>();
  const sublevel = (name: string) => {
    let s = subs.get(name);
    if (!s) subs.set(name, (s = db.sublevel<string, unknown>(name, { valueEncoding: 'json' }) as Rows));
    return s;
  };
  let gate: Promise<void> | null = null;
  const batches: RowOp[][] = [];
  const store: ProjectionStore = {
    sublevel,
    head: () => null,
    async write(ops) {
      batches.push([...ops]);
      if (gate) await gate;
      await db.batch(ops as never);
    },
  };
  const undo = new UndoLog(sublevel('undo') as never, 16);
  const batcher = new FoldBatcher(store, sublevel('checkpoints'), undo, (name) => sublevel(`p:${name}`));
  const p: Projection<{ n: number }> = { name: 'rows', version: 1, init: () => ({ n: 0 }), apply: (s) => ({ state: s }) };
  const slot: Slot = { p, state: { n: 0 }, height: 0, sub: sublevel('p:rows') };
  /** Folds block `h` writing `ops` into the slot. */
  const fold = (h: number, ops: { type: 'put' | 'del'; key: string; value?: unknown; fresh?: true }[]) => {
    batcher.foldSlot(slot, h, () => ({ state: { n: h }, ops: ops as never }), false);
    batcher.touch(slot);
    batcher.writeSoon();
  };
  /** Holds every batch written from now on in flight until the returned function is called. */
  const holdWrites = () => {
    let open = () => {};
    gate = new Promise<void>((r) => {
      open = r;
    });
    return () => {
      gate = null;
      open();
    };
  };
  return {
    /** Opens the store (a node's always is; a read that reaches the disk needs it). */
    open: async () => {
      await db.open();
      await slot.sub.open();
    },
    batcher,
    slot,
    fold,
    holdWrites,
    batches,
    cleanup: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

/** A put of a key no block wrote before (what a model's new-key rows are). */
const fresh = (key: string, value: number): KvOp => ({ type: 'put', key, value, fresh: true });

test('rows folded but not yet written are read back as copies, the rest from disk', async () => {
  const r = rig();
  try {
    r.fold(1, [{ type: 'put', key: 'a', value: { v: 1 } }]);
    await r.batcher.flush();
    r.fold(2, [{ type: 'put', key: 'b', value: { v: 2, list: [1] } }]);
    const [a, b, c] = (await r.batcher.getMany(r.slot.sub, ['a', 'b', 'c'])) as { v: number; list?: number[] }[];
    assert.deepEqual(a, { v: 1 }, 'a written row comes from disk');
    assert.deepEqual(b, { v: 2, list: [1] }, 'a queued row comes from memory');
    assert.equal(c, undefined, 'an absent row is absent');
    b.list?.push(2);
    const [again] = await r.batcher.getMany(r.slot.sub, ['b']);
    assert.deepEqual(again, { v: 2, list: [1] }, 'the copy handed out is not the queued value');
    await r.batcher.flush();
    assert.deepEqual(await r.slot.sub.get('b'), { v: 2, list: [1] });
  } finally {
    await r.cleanup();
  }
});

test('a delete queued behind a put in flight reads as absent, without waiting for the disk', async () => {
  const r = rig();
  try {
    const open = r.holdWrites();
    r.fold(1, [
      { type: 'put', key: 'x', value: 'first' },
      { type: 'put', key: 'y', value: 'kept' },
    ]);
    await tick();
    assert.equal(r.batches.length, 1, 'block 1 is in flight');
    r.fold(2, [{ type: 'del', key: 'x' }]);
    await tick();
    assert.deepEqual(await r.batcher.getMany(r.slot.sub, ['x', 'y']), [undefined, 'kept']);
    assert.equal(await r.slot.sub.get('y'), undefined, 'nothing is on disk yet');
    open();
    await r.batcher.flush();
    assert.deepEqual(await r.batcher.getMany(r.slot.sub, ['x', 'y']), [undefined, 'kept']);
    assert.equal(await r.slot.sub.get('x'), undefined);
  } finally {
    await r.cleanup();
  }
});

test('a group folded across awaits goes out as one batch, a block alone as its own', async () => {
  const r = rig();
  try {
    r.batcher.hold();
    for (let h = 1; h <= 5; h++) {
      r.fold(h, [{ type: 'put', key: `k${h}`, value: h }]);
      await tick();
    }
    assert.equal(r.batches.length, 0, 'nothing written while the group is held');
    r.batcher.release();
    await r.batcher.flush();
    assert.equal(r.batches.length, 1, 'the group is one batch');
    assert.equal(r.batches[0].filter((op) => op.type === 'put' && op.key.startsWith('k')).length, 5);
    r.fold(6, [{ type: 'put', key: 'k6', value: 6 }]);
    await tick();
    await r.batcher.flush();
    assert.equal(r.batches.length, 2, 'a block folded alone is written at once');
  } finally {
    await r.cleanup();
  }
});

test('a flush during a held group writes at once', async () => {
  const r = rig();
  try {
    r.batcher.hold();
    r.fold(1, [{ type: 'put', key: 'k', value: 1 }]);
    await r.batcher.flush();
    assert.equal(r.batches.length, 1);
    assert.equal(await r.slot.sub.get('k'), 1);
    r.batcher.release();
  } finally {
    await r.cleanup();
  }
});

test('settling a held group writes what it queued, so the queue stays bounded', async () => {
  const r = rig();
  try {
    r.batcher.hold();
    r.fold(1, [{ type: 'put', key: 'a', value: 1 }]);
    r.fold(2, [{ type: 'put', key: 'b', value: 2 }]);
    assert.equal(r.batcher.backlog(), 2);
    await r.batcher.settle();
    assert.equal(r.batcher.backlog(), 0, 'the queue went out');
    assert.equal(r.batches.length, 1);
    r.batcher.release();
    await r.batcher.flush();
    assert.deepEqual(await r.batcher.getMany(r.slot.sub, ['a', 'b']), [1, 2]);
  } finally {
    await r.cleanup();
  }
});

test('fresh puts queued as folded, then other ops keyed over them: the disk ends as the last op of each key says, and a fresh put deleted in the same batch is not written', async () => {
  const r = rig();
  try {
    r.batcher.hold();
    r.fold(1, [fresh('a', 1), fresh('b', 1)]);
    r.fold(2, [fresh('c', 1)]);
    r.fold(3, [{ type: 'del', key: 'a' }]);
    r.fold(4, [{ type: 'put', key: 'b', value: 2 }, fresh('d', 1)]);
    r.batcher.release();
    await r.batcher.flush();
    const rows = r.batches[0].filter((op) => ['a', 'b', 'c', 'd'].includes(op.key));
    assert.deepEqual(
      rows.map((op) => [op.type, op.key]),
      [
        ['put', 'b'],
        ['put', 'c'],
        ['put', 'd'],
      ],
      'each key once, with its last op; a, put fresh and deleted, not at all',
    );
    assert.equal(await r.slot.sub.get('a'), undefined, 'a fresh put then a delete leaves the key absent');
    assert.equal(await r.slot.sub.get('b'), 2, 'the last put wins');
    assert.equal(await r.slot.sub.get('c'), 1);
    assert.equal(await r.slot.sub.get('d'), 1);
  } finally {
    await r.cleanup();
  }
});

test('a read of queued fresh puts answers them, and later ops are keyed over them', async () => {
  const r = rig();
  try {
    await r.open();
    r.batcher.hold();
    r.fold(1, [fresh('a', 1), fresh('b', 1)]);
    assert.deepEqual(await r.batcher.getMany(r.slot.sub, ['a', 'b']), [1, 1], 'fresh puts queued are read back');
    r.fold(2, [
      { type: 'del', key: 'a' },
      { type: 'put', key: 'b', value: 2 },
    ]);
    assert.deepEqual(await r.batcher.getMany(r.slot.sub, ['a', 'b']), [undefined, 2]);
    r.fold(3, [{ type: 'put', key: 'a', value: 3 }]);
    r.fold(4, [{ type: 'del', key: 'b' }]);
    assert.deepEqual(await r.batcher.getMany(r.slot.sub, ['a', 'b']), [3, undefined]);
    r.batcher.release();
    await r.batcher.flush();
    const rows = r.batches[0].filter((op) => op.key === 'a' || op.key === 'b');
    assert.deepEqual(
      rows.map((op) => [op.type, op.key]).sort((x, y) => x[1].localeCompare(y[1])),
      [
        ['put', 'a'],
        ['del', 'b'],
      ],
      'once read, each key goes out once, with its last op (b was on no disk, but its put was not fresh)',
    );
    assert.equal(await r.slot.sub.get('a'), 3);
    assert.equal(await r.slot.sub.get('b'), undefined);
  } finally {
    await r.cleanup();
  }
});

test('writing behind starts the queue out without waiting for it, and waits only for a batch still in flight', async () => {
  const r = rig();
  try {
    const open = r.holdWrites();
    r.batcher.hold();
    r.fold(1, [{ type: 'put', key: 'a', value: 1 }]);
    await r.batcher.writeBehind();
    assert.equal(r.batches.length, 1, 'the held queue went out, and its write was not waited for');
    r.fold(2, [{ type: 'put', key: 'b', value: 2 }]);
    let done = false;
    const behind = r.batcher.writeBehind().then(() => {
      done = true;
    });
    await tick();
    assert.equal(done, false, 'a batch still in flight is waited for');
    assert.equal(r.batches.length, 1);
    open();
    await behind;
    assert.equal(r.batches.length, 2, 'then the queue goes out');
    r.batcher.release();
    await r.batcher.flush();
    assert.deepEqual(await r.batcher.getMany(r.slot.sub, ['a', 'b']), [1, 2]);
  } finally {
    await r.cleanup();
  }
});
