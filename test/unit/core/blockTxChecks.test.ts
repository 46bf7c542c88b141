/** The stateless transaction checks catch-up's workers run (core/blockTxChecks.ts), and applyBlock with them skipped. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyBlock, genesisState, txBytes } from '../../../core/applyBlock.ts';
import { buildBlock } from '../../../core/buildBlock.ts';
import type { Block } from '../../../core/block.ts';
import { checkedTxBytes } from '../../../core/blockTxChecks.ts';
import { DEV_GENESIS, DEV_KEYS, refOf, refusal, transfer } from '../../helpers/coreSupport.ts';

const G = DEV_GENESIS;
const TS = G.timestamp + G.blockTimeMs;
const [K0, K1, K2] = DEV_KEYS;
const { state: STATE, block: GENESIS } = genesisState(G);
const BLOCK: Block = buildBlock(STATE, refOf(GENESIS), [transfer(K1), transfer(K2)], K0, TS, G).block;
/** BLOCK with transaction `i` changed by `change` (nothing re-hashed or re-signed). */
const tampered = (i: number, change: Record<string, unknown>): Block => ({
  ...BLOCK,
  transactions: BLOCK.transactions.map((t, j) => (j === i ? { ...t, ...change } : t)),
});

test('a block whose transactions pass gives the bytes they take', () => {
  assert.equal(BLOCK.transactions.length, 2);
  assert.equal(checkedTxBytes(BLOCK), txBytes(BLOCK.transactions));
  assert.equal(checkedTxBytes({ ...BLOCK, transactions: [], txRoot: '0'.repeat(64) }), 0);
});

test('a changed field, an unknown field, a changed txRoot or no block at all fails', () => {
  assert.equal(checkedTxBytes(tampered(1, { amount: '2' })), null);
  assert.equal(checkedTxBytes(tampered(0, { memo: 'x' })), null);
  assert.equal(checkedTxBytes(tampered(0, { from: K2.address })), null);
  assert.equal(checkedTxBytes({ ...BLOCK, txRoot: 'ab'.repeat(32) }), null);
  assert.equal(checkedTxBytes({ ...BLOCK, transactions: [...BLOCK.transactions].reverse() }), null);
  for (const raw of [null, 'block', [], { transactions: 'x' }]) assert.equal(checkedTxBytes(raw), null);
});

test('applied with the transaction checks skipped, a block still has its state checked', () => {
  const opts = { signaturesVerified: true, txsChecked: true, txBytes: txBytes(BLOCK.transactions) };
  assert.equal(applyBlock(STATE, refOf(GENESIS), BLOCK, G, opts).stateRoot, BLOCK.stateRoot);
  const twice = { ...BLOCK, transactions: [BLOCK.transactions[0], BLOCK.transactions[0]] };
  assert.match(refusal(() => applyBlock(STATE, refOf(GENESIS), twice, G, opts)).message, /appears twice/);
});
