/**
 * Counters kept in rows with a bounded cache in memory, for read models that number per-key
 * lists (an owner's tokens, an author's posts, an address's messages) so a page at any offset is
 * one range read. The fold needs each key's count: the cache holds at most `cap` of them (least
 * recently counted first out), and one it lost is read back from its row before the block that
 * counts it is folded (the projection's `needs`/`take`, ProjectionRunner.prepare). Restarts and
 * rollbacks start with an empty cache: the rows are the truth.
 */
import { evictOldest, noteUse } from '../core/recency.ts';
import { row } from './rows.ts';

/** A count row: how many rows a key's list holds. */
const countRow = row<number>('');

/** Counts by row key, bounded. */
export interface RowCounters {
  cap: number;
  /** Counts by row key, least recently counted first (as core/recency.ts orders them). */
  counts: Map<string, number>;
  /** Keys counted again since the last eviction pass (undefined: unbounded, nothing evicts). */
  used?: Set<string>;
  /** Keys read back and found absent: counted first by the block about to be folded. */
  absent: Set<string>;
}

/** An empty cache of at most `cap` counts (ChainInfo.recordCache; absent: no bound). */
export function rowCounters(cap = Number.POSITIVE_INFINITY): RowCounters {
  return { cap, counts: new Map(), absent: new Set(), used: cap === Number.POSITIVE_INFINITY ? undefined : new Set() };
}

/** The keys of `keys` the cache cannot answer (each once): the rows `needs` names. */
export function missingCounts(c: RowCounters, keys: Iterable<string>): string[] {
  // Made only when a key is missing: most blocks name none (prepare asks every block).
  const out: string[] = [];
  for (const k of keys) if (!c.counts.has(k) && !c.absent.has(k)) out.push(k);
  return out.length > 1 ? [...new Set(out)] : out;
}

/** Takes rows read back (undefined: no row, a count of 0). */
export function takeCounts(c: RowCounters, rows: Map<string, unknown>): void {
  for (const [key, n] of rows) {
    if (n === undefined) c.absent.add(key);
    else c.counts.set(key, countRow.value(n));
  }
}

/**
 * The next number of `key`'s list (its count before these `by`), counting them; throws when the
 * count was neither cached nor read back (a fold without the runner's prepare: a bug).
 */
export function nextNumber(c: RowCounters, key: string, what: string, by = 1): number {
  let n = c.counts.get(key);
  if (n === undefined) {
    if (!c.absent.delete(key)) throw new Error(`${what}: the count ${key} is not loaded (fold after the runner's prepare)`);
    n = 0;
  }
  noteUse(c.counts, c.used, key, n + by);
  return n;
}

/** Drops the least recently counted keys beyond the cap (their rows hold their counts). */
export function trimCounts(c: RowCounters): void {
  evictOldest(c.counts, c.used, c.counts.size - c.cap);
}
