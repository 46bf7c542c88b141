/**
 * Folding and writing: each block runs through a slot's step, its undo record is noted and its
 * rows queued; queued rows go out with each dirty slot's checkpoint in one LevelDB batch. Writes
 * coalesce while a batch is in flight, so a replay writes few large batches and a live node one
 * small batch per block.
 */
import type { Step } from './projection.ts';
import type { BatchOp, Checkpoint, Slot, SlotBatch } from './slot.ts';
import type { ProjectionStore, Rows } from './store.ts';
import type { UndoLog } from './undoLog.ts';

/** Folds blocks into slots and writes the results in coalesced batches. */
export class FoldBatcher implements SlotBatch {
  private readonly store: ProjectionStore;
  private readonly checkpoints: Rows;
  private readonly undo: UndoLog;
  private readonly rowsByName: (name: string) => Rows;
  private pending: BatchOp[] = [];
  private dirty = new Set<Slot>();
  private writing: Promise<void> = Promise.resolve();
  private inFlight = false;
  /** A batch is due once the block events emitted in the same turn are all folded. */
  private due = false;
  private failure: unknown = null;

  constructor(store: ProjectionStore, checkpoints: Rows, undo: UndoLog, rowsByName: (name: string) => Rows) {
    this.store = store;
    this.checkpoints = checkpoints;
    this.undo = undo;
    this.rowsByName = rowsByName;
  }

  /** One slot, one block: the step, its undo record and its rows queued for the next batch. */
  foldSlot(slot: Slot, h: number, step: () => Step<unknown>, track: boolean): void {
    if (h !== slot.height + 1) throw new Error(`projection ${slot.p.name} at ${slot.height} got block ${h}`);
    // A projection that can revert a block keeps that block's small `undo` instead of its whole state.
    const whole = track && slot.p.save !== undefined && slot.p.revert === undefined;
    const before = whole && slot.p.save ? structuredClone(slot.p.save(slot.state)) : undefined;
    const next = step();
    if (track) this.undo.note(h, slot.p.name, next.ops ?? [], before, whole, slot.p.revert ? { value: next.undo ?? null } : undefined);
    slot.state = next.state;
    slot.height = h;
    for (const op of next.ops ?? []) {
      this.pending.push(
        op.type === 'put'
          ? { type: 'put', sublevel: slot.sub, key: op.key, value: op.value }
          : { type: 'del', sublevel: slot.sub, key: op.key },
      );
    }
  }

  /** Marks `slot` for the next batch (its checkpoint is written with it). */
  touch(slot: Slot): void {
    this.dirty.add(slot);
  }

  /**
   * Writes what is queued at the end of this turn: blocks imported as a group are emitted one
   * after another in one turn, so their rows go out as one batch with one checkpoint a
   * projection, not the first block alone and then the rest.
   */
  writeSoon(): void {
    if (this.due) return;
    this.due = true;
    queueMicrotask(() => {
      this.due = false;
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.inFlight || this.dirty.size === 0) return;
    this.inFlight = true;
    const ops = this.pending;
    for (const slot of this.dirty) {
      const cp: Checkpoint = { height: slot.height, version: slot.p.version };
      // A copy taken now: the batch is encoded only after the undo drain, and reducers may update
      // their state in place meanwhile; a live reference would store a later block's state under
      // this height, and a kill -9 would then count the blocks in between twice.
      if (slot.p.save) cp.saved = structuredClone(slot.p.save(slot.state));
      ops.push({ type: 'put', sublevel: this.checkpoints, key: slot.p.name, value: cp });
    }
    const reactors = [...this.dirty].filter((slot) => slot.reactor?.written);
    this.pending = [];
    this.dirty = new Set();
    this.writing = this.undo
      .drain((name) => this.rowsByName(name))
      .then((undoOps) => this.store.write([...ops, ...undoOps] as never))
      .then(() => {
        for (const slot of reactors) slot.reactor?.written?.(slot.state);
      })
      .catch((e: unknown) => {
        this.failure = e;
      })
      .finally(() => {
        this.inFlight = false;
        this.schedule();
      });
  }

  /** Resolves once everything folded so far is on disk. */
  async flush(): Promise<void> {
    while (this.inFlight || this.dirty.size > 0) {
      this.schedule();
      await this.writing;
    }
    if (this.failure) throw this.failure;
  }
}
