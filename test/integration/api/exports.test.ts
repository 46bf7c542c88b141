/**
 * The CSV exports over the recorded simulated chain: an address's transactions (every one, or
 * filtered by type, direction and time exactly as the JSON list would be), a block's
 * transactions, the task list by status; each a header and one row per item, cells quoted as RFC
 * 4180 says and formula-looking cells made inert; bad filters 400 and unknown blocks 404. The
 * JSON list of an address's transactions takes the same filters.
 */
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGenesis } from '../../../core/genesis.ts';
import { csvCell } from '../../../api/resources/exports/exportRoutes.ts';
import type { TestChain } from '../../helpers/testChain.ts';
import { assertError, get, withChain } from '../../helpers/apiSupport.ts';

const lines = readFileSync(new URL('../../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const genesis = parseGenesis(lines[0].genesis);

const simulated = <T>(fn: (c: TestChain) => Promise<T>) =>
  withChain(
    async (c) => {
      for (const b of lines.slice(2)) await c.node.importBlock(b);
      return fn(c);
    },
    { genesis },
  );

/** A CSV answer's rows (a simple reader: the fixture's cells hold no line breaks), header first. */
async function csv(c: TestChain, path: string): Promise<string[][]> {
  const res = await c.app.request(path);
  assert.equal(res.status, 200, path);
  assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
  assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename=".+\.csv"$/);
  const text = await res.text();
  assert.ok(text.endsWith('\r\n'));
  return text
    .slice(0, -2)
    .split('\r\n')
    .map((l) => l.split(','));
}

/** Every transaction of an address, newest first, through the JSON list. */
async function allTxs(c: TestChain, address: string): Promise<any[]> {
  const out: any[] = [];
  for (let cursor: string | null = ''; cursor !== null; ) {
    const page: { txs: any[]; nextCursor: string | null } = (
      await get(c, `/api/address/${address}/txs?limit=100${cursor ? `&cursor=${cursor}` : ''}`)
    ).body;
    out.push(...page.txs);
    cursor = page.txs.length ? page.nextCursor : null;
  }
  return out;
}

test('a cell is quoted when it must be, and a formula is made inert', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvCell('+1'), "'+1");
  assert.equal(csvCell(undefined), '');
  assert.equal(csvCell(12), '12');
});

test("an address's transactions: all of them, then by type, direction and time, as the JSON list has them", () =>
  simulated(async (c) => {
    const sent = new Map<string, number>();
    for (const tx of lines.slice(2).flatMap((b: any) => b.transactions)) sent.set(tx.from, (sent.get(tx.from) ?? 0) + 1);
    const busiest = [...sent].sort((a, b) => b[1] - a[1])[0][0];
    const txs = await allTxs(c, busiest);
    const [head, ...rows] = await csv(c, `/api/csv/address/${busiest}`);
    assert.deepEqual(head, [
      'hash',
      'block',
      'time',
      'type',
      'from',
      'to',
      'amount_ombra',
      'fee_ombra',
      'amount_micro',
      'fee_micro',
      'direction',
    ]);
    assert.deepEqual(
      rows.map((r) => r[0]),
      txs.map((x) => x.hash),
    );
    const type = txs[0].type;
    const typed = await csv(c, `/api/csv/address/${busiest}?type=${type}`);
    assert.deepEqual(
      typed.slice(1).map((r) => r[0]),
      txs.filter((x) => x.type === type).map((x) => x.hash),
    );
    const incoming = await csv(c, `/api/csv/address/${busiest}?direction=in`);
    assert.deepEqual(
      incoming.slice(1).map((r) => r[0]),
      txs.filter((x) => x.from !== busiest).map((x) => x.hash),
    );
    const times = txs.map((x) => x.blockTime).sort((a, b) => a - b);
    const [since, until] = [times[Math.floor(times.length / 4)], times[Math.floor((3 * times.length) / 4)]];
    const window = await csv(c, `/api/csv/address/${busiest}?direction=out&since=${since}&until=${until}`);
    assert.deepEqual(
      window.slice(1).map((r) => r[0]),
      txs.filter((x) => x.from === busiest && x.blockTime >= since && x.blockTime <= until).map((x) => x.hash),
    );
    assert.ok(window.length > 1, 'the window holds some');
    // The JSON list takes the same filters (the explorer's address page), paged by offset.
    const q = `direction=out&since=${since}&until=${until}`;
    const first = (await get(c, `/api/address/${busiest}/txs?${q}&limit=2`)).body;
    const second = (await get(c, `/api/address/${busiest}/txs?${q}&limit=2&offset=2`)).body;
    assert.equal(first.total, window.length - 1);
    assert.equal(first.nextCursor, null);
    assert.deepEqual(
      [...first.txs, ...second.txs].map((x: any) => x.hash),
      window.slice(1, 5).map((r) => r[0]),
    );
    assertError(await get(c, `/api/address/${busiest}/txs?${q}&cursor=5`), 400, 'INVALID_PARAMS');
    for (const r of window.slice(1)) assert.equal(r[10], 'out');
    assertError(await get(c, `/api/csv/address/${busiest}?direction=sideways`), 400, 'INVALID_PARAMS');
    assertError(await get(c, `/api/csv/address/${busiest}?since=yesterday`), 400, 'INVALID_PARAMS');
    assertError(await get(c, `/api/csv/address/${busiest}?type=transfer;drop`), 400, 'INVALID_PARAMS');
  }));

test("a block's transactions in block order; the task list, by status", () =>
  simulated(async (c) => {
    const block = lines.slice(2).reduce((a: any, b: any) => (b.transactions.length > a.transactions.length ? b : a));
    const [head, ...rows] = await csv(c, `/api/csv/block/${block.index}`);
    assert.equal(head[0], 'hash');
    assert.deepEqual(
      rows.map((r) => r[0]),
      block.transactions.map((x: any) => x.hash),
    );
    for (const r of rows) assert.equal(r[1], String(block.index));
    assertError(await get(c, '/api/csv/block/99999999'), 404, 'NOT_FOUND');
    const tasks = (await get(c, '/api/chain/tasks?limit=100')).body;
    const [taskHead, ...taskRows] = await csv(c, '/api/csv/tasks');
    assert.equal(taskHead[0], 'task');
    assert.equal(taskRows.length, tasks.total);
    assert.deepEqual(
      taskRows.slice(0, tasks.tasks.length).map((r) => r[0]),
      tasks.tasks.map((x: any) => x.taskId),
    );
    const status = tasks.tasks[0].status;
    const byStatus = await csv(c, `/api/csv/tasks?status=${status}`);
    assert.equal(byStatus.length - 1, (await get(c, `/api/chain/tasks?status=${status}&limit=100`)).body.total);
    for (const r of byStatus.slice(1)) assert.equal(r[2], status);
  }));
