/**
 * The folded state as the sink saves it (sink/savedState.ts) and reads it back, without a
 * database, over the recorded simulated chain (every transaction type, every record kind): the
 * state read back equals the state saved, folds the rest of the chain to the same state root and
 * rows as a fold from genesis, and saves after the first write only the entries that changed
 * (reverted blocks included).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Block } from '../../../core/block.ts';
import { parseGenesis } from '../../../core/genesis.ts';
import { addBlockRows, emptyRows } from '../../../sink/blockRows.ts';
import { FoldState } from '../../../sink/foldState.ts';
import { imageOf, type StateRows, stateRows } from '../../../sink/savedState.ts';

const lines = readFileSync(new URL('../../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const genesis = parseGenesis(lines[0].genesis);
const blocks = lines.slice(1) as Block[];

/** A saved table: the rows of each save applied in turn. */
function applySave(table: Map<string, string>, rows: StateRows): void {
  if (rows.all) table.clear();
  for (const key of rows.deletes) table.delete(key);
  for (const [key, value] of rows.upserts) table.set(key, value);
}

/** Every entry of a fold as comparable values. */
function snapshot(fold: FoldState): unknown {
  const records = [...fold.records()].map(([kind, m]) => [kind, [...m].sort(([a], [b]) => (a < b ? -1 : 1))]);
  return { head: fold.head, accounts: [...fold.accounts()].sort(([a], [b]) => (a < b ? -1 : 1)), records, supply: fold.supply };
}

test('a state read back equals the one saved and folds the rest of the chain as a fold from genesis does', () => {
  const mid = Math.floor(blocks.length / 2);
  const saved = new FoldState(genesis, 100);
  for (const b of blocks.slice(1, mid)) saved.apply(b);
  const table = new Map<string, string>();
  const rows = stateRows(saved);
  assert.equal(rows.all, true, 'a fold from genesis saves every entry the first time');
  applySave(table, rows);
  const image = imageOf(rows.head, table);
  assert.ok(image);
  const loaded = new FoldState(genesis, 100, image);
  assert.deepEqual(snapshot(loaded), snapshot(saved));
  // The rest of the chain: applyBlock checks each block's state root against the folded state.
  const fromGenesis = emptyRows();
  const fromSaved = emptyRows();
  for (const b of blocks.slice(mid)) {
    const a = saved.apply(b);
    addBlockRows(fromGenesis, b, a.diff, a.before);
    const c = loaded.apply(b);
    addBlockRows(fromSaved, b, c.diff, c.before);
  }
  assert.deepEqual(fromSaved, fromGenesis);
  assert.deepEqual(snapshot(loaded), snapshot(saved));
});

test('after the first save only changed entries are written, reverted blocks included', () => {
  const fold = new FoldState(genesis, 100);
  // A twin folds the same blocks and is read whole: what the saved table must equal.
  const twin = new FoldState(genesis, 100);
  const whole = () => {
    twin.changedAll();
    return new Map(stateRows(twin).upserts);
  };
  const table = new Map<string, string>();
  const mid = Math.floor(blocks.length / 2);
  for (const b of blocks.slice(1, mid)) {
    fold.apply(b);
    twin.apply(b);
  }
  applySave(table, stateRows(fold));
  for (const b of blocks.slice(mid, mid + 5)) {
    fold.apply(b);
    twin.apply(b);
  }
  const next = whole();
  const changed = [...next].filter(([k, v]) => table.get(k) !== v).map(([k]) => k);
  const some = stateRows(fold);
  assert.equal(some.all, false);
  assert.ok(changed.length > 1 && changed.length < next.size, `${changed.length} changed of ${next.size}`);
  assert.deepEqual([...some.upserts].map(([k]) => k).sort(), changed.sort());
  applySave(table, some);
  assert.deepEqual(table, next);
  // Back three blocks (a reorganisation): the entries those blocks changed are saved again.
  assert.ok(fold.revertTo(mid + 1));
  assert.ok(twin.revertTo(mid + 1));
  applySave(table, stateRows(fold));
  assert.deepEqual(table, whole());
  const image = imageOf(fold.head, table);
  assert.ok(image);
  assert.deepEqual(snapshot(new FoldState(genesis, 100, image)), snapshot(fold));
  // Nothing changed since: a save is the supply alone.
  assert.deepEqual(
    [...stateRows(fold).upserts].map(([k]) => k),
    ['s'],
  );
});

test('a saved state holding a record kind this binary does not know is not used', () => {
  const fold = new FoldState(genesis, 100);
  const rows = stateRows(fold);
  assert.ok(imageOf(rows.head, rows.upserts));
  assert.equal(imageOf(rows.head, [...rows.upserts, ['r:unheardOf:1', '{}']]), null);
});
