/**
 * The runner's bookkeeping for one projection or reactor (a slot): its definition, in-memory
 * state, folded height and rows, and the parts the runner's files share (node-local to
 * projections/: the fold batches, reactors and rollback work on them).
 */
import type { ChainInfo } from './events.ts';
import type { Projection, Step } from './projection.ts';
import type { Reactor } from './reactor.ts';
import type { ProjectionStore, Rows } from './store.ts';
import type { UndoLog } from './undoLog.ts';

/** One projection or reactor as the runner runs it. */
export interface Slot {
  // biome-ignore lint/suspicious/noExplicitAny: slots hold projections of different state types
  p: Projection<any>;
  state: unknown;
  height: number;
  sub: Rows;
  /** Set for a reactor: node-local, block-only, never reset by `resetAll`. */
  reactor?: Reactor;
}

/**
 * A projection's saved position, stored beside its rows: folded height, definition version, saved
 * state (kept in the `checkpoints` sublevel by its historical name; "checkpoint" now means only
 * the state snapshot in checkpoint/).
 */
export interface FoldMark {
  height: number;
  version: number;
  saved?: unknown;
}

/** One write of a batch, into the sublevel it names. */
export type BatchOp = { type: 'put' | 'del'; sublevel: unknown; key: string; value?: unknown };

/** Folding into slots and writing the results (projections/foldBatcher.ts). */
export interface SlotBatch {
  /** One slot, one block: the step, its undo record (when `track`) and its rows queued. */
  foldSlot(slot: Slot, h: number, step: (slot: Slot) => Step<unknown>, track: boolean): void;
  /** Marks `slot` for the next batch (its saved position is written with it). */
  touch(slot: Slot): void;
  /** Writes what is queued at the end of this turn (one batch for blocks emitted together). */
  writeSoon(): void;
  /** Resolves once everything folded so far is on disk. */
  flush(): Promise<void>;
  /** Starts writing what is queued without waiting for it, once the batch in flight is written. */
  writeBehind(): Promise<void>;
  /** Rows of `sub` as every block folded so far left them, queued ones from memory (no write waited for). */
  getMany(sub: Rows, keys: readonly string[]): Promise<unknown[]>;
  /** Row operations queued for the next batch. */
  backlog(): number;
  /** Bounds the queue: writes it now when nothing is in flight, else waits for the batch in flight. */
  settle(): Promise<void>;
  /** Holds writes until `release` (a group of blocks goes out as one batch). */
  hold(): void;
  release(): void;
}

/** The runner's state that its fold, reactor and rollback files share. */
export interface RunnerParts {
  readonly store: ProjectionStore;
  readonly info: ChainInfo;
  readonly slots: Map<string, Slot>;
  /** Each projection's and reactor's `FoldMark` by name. */
  readonly marks: Rows;
  readonly undo: UndoLog;
  /** Reactors that ran here and were detached: their rows still step back on a reorganisation. */
  readonly detached: Set<string>;
  readonly batch: SlotBatch;
}

/** The lowest saved position of the projections (reactors aside): replay from the block after it. */
export function minHeight(parts: RunnerParts): number {
  return Math.min(...[...parts.slots.values()].filter((s) => !s.reactor).map((s) => s.height));
}

/** The rows of a projection or reactor by name, attached or not. */
export function rowsByName(parts: RunnerParts, name: string): Rows {
  return parts.slots.get(name)?.sub ?? parts.store.sublevel(`p:${name}`);
}

/** A slot's in-memory state from its saved state, its rows, or genesis (by what its projection keeps). */
export async function loadedState(slot: Slot, saved: unknown, info: ChainInfo): Promise<unknown> {
  if (slot.p.load) return slot.p.load(saved, info);
  const restore = slot.p.restore;
  if (restore) return await restoreFrom(slot.sub, (rows) => restore(rows, info));
  return slot.p.init(info);
}

/**
 * Runs a restore over an iterator of `sub` and closes it after, whatever the restore read: a
 * restore may stop early or read nothing (chat's bounded cache), and an iterator left open pins
 * the LevelDB version it was opened on, so the table files compacted since are never deleted (a
 * two-hour soak: a follower's data dir grew to 3x the authorities', its RSS with it, from 7 chat
 * iterators opened by restores after reorganisations and never read).
 */
export async function restoreFrom<S>(
  sub: { iterator(): AsyncIterable<[string, unknown]> & { close(): Promise<void> } },
  restore: (rows: AsyncIterable<[string, unknown]>) => Promise<S>,
): Promise<S> {
  const rows = sub.iterator();
  try {
    return await restore(rows);
  } finally {
    await rows.close();
  }
}
