import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UndoLog, type UndoEntry } from '../../../projections/undoLog.ts';
import type { Rows } from '../../../projections/store.ts';

/** A projection's rows in memory, counting which keys the log reads back. */
function fakeRows(rows: Record<string, unknown>) {
  const read: string[] = [];
  const sub = {
    getMany: async (keys: string[]) => {
      read.push(...keys);
      return keys.map((k) => rows[k]);
    },
  } as unknown as Rows;
  return { sub, read };
}

const records = (ops: { key: string; value?: unknown }[]) =>
  Object.fromEntries(ops.map((o) => [o.key, o.value as Record<string, UndoEntry>]));

test('a fresh put is recorded as an absent row without reading it; other rows keep their previous values', async () => {
  const rows = fakeRows({ 'c!a': 2 });
  const log = new UndoLog(fakeRows({}).sub, 128);
  log.note(5, 'history', [
    { type: 'put', key: 'h!a!2', value: 'x', fresh: true },
    { type: 'put', key: 'c!a', value: 3 },
  ]);
  log.note(6, 'history', [
    { type: 'put', key: 'h!a!3', value: 'y', fresh: true },
    // Block 6 rewrites block 5's fresh row: its value before block 6 is block 5's.
    { type: 'put', key: 'h!a!2', value: 'z' },
    { type: 'put', key: 'c!a', value: 4 },
  ]);
  const out = records(await log.drain(() => rows.sub));
  assert.deepEqual(rows.read.sort(), ['c!a', 'h!a!2']);
  assert.deepEqual(out['000000000005'].history.kv, [['c!a', 2]]);
  assert.deepEqual(out['000000000005'].history.fresh, ['h!a!2']);
  assert.deepEqual(out['000000000006'].history.kv, [
    ['h!a!2', 'x'],
    ['c!a', 3],
  ]);
  assert.deepEqual(out['000000000006'].history.fresh, ['h!a!3']);
});

test('a projection that only writes fresh rows reads nothing back', async () => {
  const rows = fakeRows({});
  const log = new UndoLog(fakeRows({}).sub, 128);
  log.note(1, 'txIndex', [
    { type: 'put', key: 'aa', value: 1, fresh: true },
    { type: 'put', key: 'bb', value: 2, fresh: true },
  ]);
  const out = records(await log.drain(() => rows.sub));
  assert.deepEqual(rows.read, []);
  assert.deepEqual(out['000000000001'].txIndex.kv, []);
  assert.deepEqual(out['000000000001'].txIndex.fresh, ['aa', 'bb']);
});

test('stepping back removes the rows a block created after restoring the rest, even a row the block rewrote', async () => {
  const rows = fakeRows({ 'c!a': 2 });
  const stored = new Map<string, unknown>();
  const undoRows = { get: async (k: string) => stored.get(k) } as unknown as Rows;
  const log = new UndoLog(undoRows, 128);
  log.note(5, 'history', [
    { type: 'put', key: 'h!a!2', value: 'x', fresh: true },
    { type: 'put', key: 'h!a!2', value: 'y' },
    { type: 'put', key: 'c!a', value: 3 },
  ]);
  log.note(6, 'history', [{ type: 'put', key: 'h!a!2', value: 'z' }]);
  for (const op of await log.drain(() => rows.sub)) if (op.type === 'put') stored.set(op.key, op.value);
  // Replays the rollback's writes over the rows as block 6 left them.
  const after = new Map<string, unknown>([
    ['c!a', 3],
    ['h!a!2', 'z'],
  ]);
  const back = await log.rollback(4, 6, () => rows.sub);
  for (const op of back!.ops.filter((o) => o.sublevel === rows.sub)) {
    if (op.type === 'put') after.set(op.key, op.value);
    else after.delete(op.key);
  }
  assert.deepEqual([...after], [['c!a', 2]]);
  const at4 = await log.rowsAt('history', 4, 6);
  assert.deepEqual(
    [...at4!],
    [
      ['h!a!2', undefined],
      ['c!a', 2],
    ],
  );
});
