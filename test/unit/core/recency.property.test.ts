/** Recency in a Map's order (core/recency.ts): second-chance eviction against a reference model. */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evictOldest, makeRoom, noteUse } from '../../../core/recency.ts';

type Op = { use: number } | { evict: number };
const ops = fc.array(fc.oneof(fc.record({ use: fc.integer({ min: 0, max: 30 }) }), fc.record({ evict: fc.integer({ min: 0, max: 12 }) })), {
  maxLength: 200,
});

/**
 * The reference: a list, oldest first, with a mark a key; an eviction walks from the oldest,
 * moving a marked key to the young end unmarked and dropping an unmarked one, as CLOCK does.
 */
function model(list: { key: number; value: number; marked: boolean }[], op: Op, pinned: (k: number) => boolean): void {
  if ('use' in op) {
    const held = list.find((e) => e.key === op.use);
    if (held) {
      held.value++;
      held.marked = true;
    } else list.push({ key: op.use, value: 0, marked: false });
    return;
  }
  let excess = op.evict;
  for (let i = 0; i < list.length && excess > 0; ) {
    const e = list[i];
    if (pinned(e.key)) i++;
    else if (e.marked) {
      e.marked = false;
      list.splice(i, 1);
      // Visited again when the walk comes round to it.
      list.push(e);
    } else {
      list.splice(i, 1);
      excess--;
    }
  }
}

test('uses and evictions keep the same keys, values and order as the second-chance reference', () => {
  fc.assert(
    fc.property(ops, fc.integer({ min: 0, max: 3 }), (list, pinMod) => {
      const pinned = (k: number) => pinMod > 0 && k % 7 === pinMod;
      const map = new Map<number, number>();
      const used = new Set<number>();
      const ref: { key: number; value: number; marked: boolean }[] = [];
      for (const op of list) {
        if ('use' in op) noteUse(map, used, op.use, map.has(op.use) ? (map.get(op.use) as number) + 1 : 0);
        else evictOldest(map, used, op.evict, pinned);
        model(ref, op, pinned);
        assert.deepEqual(
          [...map],
          ref.map((e) => [e.key, e.value]),
        );
        assert.deepEqual(
          [...used].sort((a, b) => a - b),
          ref
            .filter((e) => e.marked)
            .map((e) => e.key)
            .sort((a, b) => a - b),
        );
      }
    }),
  );
});

test('a key used before every pass is never evicted while unused ones remain', () => {
  const map = new Map<string, number>();
  const used = new Set<string>();
  for (let i = 0; i < 100; i++) noteUse(map, used, `k${i}`, i);
  for (let round = 0; round < 50; round++) {
    noteUse(map, used, 'k0', round);
    noteUse(map, used, `new${round}`, round);
    evictOldest(map, used, map.size - 100);
    assert.equal(map.size, 100);
    assert.equal(map.get('k0'), round);
  }
});

test('without marks (an unbounded map) a use writes in place and nothing is remembered', () => {
  const map = new Map([
    ['a', 1],
    ['b', 2],
  ]);
  noteUse(map, undefined, 'a', 3);
  noteUse(map, undefined, 'c', 4);
  assert.deepEqual(
    [...map],
    [
      ['a', 3],
      ['b', 2],
      ['c', 4],
    ],
  );
  evictOldest(map, undefined, 1);
  assert.deepEqual([...map.keys()], ['b', 'c']);
});

test('marks of keys removed elsewhere are dropped by the next pass', () => {
  const map = new Map([
    ['a', 1],
    ['b', 2],
    ['c', 3],
  ]);
  const used = new Set<string>();
  noteUse(map, used, 'b', 5);
  noteUse(map, used, 'c', 6);
  map.delete('b');
  map.delete('c');
  evictOldest(map, used, 1);
  assert.equal(map.size, 0);
  assert.equal(used.size, 0);
});

test('makeRoom drops the oldest key of a full map or set, and nothing below the cap', () => {
  const m = new Map([
    ['a', 1],
    ['b', 2],
  ]);
  makeRoom(m, 3);
  assert.deepEqual([...m.keys()], ['a', 'b']);
  makeRoom(m, 2);
  assert.deepEqual([...m.keys()], ['b']);
  const s = new Set(['x', 'y']);
  makeRoom(s, 1);
  assert.deepEqual([...s], ['y']);
});
