/**
 * A page of an ordered index: a row group (projections/rows.ts) whose keys sort in list order
 * (runs by status, submitter or miner; a conversation's turns; an author's conversations). Such
 * lists shift as rows come and go, so they are not numbered (`numberedRows`): the `offset` rows
 * before the page are stepped over as keys only, nothing of theirs read or decoded, and only the
 * page's values are read.
 */
import type { RowGroup } from '../projections/rows.ts';
import type { Rows } from '../projections/store.ts';

/** The values of `limit` rows of `group`'s `key` after skipping `offset`, in key order or newest (last key) first. */
export async function orderedPage<G, T>(
  rows: Rows,
  group: Pick<RowGroup<G, never, T>, 'range' | 'value'>,
  key: G,
  limit: number,
  offset: number,
  newestFirst: boolean,
): Promise<T[]> {
  const out: T[] = [];
  if (limit === 0) return out;
  const { gte, lt } = group.range(key);
  // The last key skipped bounds the page (exclusive).
  let bound: string | undefined;
  if (offset > 0) {
    let skipped = 0;
    for await (const k of rows.keys({ gte, lt, reverse: newestFirst, limit: offset })) {
      bound = k;
      skipped++;
    }
    if (skipped < offset) return out;
  }
  const range = bound === undefined ? { gte, lt } : newestFirst ? { gte, lt: bound } : { gt: bound, lt };
  for await (const v of rows.values({ ...range, reverse: newestFirst, limit })) out.push(group.value(v));
  return out;
}
