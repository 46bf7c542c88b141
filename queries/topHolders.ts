/**
 * The largest balances, ranked (balance descending, ties by address): a range read of the holders
 * model's rank rows (projections/holders.ts), which every block's balance changes keep in order.
 * A page costs O(offset + limit) rows, whatever the number of accounts; nothing scans them.
 */
import { type Holder, holderOf, holdersProjection, rankRow } from '../projections/holders.ts';
import type { ReadPorts } from '../node/ports.ts';

export type { Holder } from '../projections/holders.ts';

/** Negative when `a` ranks before `b`: larger balance first, then smaller address. */
export function rankOrder(a: Holder, b: Holder): number {
  if (a.balance !== b.balance) return a.balance > b.balance ? -1 : 1;
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

/** `limit` balances ranked from `offset` (0: the largest). */
export async function topHolders(models: ReadPorts['models'], limit: number, offset = 0): Promise<Holder[]> {
  // Before the first block the genesis holders are in memory only (the first block writes their rows).
  const genesis = models.state(holdersProjection).genesis;
  if (genesis)
    return genesis
      .map(([address, balance]) => ({ address, balance: BigInt(balance) }))
      .sort(rankOrder)
      .slice(offset, offset + limit);
  if (limit <= 0) return [];
  const rows = await models.readable(holdersProjection);
  const out: Holder[] = [];
  let skip = offset;
  // `r"` is the first key after every `r!...` row.
  for await (const [key, value] of rows.iterator({ gte: rankRow.prefix, lt: 'r"', limit: offset + limit })) {
    if (skip-- > 0) continue;
    out.push(holderOf(key, value));
  }
  return out;
}
