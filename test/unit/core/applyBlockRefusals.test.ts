import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyBlock, genesisState } from '../../../core/applyBlock.ts';
import { buildBlock } from '../../../core/buildBlock.ts';
import { attest, txRootOf, type Block } from '../../../core/block.ts';
import type { Genesis } from '../../../core/genesis.ts';
import type { ChainState } from '../../../core/state.ts';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { signTx } from '../../../core/txCodec.ts';
import { DEV_GENESIS, DEV_KEYS, refOf, refusal, reseal, transfer } from '../../helpers/coreSupport.ts';

const G = DEV_GENESIS;
const TS = G.timestamp + G.blockTimeMs;
const [K0, K1] = DEV_KEYS;
const { state: STATE, block: GENESIS } = genesisState(G);
const PARENT = refOf(GENESIS);

/** A valid block 1 on the dev genesis. */
function block1(txs: SignedTx[] = [], ts = TS, g: Genesis = G, key = K0, state: ChainState = STATE): Block {
  return buildBlock(state, refOf(genesisState(g).block), txs, key, ts, g).block;
}
/** The refusal of `b` as the child of the dev genesis block. */
const refuse = (b: unknown, now: number | undefined = TS) => refusal(() => applyBlock(STATE, PARENT, b, G, { now }));
const invalid = (message: string) => ({ code: 'INVALID_BLOCK', message });
const burn = signTx(
  { type: 'BURN', from: K1.address, amount: '100', reason: 'slashing', blockIndex: 1, tokensConsumed: 0, nonce: 0, timestamp: G.timestamp },
  K1,
);

test('a block built on the genesis is accepted and its stateRoot returned', () => {
  const b = block1([transfer(K1)]);
  assert.equal(b.transactions.length, 1);
  assert.equal(applyBlock(STATE, PARENT, b, G, { now: TS }).stateRoot, b.stateRoot);
});

test('a wrong index is refused', () => {
  assert.deepEqual(refuse(reseal({ ...block1(), index: 2 }, K0)), invalid('block 2: index does not follow parent 0'));
});

test('a wrong previousHash is refused', () => {
  assert.deepEqual(
    refuse(reseal({ ...block1(), previousHash: 'ab'.repeat(32) }, K0)),
    invalid('block 1: previousHash does not match the parent'),
  );
});

test("a block from the wrong slot owner is refused, naming the slot's owner", () => {
  const g: Genesis = { ...G, authorities: [K0.address, K1.address] };
  const { state, block: genesis } = genesisState(g);
  const slot = TS / 1000;
  assert.equal(slot % 2, 1);
  const byK0 = buildBlock(state, refOf(genesis), [], K0, TS, g).block;
  assert.deepEqual(
    refusal(() => applyBlock(state, refOf(genesis), byK0, g, { now: TS })),
    invalid(`block 1: slot ${slot} belongs to ${K1.address}, not ${K0.address}`),
  );
  const byK1 = buildBlock(state, refOf(genesis), [], K1, TS, g).block;
  assert.equal(applyBlock(state, refOf(genesis), byK1, g, { now: TS }).stateRoot, byK1.stateRoot);
  const nextSlotK0 = buildBlock(state, refOf(genesis), [], K0, TS + 1000, g).block;
  assert.equal(applyBlock(state, refOf(genesis), nextSlotK0, g, { now: TS + 1000 }).stateRoot, nextSlotK0.stateRoot);
});

test("a block in its parent's slot, or before it, is refused", () => {
  const slot = G.timestamp / 1000;
  assert.deepEqual(refuse(block1([], G.timestamp + 999)), invalid(`block 1: slot ${slot} is not after the parent's slot`));
  assert.deepEqual(refuse(block1([], G.timestamp - 1000)), invalid(`block 1: slot ${slot - 1} is not after the parent's slot`));
});

