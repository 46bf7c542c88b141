/**
 * The holders read model's rank rows (projections/holders.ts): whatever balances a block moves,
 * and however often, its ops take the stored ranks of the balances it began with to the ranks of
 * those it ends with; a put marked fresh names a key that was not stored (the fold batcher drops
 * it with its delete when both fall in one batch), and no delete names a key that was not stored.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { BlockEvent } from '../../../projections/events.ts';
import { type HoldersState, holdersProjection, rankRow } from '../../../projections/holders.ts';

const ADDRESSES = ['a', 'b', 'c'].map((c) => `ox${c.repeat(40)}`);

/** The rank rows of a set of balances (a holder with nothing has none). */
function ranks(balances: Map<string, bigint>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [address, balance] of balances) if (balance > 0n) out.set(rankRow.key({ address, balance }), balance.toString());
  return out;
}

test("a block's rank ops take the ranks it began with to those it ends with, fresh puts on absent keys only", () => {
  const balance = fc.bigInt({ min: 0n, max: 20n });
  const moves = fc.array(fc.record({ who: fc.integer({ min: 0, max: ADDRESSES.length - 1 }), to: balance }), { maxLength: 12 });
  fc.assert(
    fc.property(fc.array(balance, { minLength: 3, maxLength: 3 }), moves, (start, steps) => {
      const now = new Map(ADDRESSES.map((a, i) => [a, start[i]]));
      const stored = ranks(now);
      const balances = steps.map(({ who, to }) => {
        const address = ADDRESSES[who];
        const change = { address, before: now.get(address) ?? 0n, after: to };
        now.set(address, to);
        return change;
      });
      const state: HoldersState = { totalHolders: 0, buckets: [0, 0, 0, 0, 0, 0, 0, 0] };
      // The model reads nothing of the event but its balance changes.
      const { ops = [] } = holdersProjection.apply(state, { balances } as unknown as BlockEvent);
      const disk = new Map(stored);
      for (const op of ops) {
        if (op.type === 'del') assert.ok(stored.has(op.key), `a delete of ${op.key}, never stored`);
        else if (op.fresh) assert.ok(!stored.has(op.key), `a fresh put of ${op.key}, stored already`);
        if (op.type === 'del') disk.delete(op.key);
        else disk.set(op.key, String(op.value));
      }
      assert.deepEqual(disk, ranks(now));
      assert.equal(new Set(ops.map((op) => op.key)).size, ops.length, 'each key once');
    }),
    { numRuns: 500 },
  );
});
