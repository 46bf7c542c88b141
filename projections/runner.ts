/**
 * The one projection runner. It subscribes to the node's event feed (RxJS), folds each block
 * event through every projection synchronously, and writes each projection's rows together with
 * its saved position in one LevelDB batch (projections/foldBatcher.ts). Reactors run beside the
 * projections (reactorSlots.ts); a reorganisation steps them all back (rollback.ts).
 */
import type { Observable, Subscription } from 'rxjs';
import { filter } from 'rxjs';
import type { Block } from '../core/block.ts';
import type { BlockEvent, ChainEvent, ChainInfo } from './events.ts';
import { FoldBatcher } from './foldBatcher.ts';
import type { Projection } from './projection.ts';
import type { Reactor } from './reactor.ts';
import { attachReactor, detachReactor, rewindReactors } from './reactorSlots.ts';
import { rollbackTo } from './rollback.ts';
import { minHeight, rowsByName, type RunnerParts, type Slot } from './slot.ts';
import { dumpSlots, loadSlots, resetSlot } from './loadSlots.ts';
import { prepareFold } from './prepareFold.ts';
import type { ProjectionStore, Rows } from './store.ts';
import { UndoLog } from './undoLog.ts';

/** Runs projections over the event feed and persists them with their saved positions. */
export class ProjectionRunner {
  private readonly parts: RunnerParts;
  /** Read models reset to genesis since start, one per projection (metrics: a rebuild shows here). */
  resets = 0;
  private subscription: Subscription | null = null;
  /** A height the head is known to be heading for (a sync target): undo is kept only near it. */
  undoHorizon = 0;
  /**
   * Slots this runner reset and that have folded nothing since: the load after a `resetAll` (a
   * replay) finds them without a saved position and must not clear their key spaces a second
   * time (a clear walks the first one's tombstones: a fifth of a 100k-transfer rebuild).
   */
  private readonly cleared = new Set<Slot>();

  // biome-ignore lint/suspicious/noExplicitAny: projections of different state types
  constructor(store: ProjectionStore, projections: Projection<any>[], info: ChainInfo, undoDepth = 128) {
    // The sublevel keeps its historical name: existing data dirs open as they are.
    const marks = store.sublevel('checkpoints');
    const undo = new UndoLog(store.sublevel('undo'), undoDepth);
    const slots = new Map<string, Slot>();
    const batch = new FoldBatcher(store, marks, undo, (name) => rowsByName(this.parts, name));
    this.parts = { store, info, slots, marks, undo, detached: new Set(), batch };
    for (const p of projections) {
      if (slots.has(p.name)) throw new Error(`duplicate projection ${p.name}`);
      slots.set(p.name, { p, state: undefined, height: 0, sub: store.sublevel(`p:${p.name}`) });
    }
  }

  /** Loads every projection from its saved position; a missing one or a new version starts at genesis. */
  async load(): Promise<void> {
    // Only a slot still at genesis can skip: rows go out with a saved position, so one without
    // a position has written no row since its reset.
    await loadSlots(this.parts, (slot) => (this.cleared.has(slot) && slot.height === 0 ? Promise.resolve() : this.reset(slot)));
    this.cleared.clear();
  }

  /** Drops a projection's rows and saved position; it restarts from genesis. */
  private async reset(slot: Slot): Promise<void> {
    this.resets++;
    await resetSlot(this.parts, slot);
    this.cleared.add(slot);
  }

  /** Resets every projection (for `replay`). */
  async resetAll(): Promise<void> {
    // A batch still in flight must not land after the clear.
    await this.flush();
    await this.parts.undo.clear();
    for (const slot of this.parts.slots.values()) if (!slot.reactor) await this.reset(slot);
  }

  /** Resets one projection (the consensus state must restart with its dependents). */
  async resetOne<S>(p: Projection<S>): Promise<void> {
    await this.flush();
    await this.parts.undo.clear();
    await this.reset(this.slotOf(p));
  }

  /** Height each projection has folded. */
  heights(): Record<string, number> {
    return Object.fromEntries([...this.parts.slots.values()].map((s) => [s.p.name, s.height]));
  }

  /** The lowest saved position: replay from the block after it. */
  minHeight(): number {
    return minHeight(this.parts);
  }

  /**
   * Runs `reactor` from its saved position: a new one (or a new version) starts at the projections'
   * height; one behind them is caught up from `blocks` first. From then on it folds every block
   * with the projections, in the same batches, and steps back with them on a reorganisation.
   */
  attachReactor<S>(reactor: Reactor<S>, blocks: (from: number, to: number) => AsyncIterable<Block>): Promise<void> {
    return attachReactor(this.parts, reactor, blocks);
  }

  /**
   * After a reorganisation deeper than the undo log (read models rebuilt from genesis), reactors
   * resume at the common ancestor so the new branch's blocks reach them.
   */
  rewindReactors(ancestor: number): Promise<void> {
    return rewindReactors(this.parts, ancestor);
  }

