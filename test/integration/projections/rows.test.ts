/**
 * Typed rows (projections/rows.ts): each kind's keys are exactly the layout on disk (a node
 * upgraded in place reads the rows an older one wrote), a group reads its own rows and no
 * neighbour's, and a numbered page is the slice of the list at any size, offset and limit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Level } from 'level';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimRow, finishRow, requestRow, runIndexRows, stepRows } from '../../../projections/agentRuns.ts';
import { blockHeightRow, historyCountRow, historyRows, txLocationRow } from '../../../projections/chainIndex.ts';
import { authorConversationRows, conversationRow, turnRows } from '../../../projections/chat.ts';
import { chunkRows, chunkSizeRows } from '../../../projections/content.ts';
import { kindRows, ownerCountRow, ownerRows } from '../../../projections/recordLists.ts';
import { numberedRows, type RowReader, row, rowGroup } from '../../../projections/rows.ts';
import {
  authorPostRows,
  dmCountRow,
  dmRows,
  feedRows,
  likeRows,
  postCountRow,
  postRow,
  profileRow,
  queueRows,
  subscriptionRows,
} from '../../../projections/social.ts';
import {
  countersRow,
  frozenRows,
  liveRow,
  responseRows,
  rewardRow,
  taskNumberRows,
  taskRow,
  validationRow,
} from '../../../projections/taskRows.ts';
import type { Rows } from '../../../projections/store.ts';
import { siteReleaseRows } from '../../../projections/webDrive.ts';

const N = (n: number) => String(n).padStart(12, '0');

test('every kind of row keeps the key its rows were stored under', () => {
  const keys: [string, string][] = [
    [postRow.key('p1'), 'post!p1'],
    [feedRows.key(undefined, 3), `feed!${N(3)}`],
    [authorPostRows.key('0xa', 2), `by!0xa!${N(2)}`],
    [dmRows.key('0xa', 0), `dm!0xa!${N(0)}`],
    [postCountRow.key('0xa'), 'byc!0xa'],
    [dmCountRow.key('0xa'), 'dmc!0xa'],
    [subscriptionRows.key('0xa', '0xb'), 'sub!0xa!0xb'],
    [queueRows.key('0xa', 7), `queue!0xa!${N(7)}`],
    [likeRows.key('p1', { reaction: '0xa' }), 'like!p1!r!0xa'],
    [likeRows.key('p1', { intent: 'i9' }), 'like!p1!i!i9'],
    [profileRow.key('0xa'), 'profile!0xa'],
    [taskRow.key('t1'), 't!t1'],
    [taskNumberRows.key(undefined, 5), `n!${N(5)}`],
    [frozenRows.key('rewarded', 1), `z!rewarded!${N(1)}`],
    [liveRow.key(4), `!l!${N(4)}`],
    [countersRow.key(null), '!m'],
    [responseRows.key('t1', 3), 'r!t1!03'],
    [validationRow.key('t1'), 'v!t1'],
    [rewardRow.key('t1'), 'w!t1'],
    [requestRow.key('r1'), 'q!r1'],
    [claimRow.key('r1'), 'c!r1'],
    [finishRow.key('r1'), 'f!r1'],
    [stepRows.key('r1', 4), 'p!r1!004'],
    [runIndexRows.key(['status', 'claimed'], '000000000009!00001'), 's!claimed!000000000009!00001'],
    [runIndexRows.key(['submitter', '0xa'], 'o'), 'u!0xa!o'],
    [runIndexRows.key(['miner', '0xb'], 'o'), 'm!0xb!o'],
    [conversationRow.key('c1'), 'k!c1'],
    [turnRows.key('c1', 'o'), 't!c1!o'],
    [authorConversationRows.key('0xa', 'o'), 'a!0xa!o'],
    [blockHeightRow.key('ab'), 'ab'],
    [txLocationRow.key('cd'), 'cd'],
    [historyCountRow.key('0xa'), 'c!0xa'],
    [historyRows.key('0xa', 2), `h!0xa!${N(2)}`],
    [kindRows.key('miners', 1), `miners!n!${N(1)}`],
    [ownerRows.key(['nfts', '0xa'], 0), `nfts!o!0xa!${N(0)}`],
    [ownerCountRow.key(['imageNfts', '0xa']), 'imageNfts!c!0xa'],
    [chunkRows.key(['blob', 'b1'], 12), 'blob:b1:000012'],
    [chunkSizeRows.key(['blob', 'b1'], 12), 'size:blob:b1:000012'],
    [siteReleaseRows.key('s1', 3), 'r!s1!00000003'],
  ];
  for (const [key, stored] of keys) assert.equal(key, stored);
});

test('a put is fresh only when asked, and a numbered row always is', () => {
  const kind = row<{ v: number }>('x!');
  assert.deepEqual(kind.put('a', { v: 1 }), { type: 'put', key: 'x!a', value: { v: 1 } });
  assert.deepEqual(kind.put('a', { v: 1 }, true), { type: 'put', key: 'x!a', value: { v: 1 }, fresh: true });
  assert.deepEqual(kind.del('a'), { type: 'del', key: 'x!a' });
  assert.deepEqual(feedRows.put(undefined, 0, 'p'), { type: 'put', key: `feed!${N(0)}`, value: 'p', fresh: true });
  assert.ok(kind.owns('x!a') && !kind.owns('y!a'));
  assert.equal(kind.idOf('x!abc'), 'abc');
});

/** A LevelDB key space for one test, removed after it. */
async function withRows(body: (rows: RowReader, put: (key: string, value: unknown) => Promise<void>) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ombra-rows-'));
  const db = new Level<string, unknown>(join(dir, 'db'), { valueEncoding: 'json' });
  await db.open();
  const sub: Rows = db.sublevel('model', { valueEncoding: 'json' });
  try {
    await body(sub, (key, value) => sub.put(key, value));
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a group reads its own rows, in order, and none of the groups beside it', async () => {
  const succ = rowGroup<string>((g) => `g!${g}!`);
  const tilde = rowGroup<string>((g) => `g!${g}!`, String, '~');
  await withRows(async (rows, put) => {
    for (const key of ['g!a!1', 'g!a!2', 'g!a!3', 'g!ab!1', 'g!a"', 'g!b!1', 'g!a!\u00e9']) await put(key, key);
    const read = async (it: AsyncIterable<string>) => {
      const out: string[] = [];
      for await (const v of it) out.push(v);
      return out;
    };
    assert.deepEqual(await read(succ.values(rows, 'a')), ['g!a!1', 'g!a!2', 'g!a!3', 'g!a!\u00e9']);
    // A `~` bound stops where its readers always stopped.
    assert.deepEqual(await read(tilde.values(rows, 'a')), ['g!a!1', 'g!a!2', 'g!a!3']);
    assert.deepEqual(await read(succ.values(rows, 'a', { reverse: true, limit: 2 })), ['g!a!\u00e9', 'g!a!3']);
    assert.deepEqual(await read(succ.values(rows, 'a', { from: '2', through: '3' })), ['g!a!2', 'g!a!3']);
    assert.deepEqual(await read(succ.values(rows, 'a', { from: '1', below: '3' })), ['g!a!1', 'g!a!2']);
    assert.equal(await succ.get(rows, 'ab', '1'), 'g!ab!1');
    assert.equal(await succ.get(rows, 'ab', '2'), undefined);
  });
});

test('a numbered page is the slice of the list at any size, limit and offset, either way round', async () => {
  const list = numberedRows<number, string>((g) => `l!${g}!`);
  const SIZE = 40;
  await withRows(async (rows, put) => {
    for (let n = 0; n < SIZE; n++) await put(list.key('x', n), n);
    // A neighbouring list must never leak into a page.
    for (let n = 0; n < 5; n++) await put(list.key('xy', n), -1);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: SIZE }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 50 }),
        fc.boolean(),
        async (size, limit, offset, newestFirst) => {
          const all = Array.from({ length: size }, (_, n) => n);
          const expected = (newestFirst ? all.reverse() : all).slice(offset, offset + limit);
          assert.deepEqual(await list.page(rows, 'x', size, limit, offset, newestFirst), expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
