/**
 * The storage port projections run on: named key spaces of JSON rows and one atomic write
 * across them. The block log (node/store/chainStore.ts) satisfies it; projections never import it.
 */
import type { Level } from 'level';

// Only its type is read: the sublevel with string keys and JSON values.
declare const db: Level<string, unknown>;
/** A key space of JSON rows (a LevelDB sublevel): string keys, each value as it was stored. */
export type Rows = ReturnType<typeof db.sublevel<string, unknown>>;

/** One write of a cross-keyspace batch. */
export type RowOp = { type: 'put'; sublevel: Rows; key: string; value: unknown } | { type: 'del'; sublevel: Rows; key: string };

/** What the projection runner needs from storage. */
export interface ProjectionStore {
  /** The key space `name` (the same rows every time it is asked for). */
  sublevel(name: string): Rows;
  /**
   * Writes every op, across key spaces, atomically and in order; `sync` waits for the disk;
   * `dedupe: false` skips dropping the earlier ops of a key written again (the same result).
   */
  write(ops: readonly RowOp[], opts?: { sync?: boolean; dedupe?: boolean }): Promise<void>;
  /** The block log's head, if any. */
  head(): { index: number } | null;
}
