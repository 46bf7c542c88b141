/** MINER_REGISTER: an address becomes a miner; its id is SHA-256 of the registering tx hash. */
import { ChainError } from '../errors.ts';
import { sha256Hex } from '../hash.ts';
import { defineRecord } from '../record.ts';
import { f, defineTx } from '../schema.ts';
import { defineFamily } from './family.ts';
import { feeOf, payFee, txHandler } from './handler.ts';

/** A registered miner (reputation and completed tasks are read models, not consensus). */
export interface Miner {
  id: string;
  name: string;
  address: string;
  capabilities: string[];
  registeredAt: number;
  txHash: string;
}

/** Miner records: `m:<minerId>`. */
export const MINERS = defineRecord<Miner>()('miners', { prefix: 'm', id: 'minerId', doc: 'miner' });

const MINER_REGISTER = defineTx({
  type: 'MINER_REGISTER',
  family: 'miner',
  fork: 1,
  doc: "Registers the sender as a miner (one per address). Miner id = hex SHA-256 of the UTF-8 bytes of this transaction's hash.",
  fields: {
    from: f.address(),
    name: f.text(64, 1),
    capabilities: f.strings(32, f.pattern(/^[a-z0-9_:.-]{1,64}$/, 'a capability [a-z0-9_:.-]{1,64}')),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
  moneyFlow: '`fee` moves from `from` to the block proposer; no other funds move.',
});

/** The miner id a MINER_REGISTER transaction creates. */
export function minerIdOf(txHash: string): string {
  return sha256Hex(txHash);
}

const register = txHandler(MINER_REGISTER, {
  check(tx, state) {
    const existing = state.peek(tx.from).minerId;
    if (existing) throw new ChainError('VALIDATION_FAILED', `address is already registered as miner ${existing}`);
  },
  apply(tx, s, ctx) {
    const id = minerIdOf(tx.hash);
    s.put(MINERS, id, {
      id,
      name: tx.name,
      address: tx.from,
      capabilities: [...tx.capabilities],
      registeredAt: ctx.height,
      txHash: tx.hash,
    });
    s.account(tx.from).minerId = id;
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** Miners: MINER_REGISTER and the miner records. */
export const minerFamily = defineFamily({ name: 'miner', handlers: [register], records: [MINERS] });
