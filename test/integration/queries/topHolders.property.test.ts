/**
 * The holders model's rank rows answer what a full sort of every account answers, after any
 * sequence of blocks, and the API's holders do through live blocks, a reorganisation and a restart.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Account, emptyState } from '../../../core/state.ts';
import type { BlockEvent, ChainInfo } from '../../../projections/events.ts';
import { holderOf, holderRows, holdersProjection, rankRow } from '../../../projections/holders.ts';
import { foldAll } from '../../../projections/projection.ts';
import { rankOrder, type Holder } from '../../../queries/topHolders.ts';
import { DEV_KEYS, openTestChain, type TestChain } from '../../helpers/testChain.ts';

const ADDRESSES = Array.from({ length: 14 }, (_, i) => `ox${String.fromCharCode(97 + i).repeat(40)}`);

/** The reference: every account sorted. */
function fullSort(accounts: ReadonlyMap<string, { balance: bigint }>, limit: number): Holder[] {
  return [...accounts]
    .filter(([, a]) => a.balance > 0n)
    .map(([address, a]) => ({ address, balance: a.balance }))
    .sort(rankOrder)
    .slice(0, limit);
}

const change = fc.record({
  address: fc.constantFrom(...ADDRESSES),
  balance: fc.constantFrom(0n, 1n, 5n, 5n, 7n, 9n, 10n, 100n, 10n ** 20n),
});

/** A chain info whose genesis allocates `genesis` (only the accounts matter to the holders model). */
function infoWith(genesis: Map<string, Account>): ChainInfo {
  return { genesisState: { ...emptyState(), accounts: genesis } } as unknown as ChainInfo;
}

/** Block events that set balances, each change's `before` the balance the earlier ones left. */
function eventsOf(
  genesis: Map<string, Account>,
  blocks: { address: string; balance: bigint }[][],
): { events: BlockEvent[]; accounts: Map<string, Account> } {
  const accounts = new Map(genesis);
  const events = blocks.map((changes, i) => {
    const balances = changes.map(({ address, balance }) => {
      const before = accounts.get(address)?.balance ?? 0n;
      accounts.set(address, { balance, nonce: 0, storageCapacity: 0n, storageUsed: 0n });
      return { address, before, after: balance };
    });
    return {
      type: 'block',
      block: { index: i + 1 } as never,
      txs: [],
      diff: {} as never,
      balances,
      emitted: 0n,
      replay: false,
    } as BlockEvent;
  });
  return { events, accounts };
}

test('the rank rows, in key order, are the full sort of every balance after any blocks (counts and buckets too)', () => {
  fc.assert(
    fc.property(fc.array(change, { maxLength: 5 }), fc.array(fc.array(change, { maxLength: 6 }), { maxLength: 30 }), (alloc, blocks) => {
      const genesis = new Map(alloc.map(({ address, balance }) => [address, { balance, nonce: 0, storageCapacity: 0n, storageUsed: 0n }]));
      const { events, accounts } = eventsOf(genesis, blocks);
      const { state, rows } = foldAll(holdersProjection, infoWith(genesis), events);
      const ranked = [...rows]
        .filter(([k]) => rankRow.owns(k))
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
        .map(([k, v]) => holderOf(k, v));
      // Before the first block the ranking is the genesis list (in memory); after it, the rows.
      const expected = fullSort(accounts, ADDRESSES.length);
      if (events.length === 0) assert.deepEqual(state.genesis?.length ?? 0, expected.length);
      else assert.deepEqual(ranked, expected);
      assert.equal(state.totalHolders, expected.length);
      assert.equal(
        state.buckets.reduce((n, x) => n + x, 0),
        expected.length,
      );
    }),
    { numRuns: 400 },
  );
});

test('a rank key orders balances of any length, largest first', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 1n, max: 10n ** 40n }), fc.bigInt({ min: 1n, max: 10n ** 40n }), (x, y) => {
      const kx = rankRow.key({ address: 'oxa', balance: x });
      const ky = rankRow.key({ address: 'oxa', balance: y });
      assert.equal(kx < ky, x > y);
    }),
  );
});

/** GET /api/tokenomics/holders?limit= against the full sort of the node's accounts. */
async function assertHolders(c: TestChain, limit: number): Promise<void> {
  const body = (await (await c.app.request(`/api/tokenomics/holders?limit=${limit}`)).json()) as { totalSupply: string; holders: unknown };
  assert.deepEqual(body.holders, holderRows(fullSort(c.node.state().accounts, limit), BigInt(body.totalSupply)));
}

/** Transfers from dev keys 1-4 to fresh or known addresses, `perBlock` a block. */
async function traffic(c: TestChain, amounts: bigint[], perBlock: number, tag: string): Promise<void> {
  for (let i = 0; i < amounts.length; i++) {
    const to = i % 3 === 0 ? DEV_KEYS[5 + (i % 4)].address : `ox${`${tag}${i}`.padEnd(40, '7')}`;
    await c.node.submitTx(c.transfer(1 + (i % 4), to, amounts[i]));
    if ((i + 1) % perBlock === 0) await c.produce();
  }
  await c.produce();
}

test('the API’s holders equal the full sort through live blocks, a reorganisation and a restart', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.bigInt({ min: 1n, max: 2n * 10n ** 9n }), { minLength: 1, maxLength: 10 }),
      fc.array(fc.bigInt({ min: 1n, max: 2n * 10n ** 9n }), { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 30 }),
      async (ours, theirs, perBlock, limit) => {
        const a = await openTestChain();
        const b = await openTestChain();
        try {
          await assertHolders(a, limit);
          await traffic(a, ours, perBlock, 'a');
          await assertHolders(a, limit);
          // A better branch from genesis with other transfers replaces ours.
          b.advance(b.genesis.blockTimeMs * 40);
          await traffic(b, theirs, 1, 'b');
          await b.produce(Math.max(1, a.node.head().index + 2 - b.node.head().index));
          a.advance(Math.max(0, b.now() - a.now()));
          await a.node.reorg(0, await b.node.store.blocksIn(1, b.node.head().index));
          await assertHolders(a, limit);
          await traffic(a, ours.slice(0, 3), perBlock, 'c');
          await assertHolders(a, limit);
          // A restart replays nothing into a fresh index: it is built from the restored accounts.
          await a.close();
          const again = await openTestChain({ dir: a.dir });
          try {
            await assertHolders(again, limit);
            await traffic(again, ours.slice(0, 2), perBlock, 'd');
            await assertHolders(again, limit);
          } finally {
            await again.close();
          }
        } finally {
          await a.destroy().catch(() => undefined);
          await b.destroy();
        }
      },
    ),
    { numRuns: 4 },
  );
});
