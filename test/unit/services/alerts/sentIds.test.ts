import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Rows } from '../../../../projections/store.ts';
import { SentIds } from '../../../../services/alerts/sentIds.ts';

/** Sent-id rows in memory, as the outbox's `local:alerts:sent` sublevel holds them. */
function rowsOf(entries: [string, number][]): Rows {
  return {
    iterator: async function* () {
      yield* entries;
    },
  } as unknown as Rows;
}

test('ids on disk are known after load', async () => {
  const sent = new SentIds(rowsOf([['d1', 5]]));
  assert.ok(!sent.has('d1'));
  await sent.load();
  assert.ok(sent.has('d1'));
});

test('a noted id is stored with its height and ids 1024 blocks older are dropped in the same writes', async () => {
  const rows = rowsOf([
    ['old', 10],
    ['edge', 11],
  ]);
  const sent = new SentIds(rows);
  await sent.load();
  const ops = sent.note('new', 1035);
  assert.deepEqual(
    ops.map((o) => [o.type, o.key]),
    [
      ['put', 'new'],
      ['del', 'old'],
    ],
  );
  assert.equal(ops[0].type === 'put' && ops[0].value, 1035);
  assert.ok(ops.every((o) => o.sublevel === rows));
  assert.ok(sent.has('new') && sent.has('edge'));
  assert.ok(!sent.has('old'));
});
