import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testnetGenesis } from '../../../cli/testnet.ts';
import { validatorStats, validatorsProjection, type ValidatorWindow } from '../../../projections/validators.ts';
import { genesisState } from '../../../core/applyBlock.ts';
import type { BlockEvent } from '../../../projections/events.ts';
import { openTestChain } from '../../helpers/testChain.ts';

test('counts proposed blocks per authority and the slots each left empty', () => {
  const g = { ...testnetGenesis(3, 1000, 'v', 0), timestamp: 0 };
  const { state, block } = genesisState(g);
  let w: ValidatorWindow = validatorsProjection.init({ genesis: g, genesisBlock: block, genesisState: state });
  const ev = (slot: number) =>
    ({ type: 'block', block: { timestamp: slot * 1000, proposer: g.authorities[slot % 3] } }) as unknown as BlockEvent;
  // Blocks in slots 1, 2, 4, 5, 9: slots 3, 6, 7, 8 are empty (owners 0, 0, 1, 2).
  for (const slot of [1, 2, 4, 5, 9]) w = validatorsProjection.apply(w, ev(slot)).state;
  assert.deepEqual(validatorStats(w), {
    blocks: 5,
    fromSlot: 1,
    toSlot: 9,
    validators: [
      { address: g.authorities[0], proposed: 1, missed: 2 },
      { address: g.authorities[1], proposed: 2, missed: 1 },
      { address: g.authorities[2], proposed: 2, missed: 1 },
    ],
  });
});

test('GET /api/stats/validators answers the dev authority with every slot filled', async () => {
  const c = await openTestChain();
  try {
    await c.produce(4);
    const res = await c.app.request('/api/stats/validators');
    const body = (await res.json()) as ReturnType<typeof validatorStats>;
    assert.equal(res.status, 200);
    assert.equal(body.blocks, 4);
    assert.deepEqual(body.validators, [{ address: c.genesis.authorities[0], proposed: 4, missed: 0 }]);
  } finally {
    await c.destroy();
  }
});
