/** The genesis file's check (core/genesis.ts): a good file normalised, each bad field refused by name. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseGenesis } from '../../../core/genesis.ts';

const A = `ox${'1'.repeat(40)}`;
const B = `ox${'2'.repeat(40)}`;
const GOOD = {
  chainId: 'ombra-test',
  timestamp: 1_700_000_000_000,
  blockTimeMs: 1000,
  authorities: [A, B],
  allocations: { [A]: '1000' },
  blockReward: '50',
  forks: { 2: 0, 3: 0, 4: 10, 5: 20, 6: 30 },
};

test('a good genesis comes back normalised, copies and all; fork 7 and finalityDepth only when named', () => {
  const g = parseGenesis(GOOD);
  assert.deepEqual(g, { ...GOOD, forks: { 2: 0, 3: 0, 4: 10, 5: 20, 6: 30 } });
  assert.notEqual(g.authorities, GOOD.authorities);
  assert.notEqual(g.allocations, GOOD.allocations);
  assert.equal('finalityDepth' in g, false);
  assert.equal('7' in g.forks, false);
  const more = parseGenesis({ ...GOOD, forks: { ...GOOD.forks, 7: 40 }, finalityDepth: 64 });
  assert.equal(more.forks[7], 40);
  assert.equal(more.finalityDepth, 64);
});

test('each bad field is refused with INVALID_PARAMS naming it', () => {
  const cases: [unknown, string][] = [
    [null, 'must be a JSON object'],
    [[GOOD], 'must be a JSON object'],
    [{ ...GOOD, extra: 1 }, 'unknown field extra'],
    [{ ...GOOD, chainId: 'a b' }, 'chainId must be 1-64 of [A-Za-z0-9_.-]'],
    [{ ...GOOD, timestamp: -1 }, 'timestamp must be epoch ms'],
    [{ ...GOOD, blockTimeMs: 99 }, 'blockTimeMs must be 100..3600000'],
    [{ ...GOOD, blockTimeMs: '1000' }, 'blockTimeMs must be 100..3600000'],
    [{ ...GOOD, authorities: [] }, 'authorities must be 1-100 addresses'],
    [{ ...GOOD, authorities: ['x'] }, 'authorities must be 1-100 addresses'],
    [{ ...GOOD, authorities: [A, A] }, 'authorities must be distinct'],
    [{ ...GOOD, allocations: [] }, 'allocations must be an object'],
    [{ ...GOOD, allocations: { nobody: '1' } }, 'allocation key nobody is not an address'],
    [{ ...GOOD, allocations: { [A]: 1 } }, `allocation of ${A} must be a big-integer string`],
    [{ ...GOOD, blockReward: 50 }, 'blockReward must be a big-integer string'],
    [{ ...GOOD, forks: null }, 'forks must be an object of heights for 2..6 (and optionally 7)'],
    [{ ...GOOD, forks: { ...GOOD.forks, 4: -1 } }, 'forks.4 must be a block height'],
    [{ ...GOOD, forks: { 2: 0 } }, 'forks.3 must be a block height'],
    [{ ...GOOD, forks: { ...GOOD.forks, 7: 'soon' } }, 'forks.7 must be a block height'],
    [{ ...GOOD, forks: { ...GOOD.forks, 8: 1 } }, 'forks.8 is not a fork'],
    [{ ...GOOD, finalityDepth: 0 }, 'finalityDepth must be 1..100000 blocks'],
    [{ ...GOOD, finalityDepth: 100_001 }, 'finalityDepth must be 1..100000 blocks'],
  ];
  for (const [raw, why] of cases)
    assert.throws(() => parseGenesis(raw), { code: 'INVALID_PARAMS', message: `genesis: ${why}` }, JSON.stringify(raw));
});
