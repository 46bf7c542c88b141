import { test } from 'node:test';
import assert from 'node:assert/strict';
import { genesisState } from '../../../core/applyBlock.ts';
import type { Genesis } from '../../../core/genesis.ts';
import { MAX_TX_FUTURE_MS } from '../../../core/genesis.ts';
import { sha256Hex } from '../../../core/hash.ts';
import { StateOverlay } from '../../../core/stateOverlay.ts';
import { signTx, txHash } from '../../../core/txCodec.ts';
import { validateTx, type PendingRun, type ValidationEnv } from '../../../core/validateTx.ts';
import { exampleTx } from '../../helpers/txExamples.ts';
import { DEV_GENESIS, DEV_KEYS, LATE_GENESIS, refusal, transfer } from '../../helpers/coreSupport.ts';

const [K0, K1, K2] = DEV_KEYS;

/** A validation environment at height 1 over a fresh copy of `g`'s genesis state. */
function envOf(g: Genesis = DEV_GENESIS, extra: Partial<ValidationEnv> = {}): ValidationEnv & { state: StateOverlay } {
  return { height: 1, timestamp: g.timestamp + g.blockTimeMs, genesis: g, ...extra, state: new StateOverlay(genesisState(g).state) };
}

test('a well-formed transfer at the account nonce validates', () => {
  const tx = transfer(K1);
  assert.equal(validateTx(tx, envOf()), tx);
});

test('AGENT_REQUEST on the late-forks genesis at height 1 is FORK_NOT_ACTIVE, naming the fork and its height', () => {
  const tx = exampleTx('AGENT_REQUEST', K1);
  assert.deepEqual(
    refusal(() => validateTx(tx, envOf(LATE_GENESIS))),
    { code: 'FORK_NOT_ACTIVE', message: 'fork not active: AGENT_REQUEST needs fork 6 (height 1000000), next block is 1' },
  );
});

test('the fork check comes before the hash check', () => {
  const tx = { ...exampleTx('AGENT_REQUEST', K1), hash: '00'.repeat(32) };
  assert.equal(refusal(() => validateTx(tx, envOf(LATE_GENESIS))).code, 'FORK_NOT_ACTIVE');
});

test('with every fork at 0, the same AGENT_REQUEST passes the fork check and reaches its own rules', () => {
  const tx = exampleTx('AGENT_REQUEST', K1);
  assert.deepEqual(
    refusal(() => validateTx(tx, envOf())),
    { code: 'VALIDATION_FAILED', message: 'agentRunId must be SHA-256(from + nonce + prompt[:256])' },
  );
});

test('a nonce below the account nonce is STALE_NONCE: nonce stale: tx=X, state=Y', () => {
  const env = envOf();
  env.state.account(K1.address).nonce = 3;
  assert.deepEqual(
    refusal(() => validateTx(transfer(K1, { nonce: 1 }), env)),
    { code: 'STALE_NONCE', message: 'nonce stale: tx=1, state=3' },
  );
});

test('a nonce beyond the account nonce is NONCE_GAP', () => {
  assert.deepEqual(
    refusal(() => validateTx(transfer(K1, { nonce: 2 }), envOf())),
    { code: 'NONCE_GAP', message: 'nonce gap: tx=2, expected=0' },
  );
});

test('with a pending run, the next nonce is after the run; a nonce inside the run is DUPLICATE_TX', () => {
  const pending = (): PendingRun => ({ count: 2, balance: 0n, storage: 0n });
  assert.equal(validateTx(transfer(K1, { nonce: 2 }), envOf(DEV_GENESIS, { pending })).nonce, 2);
  assert.deepEqual(
    refusal(() => validateTx(transfer(K1, { nonce: 1 }), envOf(DEV_GENESIS, { pending }))),
    { code: 'DUPLICATE_TX', message: 'a pending transaction already uses nonce 1' },
  );
  assert.deepEqual(
    refusal(() => validateTx(transfer(K1, { nonce: 3 }), envOf(DEV_GENESIS, { pending }))),
    { code: 'NONCE_GAP', message: 'nonce gap: tx=3, expected=2' },
  );
});

