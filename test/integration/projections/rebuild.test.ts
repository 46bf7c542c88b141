import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../core/txCodec.ts';
import { sumBalances } from '../../../core/state.ts';
import { DEV_KEYS, openTestChain, type TestChain } from '../../helpers/testChain.ts';

type Action =
  | { kind: 'transfer'; from: number; to: number; amount: number; fee: number }
  | { kind: 'register'; from: number }
  | { kind: 'storage'; to: number; bytes: number }
  | { kind: 'produce'; n: number }
  | { kind: 'restart' };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      from: fc.integer({ min: 0, max: 9 }),
      to: fc.integer({ min: 0, max: 9 }),
      amount: fc.integer({ min: 1, max: 5_000_000 }),
      fee: fc.integer({ min: 0, max: 5000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('register' as const), from: fc.integer({ min: 1, max: 9 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('storage' as const),
      to: fc.integer({ min: 1, max: 9 }),
      bytes: fc.integer({ min: 1, max: 9000 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('produce' as const), n: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);

async function run(c: TestChain, a: Action): Promise<TestChain> {
  const submit = (tx: unknown) => c.node.submitTx(tx).catch(() => undefined);
  if (a.kind === 'transfer') await submit(c.transfer(a.from, DEV_KEYS[a.to].address, BigInt(a.amount), BigInt(a.fee)));
  else if (a.kind === 'produce') await c.produce(a.n);
  else if (a.kind === 'restart') {
    await c.close();
    return openTestChain({ dir: c.dir });
  } else {
    const key = a.kind === 'register' ? DEV_KEYS[a.from] : DEV_KEYS[0];
    const nonce = (await c.queries.account(key.address)).nonce + c.node.mempool.pending(key.address).count;
    const body =
      a.kind === 'register' ? { name: `miner-${a.from}`, capabilities: ['chat'] } : { to: DEV_KEYS[a.to].address, bytes: String(a.bytes) };
    await submit(
      signTx(
        {
          type: a.kind === 'register' ? 'MINER_REGISTER' : 'STORAGE_TRANSFER',
          from: key.address,
          ...body,
          fee: '10',
          nonce,
          timestamp: c.now(),
        },
        key,
      ),
    );
  }
  return c;
}

test('folding blocks as they come, across restarts, equals rebuilding every read model from genesis, each cleared once', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(action, { minLength: 3, maxLength: 25 }), async (actions) => {
      let c = await openTestChain();
      try {
        for (const a of actions) c = await run(c, a);
        await c.produce();
        const s = c.node.state();
        assert.equal(sumBalances(s) + s.supply.escrow + s.supply.burned, s.supply.emitted);
        const incremental = await c.node.runner.dump();
        await c.node.runner.resetAll();
        const resets = c.node.runner.resets;
        await c.node.catchUp(undefined, { verifySignatures: true });
        assert.equal(c.node.lastCatchUp.blocks, c.node.head().index);
        assert.equal(c.node.runner.resets, resets, 'the rebuild clears each read model once (resetAll), not again as it loads');
        assert.deepEqual(await c.node.runner.dump(), incremental);
      } finally {
        await c.destroy();
      }
    }),
    { numRuns: 12 },
  );
});
