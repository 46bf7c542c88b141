/**
 * A page of a numbered list: rows `<prefix><n>` for n = 0..size-1 (projections/rowCounters.ts'
 * `listNumber`), read as one range of at most `limit` rows at any offset.
 */
import { listNumber } from '../projections/rowCounters.ts';
import type { Rows } from '../projections/store.ts';

/** The values of `limit` rows from `offset`, oldest (lowest number) first or newest first. */
export async function numberedPage<T>(
  rows: Rows,
  prefix: string,
  size: number,
  limit: number,
  offset: number,
  newestFirst: boolean,
): Promise<T[]> {
  const end = Math.min(size, offset + limit);
  const out: T[] = [];
  if (offset >= end) return out;
  // Numbers [from, to): the page itself, oldest first, or its mirror from the top, newest first.
  const [from, to] = newestFirst ? [size - end, size - offset] : [offset, end];
  for await (const v of rows.values({ gte: `${prefix}${listNumber(from)}`, lt: `${prefix}${listNumber(to)}`, reverse: newestFirst }))
    out.push(v as T);
  return out;
}