test('a transaction already in the mempool is DUPLICATE_TX', () => {
  const tx = transfer(K1);
  assert.deepEqual(
    refusal(() => validateTx(tx, envOf(DEV_GENESIS, { inMempool: (h) => h === tx.hash }))),
    { code: 'DUPLICATE_TX', message: 'Tx already in mempool' },
  );
});

test('amount + fee above the balance is INSUFFICIENT_BALANCE, pending spends included', () => {
  assert.deepEqual(
    refusal(() => validateTx(transfer(K1, { amount: '1000000000000', fee: '1' }), envOf())),
    {
      code: 'INSUFFICIENT_BALANCE',
      message:
        'Insufficient balance: need 1000000.000001 OMBRA (1000000000001 micro-units), available 1000000 OMBRA (1000000000000 micro-units)',
    },
  );
  const pending = (): PendingRun => ({ count: 0, balance: 999_999_999_000n, storage: 0n });
  assert.deepEqual(
    refusal(() => validateTx(transfer(K1, { amount: '1000', fee: '1' }), envOf(DEV_GENESIS, { pending }))),
    {
      code: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient balance: need 0.001001 OMBRA (1001 micro-units), available 0.001 OMBRA (1000 micro-units)',
    },
  );
  assert.equal(validateTx(transfer(K1, { amount: '999', fee: '1' }), envOf(DEV_GENESIS, { pending })).amount, '999');
});

test('a STORAGE_TRANSFER beyond the free capacity is INSUFFICIENT_STORAGE; within it, valid', () => {
  const tx = signTx(
    { type: 'STORAGE_TRANSFER', from: K1.address, to: K2.address, bytes: '10', fee: '0', nonce: 0, timestamp: DEV_GENESIS.timestamp },
    K1,
  );
  assert.deepEqual(
    refusal(() => validateTx(tx, envOf())),
    { code: 'INSUFFICIENT_STORAGE', message: 'insufficient storage: need 10 bytes, free 0' },
  );
  const env = envOf();
  Object.assign(env.state.account(K1.address), { storageCapacity: 4096n, storageUsed: 4090n });
  assert.deepEqual(
    refusal(() => validateTx(tx, env)),
    { code: 'INSUFFICIENT_STORAGE', message: 'insufficient storage: need 10 bytes, free 6' },
  );
  env.state.account(K1.address).storageUsed = 4086n;
  assert.equal(validateTx(tx, env), tx);
});

test("from that doesn't derive from publicKey is VALIDATION_FAILED, even with a correct hash and signature", () => {
  const tx = signTx(
    { type: 'TRANSFER', from: K1.address, to: K2.address, amount: '1', fee: '0', nonce: 0, timestamp: DEV_GENESIS.timestamp },
    K0,
  );
  assert.deepEqual(
    refusal(() => validateTx(tx, envOf())),
    { code: 'VALIDATION_FAILED', message: "from doesn't derive from publicKey" },
  );
});

test('a wrong hash is HASH_MISMATCH naming the recomputed hash, checked before the signature', () => {
  const tx = transfer(K1);
  const bad = { ...tx, hash: '00'.repeat(32), signature: '00'.repeat(64) };
  assert.deepEqual(
    refusal(() => validateTx(bad, envOf())),
    { code: 'HASH_MISMATCH', message: `hash mismatch: payload hashes to ${tx.hash}` },
  );
});

test('a signature by another key is INVALID_SIGNATURE', () => {
  const tx = transfer(K1);
  const other = transfer(K2);
  assert.deepEqual(
    refusal(() => validateTx({ ...tx, signature: other.signature }, envOf())),
    { code: 'INVALID_SIGNATURE', message: 'signature invalid' },
  );
});

