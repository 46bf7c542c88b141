/**
 * A page of a numbered record list (projections/recordLists.ts): one range read of `limit` rows
 * at any offset. Miners are listed oldest first, tokens newest first, as they always were.
 */
import { kindRows, type ListedKind, ownerCountRow, ownerRows } from '../projections/recordLists.ts';
import type { RowReader } from '../projections/rows.ts';

/**
 * `limit` ids from `offset` of `kind`'s list (one owner's tokens when `owner` is given), with the
 * list's size: `total` for the whole list (the size the rows were written up to), else the
 * owner's count row.
 */
export async function recordListPage(
  rows: RowReader,
  kind: ListedKind,
  limit: number,
  offset: number,
  owner?: string,
  total?: number,
): Promise<{ total: number; ids: string[] }> {
  const newestFirst = kind !== 'miners';
  if (owner === undefined) return { total: total ?? 0, ids: await kindRows.page(rows, kind, total ?? 0, limit, offset, newestFirst) };
  const size = (await ownerCountRow.get(rows, [kind, owner])) ?? 0;
  return { total: size, ids: await ownerRows.page(rows, [kind, owner], size, limit, offset, newestFirst) };
}
