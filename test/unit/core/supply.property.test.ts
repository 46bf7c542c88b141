/**
 * Random traffic among the 10 dev accounts, built into blocks by a proposer and re-applied by
 * a receiver: every micro-unit stays accounted for, both states agree, and buildBlock includes
 * exactly what an independent model of the rules says is valid.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockRewardAt, STORAGE_QUOTA_PER_BLOCK, type Genesis } from '../../../core/genesis.ts';
import type { ChainState } from '../../../core/state.ts';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { signTx } from '../../../core/txCodec.ts';
import { DEV_GENESIS, DEV_KEYS, LATE_GENESIS, supplyGap, TwoNodeChain } from '../../helpers/coreSupport.ts';

const DROP_CODES = new Set(['STALE_NONCE', 'NONCE_GAP', 'INSUFFICIENT_BALANCE', 'INSUFFICIENT_STORAGE', 'VALIDATION_FAILED']);

interface Op {
  kind: 'TRANSFER' | 'BURN' | 'STORAGE_TRANSFER' | 'MINER_REGISTER';
  from: number;
  to: number;
  amount: bigint;
  bytes: bigint;
  fee: bigint;
  nonceDelta: number;
  energy: boolean;
  blockDelta: number;
}
interface ModelAccount {
  balance: bigint;
  nonce: number;
  cap: bigint;
  miner: boolean;
}
interface Model {
  accounts: ModelAccount[];
  burned: bigint;
  emitted: bigint;
}

const arbOp: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('TRANSFER', 'TRANSFER', 'BURN', 'STORAGE_TRANSFER', 'STORAGE_TRANSFER', 'MINER_REGISTER'),
  from: fc.integer({ min: 0, max: 9 }),
  to: fc.integer({ min: 0, max: 9 }),
  amount: fc.oneof(
    fc.constant(0n),
    fc.bigInt({ min: 1n, max: 20n }),
    fc.bigInt({ min: 1n, max: 10n ** 6n }),
    fc.bigInt({ min: 1n, max: 10n ** 12n }),
    fc.constant(10n ** 13n),
  ),
  bytes: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 100n }), fc.bigInt({ min: 4000n, max: 9000n })),
  fee: fc.bigInt({ min: 0n, max: 1000n }),
  nonceDelta: fc.constantFrom(0, 0, 0, 0, 0, -1, 1, 3),
  energy: fc.boolean(),
  blockDelta: fc.constantFrom(0, -1, 1),
});

/** The signed transaction an op stands for at the model's current nonce. */
function txOf(op: Op, m: Model, height: number, timestamp: number): SignedTx {
  const key = DEV_KEYS[op.from];
  const base = { from: key.address, nonce: Math.max(0, m.accounts[op.from].nonce + op.nonceDelta), timestamp };
  const to = DEV_KEYS[op.to].address;
  const body =
    op.kind === 'TRANSFER'
      ? { type: op.kind, from: base.from, to, amount: String(op.amount), fee: String(op.fee) }
      : op.kind === 'BURN'
        ? {
            type: op.kind,
            from: base.from,
            amount: String(op.amount),
            reason: op.energy ? 'block_energy' : 'slashing',
            blockIndex: Math.max(0, height + op.blockDelta),
            tokensConsumed: 0,
          }
        : op.kind === 'STORAGE_TRANSFER'
          ? { type: op.kind, from: base.from, to, bytes: String(op.bytes), fee: String(op.fee) }
          : { type: op.kind, from: base.from, name: `miner-${op.from}`, capabilities: ['chat'], fee: String(op.fee) };
  return signTx({ ...body, nonce: base.nonce, timestamp }, key) as SignedTx;
}

/** The model's verdict on a tx, applied to the model when valid. Written from docs/protocol.md's money flows, not from core. */
function modelApply(tx: SignedTx, m: Model, height: number, proposer: number): boolean {
  const from = m.accounts[DEV_KEYS.findIndex((k) => k.address === tx.from)];
  const fee = typeof tx.fee === 'string' ? BigInt(tx.fee) : 0n;
  if (tx.nonce !== from.nonce) return false;
  if (tx.type === 'TRANSFER') {
    const amount = BigInt(tx.amount as string);
    if (amount === 0n || from.balance < amount + fee) return false;
    from.balance -= amount + fee;
    m.accounts[DEV_KEYS.findIndex((k) => k.address === tx.to)].balance += amount;
  } else if (tx.type === 'BURN') {
    const amount = BigInt(tx.amount as string);
    if (amount === 0n || from.balance < amount || (tx.blockIndex as number) > height || (tx.reason === 'block_energy' && amount < 10n))
      return false;
    from.balance -= amount;
    m.burned += amount;
  } else if (tx.type === 'STORAGE_TRANSFER') {
    const bytes = BigInt(tx.bytes as string);
    if (bytes === 0n || from.balance < fee || from.cap < bytes) return false;
    from.balance -= fee;
    from.cap -= bytes;
    m.accounts[DEV_KEYS.findIndex((k) => k.address === tx.to)].cap += bytes;
  } else {
    if (from.miner || from.balance < fee) return false;
    from.balance -= fee;
    from.miner = true;
  }
  m.accounts[proposer].balance += fee;
  from.nonce += 1;
  return true;
}

