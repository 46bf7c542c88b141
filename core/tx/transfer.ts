/** TRANSFER and BURN: moving and destroying native funds. */
import { ChainError } from '../errors.ts';
import { f, defineTx } from '../schema.ts';
import { defineFamily } from './family.ts';
import { feeOf, payFee, txHandler } from './handler.ts';

/** Smallest `block_energy` burn (MIN_BURN_PER_BLOCK). */
export const MIN_BURN_PER_BLOCK = 10n;
/** Tokens that cost one micro-unit of `block_energy` burn (BURN_TOKEN_DIVISOR). */
export const BURN_TOKEN_DIVISOR = 10_000_000n;

/** TRANSFER: the spec's order `type, from, to, amount, fee, nonce, timestamp, publicKey`. */
export const TRANSFER = defineTx({
  type: 'TRANSFER',
  family: 'transfer',
  fork: 1,
  doc: 'Moves `amount` from `from` to `to`; the fee goes to the block proposer.',
  fields: { from: f.address(), to: f.address(), amount: f.amount(), fee: f.amount(), nonce: f.uint(), timestamp: f.uint() },
  moneyFlow: '`amount` moves from `from` to `to`; `fee` moves from `from` to the block proposer.',
});

/** BURN: the live network's order; it has no fee. */
const BURN = defineTx({
  type: 'BURN',
  family: 'transfer',
  fork: 1,
  doc: "Destroys `amount` of the sender's balance. `block_energy` burns pay for a block's inference tokens and must be at least max(10, tokensConsumed / 10,000,000); no fee.",
  fields: {
    from: f.address(),
    amount: f.amount(),
    reason: f.oneOf(['block_energy', 'slashing'] as const),
    blockIndex: f.uint(),
    tokensConsumed: f.uint(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
  moneyFlow: '`amount` leaves `from` and is added to `burned`; there is no fee.',
});

const transfer = txHandler(TRANSFER, {
  cost: (tx) => ({ balance: BigInt(tx.amount) + feeOf(tx), storage: 0n }),
  check(tx) {
    if (BigInt(tx.amount) === 0n) throw new ChainError('VALIDATION_FAILED', 'amount must be positive');
  },
  apply(tx, s, ctx) {
    const amount = BigInt(tx.amount);
    s.account(tx.from).balance -= amount;
    s.account(tx.to).balance += amount;
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

const burn = txHandler(BURN, {
  cost: (tx) => ({ balance: BigInt(tx.amount), storage: 0n }),
  check(tx, _state, ctx) {
    const amount = BigInt(tx.amount);
    if (amount === 0n) throw new ChainError('VALIDATION_FAILED', 'amount must be positive');
    if (tx.blockIndex > ctx.height) {
      throw new ChainError('VALIDATION_FAILED', `blockIndex ${tx.blockIndex} is after the including block ${ctx.height}`);
    }
    if (tx.reason === 'block_energy') {
      const byTokens = BigInt(tx.tokensConsumed) / BURN_TOKEN_DIVISOR;
      const min = byTokens > MIN_BURN_PER_BLOCK ? byTokens : MIN_BURN_PER_BLOCK;
      if (amount < min) throw new ChainError('VALIDATION_FAILED', `block_energy burn must be at least ${min}`);
    }
  },
  apply(tx, s) {
    const amount = BigInt(tx.amount);
    s.account(tx.from).balance -= amount;
    s.supply.burned += amount;
  },
});

/** Native funds: TRANSFER and BURN. */
export const transferFamily = defineFamily({ name: 'transfer', handlers: [transfer, burn] });
