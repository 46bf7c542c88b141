/**
 * The state root (core/stateRoot.ts) against its definition in docs/protocol.md, written out
 * plainly here: SHA-256(previous + SHA-256(JSON of the [key, value] entries the block touched,
 * sorted by key)). Any accounts (miner ids with quotes and any text), records under ids of any
 * characters (sorting next to their separators), removed records (also ones the block changed),
 * few entries and many: the same root.
 */
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { emptyRecords, RECORD_KINDS, RECORD_PREFIX, type Removals, type StateDiff } from '../../../core/state.ts';
import { nextStateRoot } from '../../../core/stateRoot.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** The root as the protocol defines it, with plain arrays and the engine's stable sort. */
function reference(previous: string, diff: StateDiff): string {
  const entries: [string, unknown][] = [];
  for (const [address, a] of diff.accounts)
    entries.push([
      `a:${address}`,
      [a.balance.toString(), a.nonce, a.storageCapacity.toString(), a.storageUsed.toString(), a.minerId ?? ''],
    ]);
  for (const kind of RECORD_KINDS)
    for (const [id, r] of diff.records[kind] as Map<string, Record<string, unknown>>)
      entries.push([`${RECORD_PREFIX[kind]}:${id}`, Object.fromEntries(Object.entries(r).sort(([x], [y]) => (x < y ? -1 : 1)))]);
  for (const kind of RECORD_KINDS) for (const id of diff.removed?.[kind] ?? []) entries.push([`${RECORD_PREFIX[kind]}:${id}`, null]);
  const s = diff.supply;
  entries.push(['s', [s.emitted.toString(), s.burned.toString(), s.escrow.toString(), s.feesPaid.toString()]]);
  entries.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return sha(previous + sha(JSON.stringify(entries)));
}

const big = fc.bigInt({ min: 0n, max: 10n ** 30n });
const account = fc.record({
  balance: big,
  nonce: fc.nat(),
  storageCapacity: big,
  storageUsed: big,
  minerId: fc.option(fc.string({ unit: 'binary' }), { nil: undefined }),
});
// Record fields under names no engine orders first (integer-like keys would): the reference's object keeps them sorted.
const record = fc.dictionary(
  fc.constantFrom('id', 'name', 'owner', 'amount', 'a_b', 'Z', 'status'),
  fc.oneof(fc.string(), fc.integer(), fc.boolean()),
);
const id = fc.string({ unit: 'binary', maxLength: 6 });
// A few kinds, so ids meet across changed and removed records.
const kinds = RECORD_KINDS.slice(0, 3);

const diffs = fc
  .record({
    accounts: fc.array(fc.tuple(fc.stringMatching(/^ox[0-9a-f]{40}$/), account), { maxLength: 30 }),
    changed: fc.array(fc.tuple(fc.constantFrom(...kinds), id, record), { maxLength: 20 }),
    removed: fc.array(fc.tuple(fc.constantFrom(...kinds), id), { maxLength: 8 }),
    supply: fc.record({ emitted: big, burned: big, escrow: big, feesPaid: big }),
  })
  .map(({ accounts, changed, removed, supply }): StateDiff => {
    const records = emptyRecords();
    for (const [kind, key, r] of changed) (records[kind] as Map<string, unknown>).set(key, r);
    const gone: Removals = {};
    for (const [kind, key] of removed) (gone[kind] ??= new Set()).add(key);
    // Every changed id removed too, now and then: a key twice in the entries.
    for (const [kind, key] of changed.slice(0, 1)) (gone[kind] ??= new Set()).add(key);
    return { accounts: new Map(accounts), records, supply, removed: removed.length > 0 ? gone : undefined };
  });

test('the state root of any diff is the one its definition gives', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[0-9a-f]{64}$/), diffs, (previous, diff) => {
      assert.equal(nextStateRoot(previous, diff), reference(previous, diff));
    }),
    { numRuns: 400 },
  );
});
