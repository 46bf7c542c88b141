import { test } from 'node:test';
import assert from 'node:assert/strict';
import { genesisState } from '../../../core/applyBlock.ts';
import { ChainError } from '../../../core/errors.ts';
import { f, defineTx, type PayloadOf } from '../../../core/schema.ts';
import { StateOverlay } from '../../../core/stateOverlay.ts';
import { feeOf, isTx, payFee, txHandler, type SignedTx, type SignedTxOf, type TxContext } from '../../../core/tx/handler.ts';
import { TASK_RESPONSE } from '../../../core/tx/task/task.ts';
import { DEV_GENESIS, DEV_KEYS } from '../../helpers/coreSupport.ts';

// A type of this test's own: `tip` is what a handler sees.
const TIP = defineTx({
  type: 'TIP',
  family: 'test',
  fork: 1,
  doc: 'A tip.',
  fields: {
    from: f.address(),
    to: f.address(),
    amount: f.amount(),
    note: f.optional(f.text(64)),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
  moneyFlow: '`amount` moves from `from` to `to`.',
});

const tip = txHandler(TIP, {
  cost: (tx) => ({ balance: BigInt(tx.amount) + feeOf(tx), storage: 0n }),
  check(tx) {
    if (tx.note !== undefined && tx.note.length === 0) throw new ChainError('VALIDATION_FAILED', 'an empty note');
  },
  apply(tx, s, ctx) {
    s.account(tx.from).balance -= BigInt(tx.amount);
    s.account(tx.to).balance += BigInt(tx.amount);
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

test('handlers see the payload typed from the schema (checked by tsc)', () => {
  const payload: PayloadOf<typeof TIP> = { type: 'TIP', from: 'ox1', to: 'ox2', amount: '5', fee: '1', nonce: 0, timestamp: 0 };
  const response = {} as SignedTxOf<typeof TASK_RESPONSE>;
  const tokens: number | undefined = response.tokensOut;
  const content: string = response.content;
  // @ts-expect-error amount is a big-integer string, not a number
  const wrong: number = payload.amount;
  // @ts-expect-error an optional field may be absent
  const required: number = response.tokensOut;
  // @ts-expect-error a field the schema does not have
  void payload.bogus;
  // @ts-expect-error a required field cannot be left out
  const missing: PayloadOf<typeof TIP> = { type: 'TIP', from: 'ox1', amount: '5', fee: '1', nonce: 0, timestamp: 0 };
  assert.ok([tokens, content, wrong, required, missing].length === 5);
});

test('txHandler makes an executed handler whose hooks run on the typed payload', () => {
  const { state } = genesisState(DEV_GENESIS);
  const s = new StateOverlay(state);
  const [a, b, proposer] = [DEV_KEYS[0].address, DEV_KEYS[1].address, DEV_KEYS[2].address];
  const before = s.peek(a).balance;
  const tx = { type: 'TIP', from: a, to: b, amount: '70', fee: '3', nonce: 0, timestamp: 0 } as unknown as SignedTx;
  const ctx: TxContext = { height: 1, timestamp: 0, proposer, genesis: DEV_GENESIS };
  assert.equal(tip.schema, TIP);
  assert.deepEqual(tip.cost(tx), { balance: 73n, storage: 0n });
  tip.check?.(tx, s, ctx);
  assert.throws(() => tip.check?.({ ...tx, note: '' }, s, ctx), /an empty note/);
  tip.apply(tx, s, ctx);
  assert.equal(s.peek(a).balance, before - 73n);
  assert.equal(s.peek(b).balance - state.accounts.get(b)!.balance, 70n);
  assert.equal(s.supply.feesPaid, 3n);
});

test('isTx tells a transaction of a type apart and narrows its fields', () => {
  const tx = { type: 'TIP', from: 'ox1', to: 'ox2', amount: '5', fee: '1', nonce: 0, timestamp: 0 } as unknown as SignedTx;
  assert.ok(isTx(tx, TIP));
  assert.ok(!isTx(tx, TASK_RESPONSE));
  if (isTx(tx, TIP)) {
    const amount: string = tx.amount;
    assert.equal(amount, '5');
  }
});