test('a timestamp more than one slot ahead of the local clock is refused; exactly one slot ahead is accepted', () => {
  const b = block1();
  assert.deepEqual(refuse(b, TS - G.blockTimeMs - 1), invalid('block 1: timestamp is more than one slot ahead of the local clock'));
  assert.equal(applyBlock(STATE, PARENT, b, G, { now: TS - G.blockTimeMs }).stateRoot, b.stateRoot);
  assert.equal(applyBlock(STATE, PARENT, b, G).stateRoot, b.stateRoot, 'replay has no clock');
});

test('a header that does not hash to `hash` is refused', () => {
  assert.deepEqual(refuse({ ...block1(), stateRoot: '00'.repeat(32) }), invalid('block 1: hash does not match the header'));
});

test('a txRoot that does not match the transactions is refused', () => {
  assert.deepEqual(
    refuse(reseal({ ...block1([transfer(K1)]), txRoot: '00'.repeat(32) }, K0)),
    invalid('block 1: txRoot does not match the transactions'),
  );
});

test('a stateRoot that does not match the state after the block is refused', () => {
  assert.deepEqual(
    refuse(reseal({ ...block1([transfer(K1)]), stateRoot: '00'.repeat(32) }, K0)),
    invalid('block 1: stateRoot does not match the state after the block'),
  );
});

test('tampered tokensBurned and tokensConsumed are refused with the expected value', () => {
  const b = block1([burn]);
  assert.equal(b.tokensBurned, '100');
  assert.deepEqual(refuse(reseal({ ...b, tokensBurned: '0' }, K0)), invalid('block 1: tokensBurned 0, expected 100'));
  assert.deepEqual(refuse(reseal({ ...b, tokensConsumed: '5' }, K0)), invalid('block 1: tokensConsumed 5, expected 0'));
});

test('the same transaction twice is refused', () => {
  const tx = transfer(K1);
  const b = block1([tx]);
  const twice = reseal({ ...b, transactions: [tx, tx], txRoot: txRootOf([tx, tx]) }, K0);
  assert.deepEqual(refuse(twice), invalid(`block 1: transaction ${tx.hash} appears twice`));
});

test('a transaction that does not apply is refused with its own code and message', () => {
  const tx = transfer(K1, { amount: '2000000000000' });
  const b = reseal({ ...block1(), transactions: [tx], txRoot: txRootOf([tx]) }, K0);
  assert.deepEqual(
    refuse(b),
    invalid(
      'block 1: invalid transaction: INSUFFICIENT_BALANCE: Insufficient balance: need 2000000.00001 OMBRA (2000000000010 micro-units), available 1000000 OMBRA (1000000000000 micro-units)',
    ),
  );
});

test('no attestation, or more than one, is refused', () => {
  const b = block1();
  assert.deepEqual(refuse({ ...b, attestations: [] }), invalid('block 1: expected exactly one attestation'));
  assert.deepEqual(
    refuse({ ...b, attestations: [b.attestations[0], b.attestations[0]] }),
    invalid('block 1: expected exactly one attestation'),
  );
});

test('an attestation by anyone but the proposer is refused', () => {
  const b = block1();
  assert.deepEqual(refuse({ ...b, attestations: [attest(b.hash, K1)] }), invalid('block 1: attestation is not by the proposer'));
});

test('an attestation signature over something else is refused', () => {
  const b = block1();
  assert.deepEqual(refuse({ ...b, attestations: [attest('00'.repeat(32), K0)] }), invalid('block 1: attestation signature invalid'));
});

test('more than 2000 transactions are refused before any is looked at', () => {
  const tx = transfer(K1);
  assert.deepEqual(
    refuse(reseal({ ...block1(), transactions: Array(2001).fill(tx) }, K0)),
    invalid('block 1: more than 2000 transactions'),
  );
});

test('a refused block leaves the state untouched', () => {
  const before = JSON.stringify(STATE, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Map ? [...v] : v));
  refuse(reseal({ ...block1([transfer(K1), burn]), stateRoot: '00'.repeat(32) }, K0));
  assert.equal(
    JSON.stringify(STATE, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Map ? [...v] : v)),
    before,
  );
});
