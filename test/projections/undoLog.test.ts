import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { UndoLog, type UndoEntry } from '../../projections/undoLog.ts';
import type { Rows } from '../../projections/store.ts';

const t = suite('undo log');

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

t('a fresh put is recorded as an absent row without reading it; other rows keep their previous values', async () => {
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
  assert.equal(rows.read.sort(), ['c!a', 'h!a!2']);
  assert.equal(out['000000000005'].history.kv, [['h!a!2'], ['c!a', 2]]);
  assert.equal(out['000000000006'].history.kv, [['h!a!3'], ['h!a!2', 'x'], ['c!a', 3]]);
});

t('a projection that only writes fresh rows reads nothing back', async () => {
  const rows = fakeRows({});
  const log = new UndoLog(fakeRows({}).sub, 128);
  log.note(1, 'txIndex', [
    { type: 'put', key: 'aa', value: 1, fresh: true },
    { type: 'put', key: 'bb', value: 2, fresh: true },
  ]);
  const out = records(await log.drain(() => rows.sub));
  assert.equal(rows.read, []);
  assert.equal(out['000000000001'].txIndex.kv, [['aa'], ['bb']]);
});

t.run();
