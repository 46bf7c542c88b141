/**
 * A page of a numbered record list (projections/recordLists.ts): one range read of `limit` rows
 * at any offset. Miners are listed oldest first, tokens newest first, as they always were.
 */
import { type ListedKind, listPrefix, ownerCountKey } from '../projections/recordLists.ts';
import type { Rows } from '../projections/store.ts';
import { numberedPage } from './numberedPage.ts';

/**
 * `limit` ids from `offset` of `kind`'s list (one owner's tokens when `owner` is given), with the
 * list's size: `total` for the whole list (the size the rows were written up to), else the
 * owner's count row.
 */
export async function recordListPage(
  rows: Rows,
  kind: ListedKind,
  limit: number,
  offset: number,
  owner?: string,
  total?: number,
): Promise<{ total: number; ids: string[] }> {
  const size = owner === undefined ? (total ?? 0) : (((await rows.get(ownerCountKey(kind, owner))) as number | undefined) ?? 0);
  return { total: size, ids: await numberedPage<string>(rows, listPrefix(kind, owner), size, limit, offset, kind !== 'miners') };
}
