/**
 * Range fetching with one answer in flight ahead: the next range is asked for as soon as an
 * answer arrives, so the peer reads and sends it while this node verifies and imports the one
 * before. Fetched one after another, the importer sat idle for a round trip and the peer's read
 * of every batch.
 */

/** Fetches `lo..hi` (at most one batch); may answer a non-empty prefix of it. */
export type RangeFetch<T> = (lo: number, hi: number) => Promise<T[]>;

/**
 * Items `from..to` in order, fetched `batch` at a time with the next request sent before the
 * current answer is consumed. At most two answers are held. A request still in flight when the
 * consumer stops runs to its end on its own, and its failure is not left unhandled.
 */
export async function* fetchAhead<T>(from: number, to: number, batch: number, fetch: RangeFetch<T>): AsyncGenerator<T> {
  const ask = (lo: number) => {
    const answer = fetch(lo, Math.min(to, lo + batch - 1));
    // Awaited below; if the consumer stopped first, nobody else would handle its rejection.
    answer.catch(() => undefined);
    return answer;
  };
  let lo = from;
  let next = lo <= to ? ask(lo) : null;
  while (next) {
    const items = await next;
    lo += items.length;
    // An empty answer would ask for the same range forever: the caller's checks refuse those,
    // and this stops regardless.
    next = lo <= to && items.length > 0 ? ask(lo) : null;
    yield* items;
  }
}
