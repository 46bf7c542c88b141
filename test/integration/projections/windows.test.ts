import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testnetGenesis } from '../../../cli/testnet.ts';
import { genesisState } from '../../../core/applyBlock.ts';
import { chainStatsProjection, RECENT_WINDOW } from '../../../projections/chainStats.ts';
import type { BlockEvent, ChainInfo } from '../../../projections/events.ts';
import type { Projection } from '../../../projections/projection.ts';
import { TPS_WINDOW, tpsProjection } from '../../../projections/tps.ts';
import { VALIDATOR_WINDOW, validatorsProjection } from '../../../projections/validators.ts';
import { openTestChain, type TestChain } from '../../helpers/testChain.ts';
import { rollBackAcrossRestart } from '../../helpers/rollbackCheck.ts';

const g = { ...testnetGenesis(3, 1000, 'w', 0), timestamp: 0 };
const { state, block } = genesisState(g);
const info: ChainInfo = { genesis: g, genesisBlock: block, genesisState: state };

/** Blocks 1..n, each `gap` slots after its parent, with `txs` transactions and `reward` emitted. */
function events(shape: { gap: number; txs: number; reward: number }[]): BlockEvent[] {
  let slot = 0;
  return shape.map(({ gap, txs, reward }, i) => {
    slot += gap;
    const b = {
      index: i + 1,
      timestamp: slot * 1000 + 17,
      proposer: g.authorities[slot % 3],
      hash: `h${i + 1}`,
      transactions: Array.from({ length: txs }, () => ({})),
    };
    return { type: 'block', block: b, txs: b.transactions, emitted: BigInt(reward), replay: false, balances: [] } as unknown as BlockEvent;
  });
}

const shapes = (max: number) =>
  fc.array(
    fc.record({ gap: fc.integer({ min: 1, max: 4 }), txs: fc.integer({ min: 0, max: 5 }), reward: fc.integer({ min: 0, max: 9 }) }),
    {
      maxLength: max,
    },
  );

/**
 * Folds `evs` as the runner does (state updated in place), then reverts block by block from the
 * top down to `back` blocks below it: after each revert the saved state is what it was before
 * that block. Each block's undo stays small however long the window.
 */
function foldAndRevert<S>(p: Projection<S>, evs: BlockEvent[], back: number): void {
  let s = p.init(info);
  const saved: string[] = [];
  const undos: unknown[] = [];
  for (const ev of evs) {
    saved.push(JSON.stringify(p.save!(s)));
    const step = p.apply(s, ev);
    s = step.state;
    undos.push(step.undo);
    assert.ok(JSON.stringify(step.undo ?? null).length < 200, `${p.name}'s undo is a few values`);
  }
  for (let i = evs.length - 1; i >= Math.max(0, evs.length - back); i--) {
    s = p.revert!(s, undos[i]);
    assert.equal(JSON.stringify(p.save!(s)), saved[i], `${p.name} reverted block ${i + 1}`);
  }
}

const cases: [Projection<unknown>, number][] = [
  [validatorsProjection as Projection<unknown>, VALIDATOR_WINDOW],
  [chainStatsProjection as Projection<unknown>, RECENT_WINDOW],
  [tpsProjection as Projection<unknown>, TPS_WINDOW],
];

for (const [p, window] of cases) {
  test(`${p.name}: reverting blocks with their small undo gives back the state before each`, () => {
    fc.assert(
      fc.property(shapes(window + 60), fc.integer({ min: 1, max: 80 }), (shape, back) => foldAndRevert(p, events(shape), back)),
      { numRuns: p === validatorsProjection ? 6 : 25 },
    );
    // Always past the window, back across its edge.
    const long = events(Array.from({ length: window + 30 }, (_, i) => ({ gap: 1 + (i % 3), txs: i % 4, reward: i % 2 })));
    foldAndRevert(p, long, 60);
  });
}

test('chainStats keeps the tip figures and the last blocks', () => {
  let s = chainStatsProjection.init(info);
  for (const ev of events(Array.from({ length: RECENT_WINDOW + 3 }, () => ({ gap: 1, txs: 2, reward: 5 }))))
    s = chainStatsProjection.apply(s, ev).state;
  assert.deepEqual(
    [s.height, s.latestBlockHash, s.totalTxs, s.recent.length],
    [RECENT_WINDOW + 3, `h${RECENT_WINDOW + 3}`, 2 * (RECENT_WINDOW + 3), RECENT_WINDOW],
  );
  assert.equal(s.recent[0].index, 4);
});

test('a node rolls the windows back past their edge through the undo log, across a restart', async () => {
  const c = await openTestChain();
  const windows = async (x: TestChain) => {
    const d = (await x.node.runner.dump()) as Record<string, unknown>;
    return { chainStats: d.chainStats, tps: d.tps, validators: d.validators };
  };
  const at: Record<number, unknown> = {};
  try {
    for (let h = 1; h <= RECENT_WINDOW + 6; h++) {
      await c.produce();
      if (h >= RECENT_WINDOW - 2) at[h] = await windows(c);
    }
  } catch (e) {
    await c.destroy();
    throw e;
  }
  await rollBackAcrossRestart(c, windows, at, RECENT_WINDOW + 3, RECENT_WINDOW - 2);
});
