/**
 * The sink's row mapping and folded state without a database, over the recorded simulated chain
 * (every transaction type): one transactions row per transaction with its typed columns and its
 * signed body, transfers, balance changes that chain and end at the state's balances, records of
 * every mirrored kind, COPY escaping, and the undo entries that step the state back.
 */
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../../core/block.ts';
import { parseGenesis } from '../../../core/genesis.ts';
import { TX_TYPES } from '../../../core/tx/registry.ts';
import { addBlockRows, emptyRows, MIRRORED_KINDS, type Rows } from '../../../sink/blockRows.ts';
import { copyLine, jsonText } from '../../../sink/copyText.ts';
import { FoldState } from '../../../sink/foldState.ts';

const lines = readFileSync(new URL('../../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const genesis = parseGenesis(lines[0].genesis);
const blocks = lines.slice(1) as Block[];

/** Every block of the fixture folded into rows (block 0 from the genesis allocations). */
function foldAll(): { rows: Rows; fold: FoldState } {
  const fold = new FoldState(genesis, 1000);
  const rows = emptyRows();
  addBlockRows(rows, fold.genesisBlock, fold.genesisDiff, () => undefined);
  for (const b of blocks.slice(1)) {
    const f = fold.apply(b);
    addBlockRows(rows, b, f.diff, f.before);
  }
  return { rows, fold };
}

test('one transactions row per transaction of every type, with its typed columns and signed body', () => {
  const { rows } = foldAll();
  const txs = blocks.flatMap((b) => b.transactions.map((tx, i) => ({ tx, b, i })));
  assert.equal(rows.transactions.length, txs.length);
  assert.deepEqual(new Set(rows.transactions.map((r) => r[3])), new Set(txs.map((x) => x.tx.type)));
  assert.ok(new Set(txs.map((x) => x.tx.type)).size >= TX_TYPES.length - 2, 'the fixture holds (nearly) every type');
  txs.forEach(({ tx, b, i }, k) => {
    const [hash, height, position, type, from, to, amount, fee, nonce, time, body] = rows.transactions[k];
    assert.deepEqual([hash, height, position, type, nonce], [tx.hash, b.index, i, tx.type, tx.nonce]);
    assert.equal(from, tx.from.toLowerCase());
    assert.equal(time, new Date(b.timestamp).toISOString());
    assert.equal(fee, typeof tx.fee === 'string' ? tx.fee : '0');
    assert.deepEqual(JSON.parse(body as string), tx);
    if (tx.type === 'TRANSFER') assert.deepEqual([to, amount], [(tx.to as string).toLowerCase(), tx.amount]);
    if (tx.type === 'ART_MINT') assert.equal(to, (tx.owner as string).toLowerCase());
  });
  const transfers = txs.filter((x) => x.tx.type === 'TRANSFER');
  assert.equal(rows.transfers.length, transfers.length);
  assert.deepEqual(
    rows.blocks.map((r) => r[0]),
    blocks.map((b) => b.index),
  );
});

test('balance changes chain from genesis and end at the folded balances; accounts hold the last', () => {
  const { rows, fold } = foldAll();
  const last = new Map<string, { after: string; height: number }>();
  for (const [address, height, before, after, delta] of rows.balance_changes) {
    assert.equal(BigInt(after as string) - BigInt(before as string), BigInt(delta as string));
    assert.equal(before, last.get(address as string)?.after ?? '0', `${address} at ${height} continues its previous change`);
    last.set(address as string, { after: after as string, height: height as number });
  }
  for (const [address, a] of fold.accounts()) {
    assert.equal(last.get(address)?.after ?? '0', a.balance.toString(), address);
    if (rows.accounts.has(address)) assert.equal(rows.accounts.get(address)!.balance, a.balance);
  }
  // Empty blocks credit their proposer storage only: no balance change row for them.
  const perBlock = new Set(rows.balance_changes.map((r) => r[1]));
  const empty = blocks.filter((b) => b.index > 0 && b.transactions.length === 0).map((b) => b.index);
  assert.ok(empty.length > 0 && empty.every((h) => !perBlock.has(h)));
});

test('an account is created in a batch only when the state did not hold it before the batch', () => {
  // The batch starts at the first block that makes an account (the genesis ones are held before it).
  const counting = new FoldState(genesis, 1000);
  const genesisAccounts = counting.accounts().size;
  let split = 1;
  while (split < blocks.length) {
    counting.apply(blocks[split]);
    if (counting.accounts().size > genesisAccounts) break;
    split++;
  }
  const fold = new FoldState(genesis, 1000);
  for (const b of blocks.slice(1, split)) fold.apply(b);
  const held = new Set(fold.accounts().keys());
  const rows = emptyRows();
  for (const b of blocks.slice(split)) {
    const f = fold.apply(b);
    addBlockRows(rows, b, f.diff, f.before);
  }
  const created = [...rows.accounts].filter(([, a]) => a.created).map(([address]) => address);
  const kept = [...rows.accounts].filter(([, a]) => !a.created).map(([address]) => address);
  assert.ok(created.length > 0 && kept.length > 0, `${created.length} created, ${kept.length} held before`);
  for (const address of created) assert.ok(!held.has(address), address);
  for (const address of kept) assert.ok(held.has(address), address);
  // Block 0: every genesis allocation is new to an empty mirror.
  const first = emptyRows();
  addBlockRows(first, fold.genesisBlock, fold.genesisDiff, () => undefined);
  assert.ok(first.accounts.size > 0 && [...first.accounts.values()].every((a) => a.created));
});

test('records of every mirrored kind the chain made, as JSON with big integers as strings', () => {
  const { rows } = foldAll();
  const kinds = new Set(rows.record_versions.map((r) => r[0]));
  for (const k of ['tasks', 'miners', 'runs', 'posts', 'follows', 'nfts', 'imageNfts', 'audioNfts', 'webSites', 'webFiles', 'webReleases'])
    assert.ok(kinds.has(k), k);
  for (const k of kinds) assert.ok(MIRRORED_KINDS.includes(k as string));
  for (const r of rows.record_versions) if (r[3] !== null) JSON.parse(r[3] as string);
  assert.equal(jsonText({ a: 12345678901234567890n }), '{"a":"12345678901234567890"}');
});

test('COPY text: tabs, newlines, carriage returns and backslashes escaped; null as \\N', () => {
  assert.equal(
    copyLine(['a\tb', 'c\nd\re', 'back\\slash', null, 7, 9007199254740993n, true]),
    'a\\tb\tc\\nd\\re\tback\\\\slash\t\\N\t7\t9007199254740993\tt\n',
  );
});

test('undo entries step the state back; folding again gives the same rows', () => {
  const { rows, fold } = foldAll();
  const head = fold.head.index;
  const to = head - 40;
  assert.ok(fold.revertTo(to));
  assert.equal(fold.head.index, to);
  assert.equal(fold.head.hash, blocks[to].hash);
  const again = emptyRows();
  for (const b of blocks.slice(to + 1)) {
    const f = fold.apply(b);
    addBlockRows(again, b, f.diff, f.before);
  }
  assert.deepEqual(
    again.balance_changes,
    rows.balance_changes.filter((r) => (r[1] as number) > to),
  );
  assert.deepEqual(
    again.record_versions,
    rows.record_versions.filter((r) => (r[2] as number) > to),
  );
  const shallow = new FoldState(genesis, 5);
  for (const b of blocks.slice(1, 20)) shallow.apply(b);
  assert.ok(!shallow.revertTo(10), 'deeper than its undo entries: refold');
  assert.ok(shallow.revertTo(14));
});
