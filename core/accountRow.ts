/**
 * An account as the consensus state's rows store it (`a:<address>` in the accounts read model):
 * big integers as decimal strings, `m` only for a miner. Core reads these rows back into a
 * bounded account cache (core/recordCache.ts); projections/accounts.ts writes them.
 */
import type { Account } from './txState.ts';

/** An account row's value. */
export interface StoredAccount {
  b: string;
  n: number;
  c: string;
  u: string;
  m?: string;
}

/** The prefix of account rows. */
export const ACCOUNT_ROW_PREFIX = 'a:';

/** The row key of an account. */
export const accountKey = (address: string): string => ACCOUNT_ROW_PREFIX + address;

/** An account row as stored. */
export function encodeAccount(a: Account): StoredAccount {
  return {
    b: a.balance.toString(),
    n: a.nonce,
    c: a.storageCapacity.toString(),
    u: a.storageUsed.toString(),
    ...(a.minerId ? { m: a.minerId } : {}),
  };
}

/** The account a stored row holds. */
export function decodeAccount(r: StoredAccount): Account {
  const a: Account = { balance: BigInt(r.b), nonce: r.n, storageCapacity: BigInt(r.c), storageUsed: BigInt(r.u) };
  if (r.m) a.minerId = r.m;
  return a;
}