  /** The height a reactor has folded (undefined when it is not attached). */
  reactorHeight(name: string): number | undefined {
    const slot = this.parts.slots.get(name);
    return slot?.reactor ? slot.height : undefined;
  }

  /** Stops running a reactor (its rows and saved position stay for the next attach). */
  detachReactor(name: string): Promise<void> {
    return detachReactor(this.parts, name);
  }

  /** The slot of a registered projection (the very definition, not just its name). */
  private slotOf<S>(p: Projection<S>): Slot {
    const s = this.parts.slots.get(p.name);
    if (!s) throw new Error(`unknown projection ${p.name}`);
    if (s.p !== p) throw new Error(`projection ${p.name} is not the one this runner runs`);
    return s;
  }

  /** The current state of a projection, typed by its definition. */
  state<S>(p: Projection<S>): S {
    return this.slotOf(p).state as S;
  }

  /** A projection's height. */
  height<S>(p: Projection<S>): number {
    return this.slotOf(p).height;
  }

  /**
   * A projection's rows once everything folded so far is written: queries read their own
   * writes (a block's rows are readable as soon as its event is out).
   */
  async readable<S>(p: Projection<S>): Promise<Rows> {
    await this.flush();
    return this.slotOf(p).sub;
  }

  /**
   * Rows of `p` by key as every block folded so far left them, without waiting for the disk: the
   * writer's read before its next block (queries use `readable`).
   */
  rowsNow<S>(p: Projection<S>, keys: readonly string[]): Promise<unknown[]> {
    return this.parts.batch.getMany(this.slotOf(p).sub, keys);
  }

  /** The sublevel holding a projection's rows (no wait: for code that only writes or already flushed). */
  rows<S>(p: Projection<S>): Rows {
    return this.slotOf(p).sub;
  }

  /** Subscribes to the feed. */
  attach(events$: Observable<ChainEvent>): void {
    this.subscription = events$.pipe(filter((e): e is BlockEvent => e.type === 'block')).subscribe((ev) => this.fold(ev));
  }

  /**
   * Reads the rows projections need before folding `ev` and hands them over (projections/prepareFold.ts);
   * undefined when there is nothing to wait for. The writer awaits it before it folds or announces a block.
   */
  prepare(ev: BlockEvent): Promise<void> | undefined {
    return prepareFold(this.parts, ev);
  }

  /**
   * Runs `fn` (which announces a group of blocks, awaiting between them) with writes held: the
   * group's rows and saved positions go out as one batch when it ends, not one batch a block.
   */
  async group<T>(fn: () => Promise<T>): Promise<T> {
    this.parts.batch.hold();
    try {
      return await fn();
    } finally {
      this.parts.batch.release();
    }
  }

  /** Folds one block event through every projection and reactor behind it. */
  fold(ev: BlockEvent): void {
    const h = ev.block.index;
    // Blocks near the head keep undo records, so a reorganisation can step back to an ancestor.
    const track = h > Math.max(this.parts.store.head()?.index ?? 0, this.undoHorizon) - this.parts.undo.depth;
    // One step for every slot (~40 a block, most of a quiet chain's blocks' fold), not a closure each.
    const step = (slot: Slot) => (slot.reactor ? slot.reactor.react(slot.state, ev.block) : slot.p.apply(slot.state, ev));
    for (const slot of this.parts.slots.values()) {
      if (h <= slot.height) continue;
      this.parts.batch.foldSlot(slot, h, step, track);
      this.parts.batch.touch(slot);
    }
    this.parts.batch.writeSoon();
  }

  /**
   * Steps every read model back to `ancestor` through the undo log: rows restored and
   * saved positions moved in one batch, in-memory states reloaded. False (nothing changed) when the
   * log does not reach that far; the caller then rebuilds from genesis.
   */
  rollbackTo(ancestor: number): Promise<boolean> {
    this.cleared.clear();
    return rollbackTo(this.parts, ancestor);
  }

  /**
   * The rows of `p` changed since `ancestor`, with their values at `ancestor` (undefined: absent),
   * read from the undo log without moving anything; null when the log does not reach that far.
   */
  async rowsAt<S>(p: Projection<S>, ancestor: number): Promise<Map<string, unknown> | null> {
    await this.flush();
    const slot = this.slotOf(p);
    if (ancestor >= slot.height) return new Map();
    return this.parts.undo.rowsAt(p.name, ancestor, slot.height);
  }

  /** Resolves once everything folded so far is on disk. */
  flush(): Promise<void> {
    return this.parts.batch.flush();
  }

  /** Starts writing what is folded without waiting for it, once the batch before is written (projections/foldBatcher.ts). */
  writeBehind(): Promise<void> {
    return this.parts.batch.writeBehind();
  }

  /**
   * Every read model as plain JSON: saved state or rows, per projection (big integers as
   * strings). Two nodes with equal dumps serve equal reads.
   */
  async dump(): Promise<Record<string, unknown>> {
    await this.flush();
    return dumpSlots(this.parts);
  }

  /** Stops listening and flushes. */
  async stop(): Promise<void> {
    this.subscription?.unsubscribe();
    this.subscription = null;
    await this.flush();
  }
}
