/**
 * GET /api/chain/txs: every transaction of the chain, newest first, paged by offset or by a
 * cursor that does not shift as blocks arrive, each with its block's time; any query either
 * answers the page the model says or is refused with `{error, code}` (a fast-check property over
 * the parser); the index steps back with a rollback.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { rollBackAcrossRestart } from '../../helpers/rollbackCheck.ts';
import { DEV_KEYS, openTestChain, type TestChain } from '../../helpers/testChain.ts';

const A = (i: number) => DEV_KEYS[i].address;

interface Page {
  count: number;
  total: number;
  txs: { hash: string; blockHeight: number; position: number; blockTime: number }[];
  nextCursor: string | null;
}

async function read(c: TestChain, query: string): Promise<{ status: number; body: unknown }> {
  const res = await c.app.request(`/api/chain/txs${query}`);
  return { status: res.status, body: await res.json() };
}

async function page(c: TestChain, query: string): Promise<Page> {
  const r = await read(c, query);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const b: any = r.body;
  return b;
}

/** Blocks holding `counts[i]` transfers each (0: an empty block); the hashes newest first. */
async function blocksOf(c: TestChain, counts: readonly number[]): Promise<string[]> {
  const hashes: string[] = [];
  for (const [i, n] of counts.entries()) {
    for (let k = 0; k < n; k++) {
      const tx = c.transfer(1 + ((i + k) % 4), A(9), 1n);
      await c.node.submitTx(tx);
      hashes.push(String(tx.hash));
    }
    await c.produce();
  }
  return hashes.reverse();
}

let c: TestChain;
let all: string[];
const COUNTS = [3, 0, 1, 4, 0, 0, 2, 5, 1, 0, 3, 8, 6, 7];

before(async () => {
  c = await openTestChain();
  all = await blocksOf(c, COUNTS);
});
after(() => c.destroy());

test('every transaction newest first, across blocks, with its block and block time; offset pages agree', async () => {
  const first = await page(c, '?limit=100');
  assert.equal(first.total, all.length);
  assert.equal(first.count, all.length);
  assert.deepEqual(
    first.txs.map((t) => t.hash),
    all,
  );
  assert.equal(first.nextCursor, null);
  for (const t of first.txs) {
    const b = await c.queries.block(t.blockHeight);
    assert.equal(b?.transactions[t.position].hash, t.hash);
    assert.equal(t.blockTime, b?.timestamp);
  }
  const deep = await page(c, '?limit=4&offset=10');
  assert.deepEqual(
    deep.txs.map((t) => t.hash),
    all.slice(10, 14),
  );
  assert.equal(deep.nextCursor, String(all.length - 15));
  assert.deepEqual((await page(c, `?offset=${all.length}`)).txs, []);
});

test('a cursor continues where its page ended however many blocks arrive in between', async () => {
  const chain = await openTestChain();
  try {
    const before = await blocksOf(chain, [2, 3, 0, 4]);
    const one = await page(chain, '?limit=4');
    assert.deepEqual(
      one.txs.map((t) => t.hash),
      before.slice(0, 4),
    );
    await blocksOf(chain, [3, 1]);
    const next = await page(chain, `?limit=4&cursor=${one.nextCursor}`);
    assert.deepEqual(
      next.txs.map((t) => t.hash),
      before.slice(4, 8),
    );
    const last = await page(chain, `?limit=4&cursor=${next.nextCursor}`);
    assert.deepEqual(
      last.txs.map((t) => t.hash),
      before.slice(8),
    );
    assert.equal(last.nextCursor, null);
    assert.equal(last.total, before.length + 4);
  } finally {
    await chain.destroy();
  }
});

test('bad paging is refused with {error, code} INVALID_PARAMS', async () => {
  for (const q of ['?offset=2&cursor=3', '?limit=-1', '?cursor=abc', '?offset=1.5', '?limit=1e3']) {
    const r = await read(c, q);
    assert.equal(r.status, 400, q);
    assert.deepEqual(Object.keys(r.body ?? {}).sort(), ['code', 'error'], q);
    assert.equal((r.body as any).code, 'INVALID_PARAMS', q);
  }
});

/** What the route answers for raw query values, by the rules its definition documents. */
function model(
  n: number,
  raw: { limit?: string; offset?: string; cursor?: string },
): { txs: string[]; nextCursor: string | null } | 'refused' {
  const count = (s: string | undefined, def: number | undefined): number | undefined | 'bad' =>
    s === undefined || s === '' ? def : /^[0-9]{1,15}$/.test(s) ? Number(s) : 'bad';
  const offset = count(raw.offset, 0);
  const cursor = count(raw.cursor, undefined);
  const limitRaw = count(raw.limit, 25);
  if (offset === 'bad' || cursor === 'bad' || limitRaw === 'bad' || offset === undefined || limitRaw === undefined) return 'refused';
  if (cursor !== undefined && offset > 0) return 'refused';
  const limit = Math.min(limitRaw, 100);
  const top = Math.min(n - 1, cursor ?? n - 1) - offset;
  if (top < 0) return { txs: [], nextCursor: null };
  if (limit === 0) return { txs: [], nextCursor: String(top) };
  const txs = all.slice(n - 1 - top, n - 1 - top + limit);
  const last = top - txs.length + 1;
  return { txs, nextCursor: last > 0 ? String(last - 1) : null };
}

test('any limit, offset and cursor: the page the model says, or INVALID_PARAMS; never anything else', async () => {
  const value = fc.option(
    fc.oneof(
      fc.nat({ max: 30 }).map(String),
      fc.constantFrom('', '0', '-1', '1.5', 'x', '1e2', '999999999999999', '0x10'),
      fc.string({ maxLength: 6 }),
    ),
    { nil: undefined },
  );
  await fc.assert(
    fc.asyncProperty(fc.record({ limit: value, offset: value, cursor: value }), async (raw) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(raw)) if (v !== undefined) q.set(k, v);
      const r = await read(c, `?${q}`);
      const want = model(all.length, raw);
      if (want === 'refused') {
        assert.equal(r.status, 400);
        assert.equal((r.body as any).code, 'INVALID_PARAMS');
        return;
      }
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const b: any = r.body;
      assert.deepEqual(
        { txs: b.txs.map((t: { hash: string }) => t.hash), nextCursor: b.nextCursor, total: b.total },
        { ...want, total: all.length },
      );
    }),
    { numRuns: 150 },
  );
});

test('the index steps back with a rollback, before and after a restart', async () => {
  const chain = await openTestChain();
  const hashes = await blocksOf(chain, [2, 0, 3, 1, 2]);
  const list = async (x: TestChain) => (await page(x, '?limit=100')).txs.map((t) => t.hash);
  // Heights 1..5 hold 2, 0, 3, 1, 2 transactions: the newest-first list at each height.
  const at = (height: number) => hashes.slice(hashes.length - [0, 2, 2, 5, 6, 8][height]);
  await rollBackAcrossRestart(chain, list, { 3: at(3), 1: at(1) }, 3, 1);
});
