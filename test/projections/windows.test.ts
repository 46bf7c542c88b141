import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { testnetGenesis } from '../../cli/testnet.ts';
import { genesisState } from '../../core/applyBlock.ts';
import { chainStatsProjection, RECENT_WINDOW } from '../../projections/chainStats.ts';
import type { BlockEvent, ChainInfo } from '../../projections/events.ts';
import type { Projection } from '../../projections/projection.ts';
import { TPS_WINDOW, tpsProjection } from '../../projections/tps.ts';
import { VALIDATOR_WINDOW, validatorsProjection } from '../../projections/validators.ts';

const t = suite('window projections');

const g = { ...testnetGenesis(3, 1000, 'w', 0), timestamp: 0 };
const { state, block } = genesisState(g);
const info: ChainInfo = { genesis: g, genesisBlock: block, genesisState: state };

/** Blocks 1..n: each `gaps[i]` slots after its parent, with `txs[i]` transactions. */
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
    return { type: 'block', block: b, emitted: BigInt(reward), replay: false, balances: [] } as unknown as BlockEvent;
  });
}

const shapes = (max: number) =>
  fc.array(
    fc.record({ gap: fc.integer({ min: 1, max: 4 }), txs: fc.integer({ min: 0, max: 5 }), reward: fc.integer({ min: 0, max: 9 }) }),
    {
      maxLength: max,
    },
  );

async function* iterate(rows: Map<string, unknown>): AsyncGenerator<[string, unknown]> {
  for (const key of [...rows.keys()].sort()) yield [key, rows.get(key)];
}

/**
 * Folds block by block, as the runner does, checking that each delete names the row's value
 * (what the undo log records for it) and that the rows rebuild the state at every step's end.
 */
async function foldChecked<S>(p: Projection<S>, evs: BlockEvent[], window: number): Promise<void> {
  let s = p.init(info);
  const rows = new Map<string, unknown>();
  for (const ev of evs) {
    const step = p.apply(s, ev);
    s = step.state;
    for (const op of step.ops ?? []) {
      if (op.type === 'del') {
        assert.ok(rows.has(op.key), `${p.name} deletes ${op.key}, a row it holds`);
        assert.equal(op.prev, rows.get(op.key), `${p.name} names ${op.key}'s value`);
        rows.delete(op.key);
      } else {
        if (op.fresh) assert.not.ok(rows.has(op.key), `${p.name}'s fresh ${op.key} is new`);
        rows.set(op.key, op.value);
      }
    }
    // A block costs a bounded number of rows, however long the window.
    assert.ok((step.ops ?? []).length <= 3);
  }
  assert.ok(rows.size <= window + 1);
  assert.equal(await p.restore!(iterate(rows), info), s);
}

t('validators: one row a block, the leaving row deleted with its value, rows rebuild the window', async () => {
  await fc.assert(
    fc.asyncProperty(shapes(VALIDATOR_WINDOW + 40), async (shape) => foldChecked(validatorsProjection, events(shape), VALIDATOR_WINDOW)),
    { numRuns: 8 },
  );
  // Past the window, always.
  const evs = events(Array.from({ length: VALIDATOR_WINDOW + 5 }, (_, i) => ({ gap: 1 + (i % 3), txs: i % 2, reward: 1 })));
  await foldChecked(validatorsProjection, evs, VALIDATOR_WINDOW);
});

t('chainStats: tip figures and the recent window as rows rebuild the same state', async () => {
  await fc.assert(
    fc.asyncProperty(shapes(3 * RECENT_WINDOW), async (shape) => foldChecked(chainStatsProjection, events(shape), RECENT_WINDOW)),
    { numRuns: 30 },
  );
  let s = chainStatsProjection.init(info);
  for (const ev of events(Array.from({ length: RECENT_WINDOW + 3 }, () => ({ gap: 1, txs: 2, reward: 5 }))))
    s = chainStatsProjection.apply(s, ev).state;
  assert.equal(
    [s.height, s.latestBlockHash, s.totalTxs, s.recent.length],
    [RECENT_WINDOW + 3, `h${RECENT_WINDOW + 3}`, 2 * (RECENT_WINDOW + 3), RECENT_WINDOW],
  );
  assert.is(s.recent[0].index, 4);
});

t('tps: the window and the peak as rows rebuild the same state', async () => {
  await fc.assert(
    fc.asyncProperty(shapes(3 * TPS_WINDOW), async (shape) => foldChecked(tpsProjection, events(shape), TPS_WINDOW)),
    { numRuns: 30 },
  );
});

t('restoring from no rows is the genesis state', async () => {
  for (const p of [validatorsProjection, chainStatsProjection, tpsProjection] as Projection<unknown>[])
    assert.equal(await p.restore!(iterate(new Map()), info), p.init(info));
});

t.run();
