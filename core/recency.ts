/**
 * Least-recently-used order kept in a Map's insertion order without moving a key on every use.
 *
 * The usual Map LRU deletes a key and sets it again on each use. V8 leaves a deleted entry in
 * its hash bucket's chain until the table is rebuilt, so re-inserting the same key over and over
 * lengthens that one chain by an entry each time: in a cache of 65k accounts, an account written
 * every block (a funder, a miner) was found behind thousands of dead entries, ~20 us a lookup
 * (docs/performance.md). Here a use sets the value in place and marks the key; the sweep that
 * evicts from the old end gives a marked key a second chance instead (the CLOCK algorithm): it
 * moves to the young end once, unmarked, and goes on the next pass unless used again.
 */

/** Sets `key` to `value`; a key already held is marked as used (`used` undefined: nothing evicts, no marks). */
export function noteUse<K, V>(map: Map<K, V>, used: Set<K> | undefined, key: K, value: V): void {
  if (used !== undefined && map.has(key)) used.add(key);
  map.set(key, value);
}

/**
 * Evicts `excess` keys from the old end of `map`, skipping those `keep` pins; a key used since the
 * last pass moves to the young end instead, once (its mark cleared).
 */
export function evictOldest<K, V>(map: Map<K, V>, used: Set<K> | undefined, excess: number, keep?: (key: K) => boolean): void {
  if (excess <= 0) return;
  // A Map iterator visits entries set during the iteration: a moved key comes round again,
  // unmarked, and is evicted then if the pass still needs room.
  for (const [key, value] of map) {
    if (excess <= 0) break;
    if (keep?.(key)) continue;
    if (used?.delete(key)) {
      map.delete(key);
      map.set(key, value);
      continue;
    }
    map.delete(key);
    excess--;
  }
  // Marks of keys taken out of the map elsewhere (a removed record) go with them.
  if (used !== undefined && used.size > map.size) for (const key of used) if (!map.has(key)) used.delete(key);
}

/** Deletes the oldest key of `map` (the first inserted) when it holds `max` or more: room for one more. */
export function makeRoom<K>(map: Map<K, unknown> | Set<K>, max: number): void {
  if (map.size < max) return;
  for (const key of map.keys()) {
    map.delete(key);
    return;
  }
}
