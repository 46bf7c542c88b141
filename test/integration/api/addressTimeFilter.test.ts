/**
 * An address's date filter (the explorer's "From … to …", the JSON list and the CSV) bounds the
 * time the chain recorded a transaction, its block's timestamp, as Etherscan and Blockscout
 * filter; not the time the sender signed it. Each listed transaction carries that `blockTime`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DEV_KEYS, openTestChain, type TestChain } from '../../helpers/testChain.ts';

const A = (i: number) => DEV_KEYS[i].address;
const HOUR = 3_600_000;

let c: TestChain;
/** A transfer signed and included at once, and one signed then but included a day later. */
let prompt: string;
let late: string;
let signedAt: number;

before(async () => {
  c = await openTestChain();
  const a = c.transfer(1, A(2), 1n);
  await c.node.submitTx(a);
  await c.produce();
  signedAt = c.now();
  const b = c.transfer(1, A(2), 2n);
  await c.node.submitTx(b);
  c.advance(24 * HOUR);
  await c.produce();
  prompt = String(a.hash);
  late = String(b.hash);
});
after(() => c.destroy());

async function json(path: string): Promise<any> {
  const res = await c.app.request(path);
  assert.equal(res.status, 200, path);
  return res.json();
}

async function csvHashes(query: string): Promise<string[][]> {
  const res = await c.app.request(`/api/csv/address/${A(1)}${query}`);
  assert.equal(res.status, 200);
  return (await res.text())
    .trim()
    .split('\r\n')
    .slice(1)
    .map((l) => l.split(','));
}

test("each listed transaction carries its block's time, which the late one's signed time is a day before", async () => {
  const { txs } = await json(`/api/address/${A(1)}/txs`);
  assert.deepEqual(
    txs.map((t: { hash: string }) => t.hash),
    [late, prompt],
  );
  for (const t of txs) assert.equal(t.blockTime, (await c.queries.block(t.blockHeight))?.timestamp);
  assert.equal(txs[0].timestamp, signedAt);
  assert.ok(txs[0].blockTime >= signedAt + 24 * HOUR, 'the late transaction was recorded a day after it was signed');
  const account = await json(`/api/chain/account/${A(1)}`);
  assert.equal(account.recentTxs[0].blockTime, txs[0].blockTime);
});

test('since and until bound the block time, in the JSON list and the CSV alike', async () => {
  const midway = signedAt + 12 * HOUR;
  const since = await json(`/api/address/${A(1)}/txs?since=${midway}`);
  assert.deepEqual(
    since.txs.map((t: { hash: string }) => t.hash),
    [late],
    'recorded after midway, though signed before it',
  );
  const until = await json(`/api/address/${A(1)}/txs?until=${midway}`);
  assert.deepEqual(
    until.txs.map((t: { hash: string }) => t.hash),
    [prompt],
  );
  const rows = await csvHashes(`?since=${midway}`);
  assert.deepEqual(
    rows.map((r) => r[0]),
    [late],
  );
  const { txs } = await json(`/api/address/${A(1)}/txs`);
  assert.equal(rows[0][2], new Date(txs[0].blockTime).toISOString(), "the CSV's time is the block's");
});