/** Account fields of the dev accounts in a state, in model form. */
function observed(s: ChainState): ModelAccount[] {
  return DEV_KEYS.map((k) => {
    const a = s.accounts.get(k.address)!;
    return { balance: a.balance, nonce: a.nonce, cap: a.storageCapacity, miner: a.minerId !== undefined };
  });
}

/** Runs random blocks on `g` and checks every block. */
function runChain(g: Genesis, blocks: Op[][]): void {
  const chain = new TwoNodeChain(g);
  const m: Model = {
    accounts: DEV_KEYS.map(() => ({ balance: 10n ** 12n, nonce: 0, cap: 0n, miner: false })),
    burned: 0n,
    emitted: 10n ** 13n,
  };
  assert.equal(supplyGap(chain.proposer), 0n);
  for (const ops of blocks) {
    const height = chain.head.index + 1;
    const timestamp = chain.head.timestamp + g.blockTimeMs;
    const candidates: SignedTx[] = [];
    const expected: string[] = [];
    for (const op of ops) {
      const tx = txOf(op, m, height, timestamp);
      candidates.push(tx);
      if (modelApply(tx, m, height, 0)) expected.push(tx.hash);
    }
    const reward = blockRewardAt(g, height);
    m.accounts[0].balance += reward;
    m.accounts[0].cap += STORAGE_QUOTA_PER_BLOCK;
    m.emitted += reward;

    const { block, dropped, received } = chain.next(candidates);
    assert.deepEqual(
      block.transactions.map((x) => x.hash),
      expected,
      `block ${height}: included`,
    );
    assert.equal(block.transactions.length + dropped.length, candidates.length);
    for (const d of dropped) assert.ok(DROP_CODES.has(d.error.code), `${d.error.code}: ${d.error.message}`);
    assert.equal(received.stateRoot, block.stateRoot);
    assert.equal(supplyGap(chain.proposer), 0n, `block ${height}: proposer supply`);
    assert.equal(supplyGap(chain.receiver), 0n, `block ${height}: receiver supply`);
    assert.deepEqual(chain.receiver.supply, chain.proposer.supply);
    assert.deepEqual(observed(chain.receiver), observed(chain.proposer));
    assert.deepEqual(observed(chain.proposer), m.accounts, `block ${height}: accounts`);
    assert.equal(chain.proposer.supply.emitted, m.emitted);
    assert.equal(chain.proposer.supply.burned, m.burned);
  }
}

test('on the dev genesis (no block reward) supply is conserved and both nodes agree after every block', () => {
  fc.assert(
    fc.property(fc.array(fc.array(arbOp, { maxLength: 8 }), { minLength: 1, maxLength: 5 }), (blocks) => runChain(DEV_GENESIS, blocks)),
    { numRuns: 60 },
  );
});

test('on the late-forks genesis the 50 OMBRA reward is emitted until height 10 and never after', () => {
  fc.assert(
    fc.property(fc.array(fc.array(arbOp, { maxLength: 3 }), { minLength: 11, maxLength: 12 }), (blocks) => runChain(LATE_GENESIS, blocks)),
    { numRuns: 10 },
  );
});

test('the late-forks reward schedule is 50,000,000 micro-units at heights 1-9 and 0 at 0 and from 10', () => {
  assert.deepEqual(
    [0, 1, 9, 10, 11].map((h) => blockRewardAt(LATE_GENESIS, h)),
    [0n, 50_000_000n, 50_000_000n, 0n, 0n],
  );
  assert.equal(blockRewardAt(DEV_GENESIS, 1), 0n);
});

test('the generator makes both kinds: some candidates are dropped and some included', () => {
  let included = 0;
  let dropped = 0;
  fc.assert(
    fc.property(fc.array(arbOp, { minLength: 5, maxLength: 10 }), (ops) => {
      const chain = new TwoNodeChain(DEV_GENESIS);
      const m: Model = {
        accounts: DEV_KEYS.map(() => ({ balance: 10n ** 12n, nonce: 0, cap: 0n, miner: false })),
        burned: 0n,
        emitted: 0n,
      };
      const r = chain.next(ops.map((op) => txOf(op, m, 1, chain.head.timestamp + 1000)));
      included += r.block.transactions.length;
      dropped += r.dropped.length;
    }),
    { numRuns: 20 },
  );
  assert.ok(included > 10 && dropped > 10, `included ${included}, dropped ${dropped}`);
});
