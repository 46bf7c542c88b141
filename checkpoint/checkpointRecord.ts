/**
 * What a data dir started from a checkpoint remembers about it (the `checkpoint` row of `meta`):
 * where it came from and how far its background verification got. It survives restarts, so a
 * verified checkpoint stays verified and a mismatch keeps the node from serving reads.
 */
import type { ChainStore } from '../node/store/chainStore.ts';

/**
 * Where the background verification stands: `failed` when it could not be done (the file gone,
 * no history from peers within the wait, the replay unable to run); a restart with the file
 * present tries again.
 */
export type CheckpointStatus = 'verifying' | 'verified' | 'mismatch' | 'failed';

/** The `checkpoint` row of a data dir installed from a checkpoint. */
export interface CheckpointRecord {
  height: number;
  hash: string;
  /** The lowest block above 0 the installed log held; blocks 1..base-1 are fetched from peers. */
  base: number;
  /** The lowest block above 0 the log holds now: `base` until the history below it is fetched, then 1. */
  logFrom: number;
  /** Hex SHA-256 of the installed file. */
  digest: string;
  status: CheckpointStatus;
  /** Why the verification found a mismatch or failed (set with `status: "mismatch"` or `"failed"`). */
  reason?: string;
  /** Blocks the verification has replayed so far. */
  verifiedHeight?: number;
}

type Snapshot = ReturnType<ChainStore['db']['snapshot']>;

/** The data dir's checkpoint row, or undefined for a node that started from genesis. */
export async function checkpointRecord(store: ChainStore, snapshot?: Snapshot): Promise<CheckpointRecord | undefined> {
  return (await store.meta.get('checkpoint', snapshot ? { snapshot } : {})) as CheckpointRecord | undefined;
}

// LevelDB's `sync`, which level's put options do not name.
const SYNCED: object = { sync: true };

/** Stores the checkpoint row (synced: a status must survive a crash). */
export async function saveCheckpointRecord(store: ChainStore, record: CheckpointRecord): Promise<void> {
  await store.meta.put('checkpoint', record, SYNCED);
}
