/**
 * The top-holders index answers what a full sort of every account answers, after any sequence
 * of blocks, reorganisations and folds it did not see (a replay from the log), at any page size.
 */
import fc from 'fast-check';
import { Subject } from 'rxjs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Account } from '../../core/state.ts';
import type { ChainEvent } from '../../projections/events.ts';
import { holderRows } from '../../projections/holders.ts';
import { rankOrder, TopHolders, type Holder } from '../../queries/topHolders.ts';
import { DEV_KEYS, openTestChain, type TestChain } from '../helpers/testChain.ts';

const t = suite('top holders');

const ADDRESSES = Array.from({ length: 14 }, (_, i) => `ox${String.fromCharCode(97 + i).repeat(40)}`);

/** The reference: every account sorted. */
function fullSort(accounts: ReadonlyMap<string, { balance: bigint }>, limit: number): Holder[] {
  return [...accounts]
    .filter(([, a]) => a.balance > 0n)
    .map(([address, a]) => ({ address, balance: a.balance }))
    .sort(rankOrder)
    .slice(0, limit);
}

const change = fc.record({ address: fc.constantFrom(...ADDRESSES), balance: fc.constantFrom(0n, 1n, 5n, 5n, 7n, 100n, 10n ** 20n) });
const op = fc.oneof(
  fc.record({ kind: fc.constant('block' as const), changes: fc.array(change, { maxLength: 6 }) }),
  fc.record({
    kind: fc.constant('reorg' as const),
    depth: fc.nat(3),
    blocks: fc.array(fc.array(change, { maxLength: 6 }), { maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('unseen' as const), changes: fc.array(change, { maxLength: 6 }) }),
  fc.record({ kind: fc.constant('read' as const), limit: fc.nat(ADDRESSES.length + 2) }),
);

t('equals the full sort after random blocks, reorganisations and unseen folds', () => {
  fc.assert(
    fc.property(fc.constantFrom(1, 3, 256), fc.array(op, { maxLength: 40 }), (kept, ops) => {
      const accounts = new Map<string, Account>();
      const events$ = new Subject<ChainEvent>();
      let height = 0;
      const index = new TopHolders({ accounts: () => accounts, height: () => height, events$ }, kept);
      // The writer folds a block into the accounts, then announces it.
      const fold = (changes: { address: string; balance: bigint }[], announce: boolean) => {
        const balances = changes.map(({ address, balance }) => {
          const before = accounts.get(address)?.balance ?? 0n;
          accounts.set(address, { balance, nonce: 0, storageCapacity: 0n, storageUsed: 0n });
          return { address, before, after: balance };
        });
        height++;
        if (announce)
          events$.next({
            type: 'block',
            block: { index: height } as never,
            txs: [],
            diff: {} as never,
            balances,
            emitted: 0n,
            replay: false,
          });
      };
      for (const o of ops) {
        if (o.kind === 'block') fold(o.changes, true);
        else if (o.kind === 'unseen') fold(o.changes, false);
        else if (o.kind === 'reorg') {
          // The branch's balances differ from the dropped blocks' (set afresh), announced as the node does.
          const oldHead = height;
          height = Math.max(0, height - o.depth);
          for (const a of accounts.values()) if (a.balance === 5n) a.balance = 6n;
          events$.next({
            type: 'reorg',
            fromHeight: height + 1,
            oldHead: { index: oldHead, hash: '' },
            newHead: { index: height + o.blocks.length, hash: '' },
            dropped: [],
          });
          for (const b of o.blocks) fold(b, true);
        } else assert.equal(index.ranked(o.limit), fullSort(accounts, o.limit));
      }
      for (const limit of [0, 1, 3, ADDRESSES.length + 1]) assert.equal(index.ranked(limit), fullSort(accounts, limit));
    }),
    { numRuns: 400 },
  );
});

t('a page costs no scan of the accounts once built, while holders only move within it', () => {
  const accounts = new Map<string, Account>();
  const events$ = new Subject<ChainEvent>();
  let height = 0;
  let scans = 0;
  const set = (address: string, balance: bigint) => accounts.set(address, { balance, nonce: 0, storageCapacity: 0n, storageUsed: 0n });
  for (let i = 0; i < 1000; i++) set(`ox${String(i).padStart(40, '0')}`, BigInt(i + 1));
  const index = new TopHolders(
    {
      accounts: () => {
        scans++;
        return accounts;
      },
      height: () => height,
      events$,
    },
    20,
  );
  assert.is(index.ranked(10)[0].balance, 1000n);
  for (let b = 1; b <= 50; b++) {
    // Each block moves a balance of the top up and one from the bottom in.
    const top = `ox${String(1000 - b).padStart(40, '0')}`;
    const low = `ox${String(b).padStart(40, '0')}`;
    const balances = [
      { address: top, before: accounts.get(top)!.balance, after: 10_000n + BigInt(b) },
      { address: low, before: accounts.get(low)!.balance, after: 5_000n },
    ];
    set(top, 10_000n + BigInt(b));
    set(low, 5_000n);
    height++;
    events$.next({ type: 'block', block: { index: height } as never, txs: [], diff: {} as never, balances, emitted: 0n, replay: false });
    assert.equal(index.ranked(10), fullSort(accounts, 10));
  }
  assert.is(scans, 1);
});

/** GET /api/tokenomics/holders?limit= against the full sort of the node's accounts. */
async function assertHolders(c: TestChain, limit: number): Promise<void> {
  const body = (await (await c.app.request(`/api/tokenomics/holders?limit=${limit}`)).json()) as { totalSupply: string; holders: unknown };
  assert.equal(body.holders, holderRows(fullSort(c.node.state().accounts, limit), BigInt(body.totalSupply)));
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

t('the API’s holders equal the full sort through live blocks, a reorganisation and a restart', async () => {
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

t.run();