test('zero amounts, a too-far-future timestamp and a second miner registration are VALIDATION_FAILED', () => {
  assert.deepEqual(
    refusal(() => validateTx(transfer(K1, { amount: '0' }), envOf())),
    { code: 'VALIDATION_FAILED', message: 'amount must be positive' },
  );
  const env = envOf();
  assert.deepEqual(
    refusal(() => validateTx(transfer(K1, { timestamp: env.timestamp + MAX_TX_FUTURE_MS + 1 }), env)),
    {
      code: 'VALIDATION_FAILED',
      message: `timestamp ${env.timestamp + MAX_TX_FUTURE_MS + 1} is more than ${MAX_TX_FUTURE_MS} ms ahead`,
    },
  );
  assert.equal(validateTx(transfer(K1, { timestamp: env.timestamp + MAX_TX_FUTURE_MS }), env).nonce, 0);
  const reg = exampleTx('MINER_REGISTER', K1);
  env.state.account(K1.address).minerId = sha256Hex('x');
  assert.deepEqual(
    refusal(() => validateTx(reg, env)),
    { code: 'VALIDATION_FAILED', message: `address is already registered as miner ${sha256Hex('x')}` },
  );
});

test('BURN rules: blockIndex not after the block, block_energy at least 10', () => {
  const burn = (over: Record<string, unknown>) =>
    signTx(
      {
        type: 'BURN',
        from: K1.address,
        amount: '10',
        reason: 'block_energy',
        blockIndex: 1,
        tokensConsumed: 0,
        nonce: 0,
        timestamp: DEV_GENESIS.timestamp,
        ...over,
      },
      K1,
    );
  assert.equal(validateTx(burn({}), envOf()).amount, '10');
  assert.deepEqual(
    refusal(() => validateTx(burn({ blockIndex: 2 }), envOf())),
    { code: 'VALIDATION_FAILED', message: 'blockIndex 2 is after the including block 1' },
  );
  assert.deepEqual(
    refusal(() => validateTx(burn({ amount: '9' }), envOf())),
    { code: 'VALIDATION_FAILED', message: 'block_energy burn must be at least 10' },
  );
  assert.deepEqual(
    refusal(() => validateTx(burn({ amount: '10', tokensConsumed: 200_000_000 }), envOf())),
    { code: 'VALIDATION_FAILED', message: 'block_energy burn must be at least 20' },
  );
});

test('shape errors are INVALID_PARAMS naming the field', () => {
  const tx = transfer(K1);
  assert.deepEqual(
    refusal(() => validateTx({ ...tx, amount: 5 }, envOf())),
    { code: 'INVALID_PARAMS', message: 'TRANSFER.amount must be a decimal big-integer string without sign or leading zeros' },
  );
  assert.deepEqual(
    refusal(() => validateTx({ ...tx, to: `${tx.to}0` }, envOf())),
    { code: 'INVALID_PARAMS', message: 'TRANSFER.to must be an address: ox + 40 hex' },
  );
  assert.deepEqual(
    refusal(() => validateTx({ ...tx, to: `ox${'g'.repeat(40)}` }, envOf())),
    { code: 'INVALID_PARAMS', message: 'TRANSFER.to must be an address: ox + 40 hex' },
  );
  // Any case is an address (the spec's addresses are case-insensitive), but the hash covers the bytes as sent.
  assert.deepEqual(
    refusal(() => validateTx({ ...tx, to: (tx.to as string).toUpperCase() }, envOf())),
    { code: 'HASH_MISMATCH', message: `hash mismatch: payload hashes to ${txHash({ ...tx, to: (tx.to as string).toUpperCase() })}` },
  );
  assert.deepEqual(
    refusal(() => validateTx({ ...tx, type: 'MINT' }, envOf())),
    { code: 'INVALID_PARAMS', message: 'unknown transaction type MINT' },
  );
  assert.deepEqual(
    refusal(() => validateTx('{}', envOf())),
    { code: 'INVALID_PARAMS', message: 'transaction must be a JSON object' },
  );
});
