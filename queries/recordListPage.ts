/**
 * A page of a numbered record list (projections/recordLists.ts): one range read of `limit` rows
 * at any offset. Miners are listed oldest first (numbers upwards), tokens newest first (numbers
 * downwards), as they always were.
 */
import { type ListedKind, listNumber, listPrefix, ownerCountKey } from '../projections/recordLists.ts';
import type { Rows } from '../projections/store.ts';

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
  const end = Math.min(size, offset + limit);
  const ids: string[] = [];
  if (offset >= end) return { total: size, ids };
  const prefix = listPrefix(kind, owner);
  const oldestFirst = kind === 'miners';
  // Numbers [from, to): the page itself, oldest first, or its mirror from the top, newest first.
  const [from, to] = oldestFirst ? [offset, end] : [size - end, size - offset];
  for await (const id of rows.values({ gte: `${prefix}${listNumber(from)}`, lt: `${prefix}${listNumber(to)}`, reverse: !oldestFirst }))
    ids.push(id as string);
  return { total: size, ids };
}
