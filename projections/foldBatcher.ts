/**
 * Folding and writing: each block runs through a slot's step, its undo record is noted and its
 * rows queued; queued rows go out with each dirty slot's saved position in one LevelDB batch. Writes
 * coalesce while a batch is in flight, so a replay writes few large batches and a live node one
 * small batch per block. Rows queued or in flight are read through `getMany` without waiting for
 * the disk, so reading a row before the next block never forces a write per block.
 */
import type { KvOp, Step } from './projection.ts';
import type { BatchOp, FoldMark, Slot, SlotBatch } from './slot.ts';
import type { ProjectionStore, Rows } from './store.ts';
import type { UndoLog } from './undoLog.ts';

/**
 * Reads of at most this many keys are answered on this thread (LevelDB's synchronous get: a few
 * microseconds from its memtable, cache or filters) instead of a round trip through the thread
 * pool, which costs ~35 us of this thread's time alone: a block of one transfer to a new address
 * reads two or three rows.
 */
const SYNC_READS = 16;

/**
 * Rows written but maybe not on disk yet, by key space: the last op of each key (a put or a
 * delete), or, for a key space nothing has read through this batcher, every op in fold order.
 */
type Overlay = Map<Rows, Queued>;

/**
 * One key space's queued ops. A list while every op queued is a fresh put (a key that did not
 * exist: a transaction's index row, an address's next history run) and nothing read the key space
 * (`getMany`): a replay queues a thousand blocks of such rows, and a Map entry a row was this
 * thread's largest cost a block after the reducers. Written in order, a list leaves what its last
 * op of each key says, as LevelDB applies a batch in order. Keyed otherwise: rows rewritten block
 * after block (balances, counts, ranks) go out once, with their last op.
 */
interface Queued {
  list: KvOp[] | null;
  byKey: Map<string, KvOp> | null;
}

/** `q`'s ops by key, the last of each winning (made from the list on first use, then kept). */
function byKeyOf(q: Queued): Map<string, KvOp> {
  if (!q.byKey) {
    q.byKey = new Map();
    for (const op of q.list ?? []) q.byKey.set(op.key, op);
    q.list = null;
  }
  return q.byKey;
}

/** Folds blocks into slots and writes the results in coalesced batches. */
export class FoldBatcher implements SlotBatch {
  private readonly store: ProjectionStore;
  private readonly marks: Rows;
  private readonly undo: UndoLog;
  private readonly rowsByName: (name: string) => Rows;
  /** The rows queued for the next batch, last write of a key winning (the batch is made of them). */
  private pendingRows: Overlay = new Map();
  /** Row operations folded into `pendingRows` since the last batch, repeats counted. */
  private queued = 0;
  /** The rows of the batch being written (null when none is). */
  private flyingRows: Overlay | null = null;
  private dirty = new Set<Slot>();
  private writing: Promise<void> = Promise.resolve();
  private inFlight = false;
  /** A batch is due once the block events emitted in the same turn are all folded. */
  private due = false;
  private failure: unknown = null;
  /** Groups being folded (`hold`): their rows wait for the group's end, then go out as one batch. */
  private held = 0;
  /** Key spaces read through `getMany` or given an op other than a fresh put: queued by key from then on. */
  private readonly keyed = new Set<Rows>();

  constructor(store: ProjectionStore, marks: Rows, undo: UndoLog, rowsByName: (name: string) => Rows) {
    this.store = store;
    this.marks = marks;
    this.undo = undo;
    this.rowsByName = rowsByName;
  }

  /** One slot, one block: the step, its undo record and its rows queued for the next batch. */
  foldSlot(slot: Slot, h: number, step: (slot: Slot) => Step<unknown>, track: boolean): void {
    if (h !== slot.height + 1) throw new Error(`projection ${slot.p.name} at ${slot.height} got block ${h}`);
    // A projection that can revert a block keeps that block's small `undo` instead of its whole state.
    const whole = track && slot.p.save !== undefined && slot.p.revert === undefined;
    const before = whole && slot.p.save ? structuredClone(slot.p.save(slot.state)) : undefined;
    const next = step(slot);
    if (track) this.undo.note(h, slot.p.name, next.ops ?? [], before, whole, slot.p.revert ? { value: next.undo ?? null } : undefined);
    slot.state = next.state;
    slot.height = h;
    const ops = next.ops ?? [];
    if (ops.length === 0) return;
    let rows = this.pendingRows.get(slot.sub);
    if (!rows) {
      rows = this.keyed.has(slot.sub) ? { list: null, byKey: new Map() } : { list: [], byKey: null };
      this.pendingRows.set(slot.sub, rows);
    }
    // The op itself, not a copy: ops are never mutated once a step returned them.
    for (const op of ops) {
      if (rows.list && !(op.type === 'put' && op.fresh)) {
        this.keyed.add(slot.sub);
        byKeyOf(rows);
      }
      if (rows.list) rows.list.push(op);
      else if (rows.byKey) {
        // A delete of a row put fresh in this batch: the row has not reached the disk (nor any
        // batch before), so nothing is left to delete (a holder's rank, moved block after block).
        const queued = op.type === 'del' ? rows.byKey.get(op.key) : undefined;
        if (queued?.type === 'put' && queued.fresh) rows.byKey.delete(op.key);
        else rows.byKey.set(op.key, op);
      }
    }
    this.queued += ops.length;
  }

  /**
   * The values of `keys` in `sub` as every block folded so far left them: rows queued or in
   * flight from this batcher, the rest from disk (no write is waited for). Values from memory come
   * as the disk would give them back (a JSON copy), never the reducer's own object.
   */
  async getMany(sub: Rows, keys: readonly string[]): Promise<unknown[]> {
    const out: unknown[] = new Array(keys.length);
    // Read from now on: the key space's ops are queued by key (what is queued as a list is keyed once).
    this.keyed.add(sub);
    const pending = this.pendingRows.get(sub);
    const queued = pending && byKeyOf(pending);
    const inFlight = this.flyingRows?.get(sub);
    const flying = inFlight && byKeyOf(inFlight);
    const missing: string[] = [];
    const at: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      // A delete queued hides a put in flight: only a key absent from both falls through.
      let hit = queued?.get(keys[i]);
      if (hit === undefined) hit = flying?.get(keys[i]);
      if (hit !== undefined) out[i] = hit.type === 'del' ? undefined : JSON.parse(JSON.stringify(hit.value));
      else {
        missing.push(keys[i]);
        at.push(i);
      }
    }
    // Not queued nor in flight: every write of these keys has landed, so the disk has the latest.
    if (missing.length > SYNC_READS) {
      const values = await sub.getMany(missing);
      for (let j = 0; j < at.length; j++) out[at[j]] = values[j];
    } else for (let j = 0; j < at.length; j++) out[at[j]] = sub.getSync(missing[j]);
    return out;
  }

  /** Row operations queued for the next batch (a writer far ahead of the disk waits: `settle`). */
  backlog(): number {
    return this.queued;
  }

  /**
   * Bounds the queue: with no batch in flight, what is queued goes out now (a held group too);
   * with one, resolves once it is written (the queue goes out next).
   */
  async settle(): Promise<void> {
    if (this.inFlight) await this.writing;
    else this.schedule(true);
    if (this.failure) throw this.failure;
  }

  /** Marks `slot` for the next batch (its saved position is written with it). */
  touch(slot: Slot): void {
    this.dirty.add(slot);
  }

  /**
   * Writes what is queued at the end of this turn: blocks imported as a group are emitted one
   * after another in one turn, so their rows go out as one batch with one saved position a
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

  /**
   * Holds writes until the matching `release`: the blocks of one imported group are announced one
   * after another across awaits, and would otherwise go out as a batch (and a saved position of every
   * saved model) a block; `flush` still writes at once.
   */
  hold(): void {
    this.held++;
  }

  /** Ends a `hold`: what the group folded is written soon, as one batch. */
  release(): void {
    this.held = Math.max(0, this.held - 1);
    if (this.held === 0) this.writeSoon();
  }

  private schedule(force = false): void {
    if (this.inFlight || this.dirty.size === 0 || (this.held > 0 && !force)) return;
    this.inFlight = true;
    // A keyed key space: each key once, with its last operation; a list: every operation in order.
    // Either is what writing every operation in order would leave.
    const ops: BatchOp[] = [];
    for (const [sub, rows] of this.pendingRows)
      for (const row of rows.list ?? rows.byKey?.values() ?? [])
        ops.push(
          row.type === 'del'
            ? { type: 'del', sublevel: sub, key: row.key }
            : { type: 'put', sublevel: sub, key: row.key, value: row.value },
        );
    for (const slot of this.dirty) {
      const mark: FoldMark = { height: slot.height, version: slot.p.version };
      // A copy taken now: the batch is encoded only after the undo drain, and reducers may update
      // their state in place meanwhile; a live reference would store a later block's state under
      // this height, and a kill -9 would then count the blocks in between twice.
      if (slot.p.save) mark.saved = structuredClone(slot.p.save(slot.state));
      ops.push({ type: 'put', sublevel: this.marks, key: slot.p.name, value: mark });
    }
    const reactors = [...this.dirty].filter((slot) => slot.reactor?.written);
    this.queued = 0;
    this.flyingRows = this.pendingRows;
    this.pendingRows = new Map();
    this.dirty = new Set();
    this.writing = this.undo
      .drain((name) => this.rowsByName(name))
      // Rows come once a key already (a list holds fresh puts: new keys), and saved positions once
      // a slot: the store's de-duplication would find next to nothing (an undo record put and
      // deleted in one batch is written twice, in order, as LevelDB applies a batch).
      .then((undoOps) => this.store.write(ops.concat(undoOps) as never, { dedupe: false }))
      .then(() => {
        for (const slot of reactors) slot.reactor?.written?.(slot.state);
      })
      .catch((e: unknown) => {
        this.failure = e;
      })
      .finally(() => {
        this.inFlight = false;
        this.flyingRows = null;
        this.schedule();
      });
  }

  /**
   * Starts writing what is queued (a held group's too) and resolves without waiting for it, once
   * the batch in flight, if any, is written: a writer folds on while the disk writes, a batch
   * behind at most (a catch-up's thread waited for each thousand blocks' write before).
   */
  async writeBehind(): Promise<void> {
    if (this.inFlight) await this.writing;
    this.schedule(true);
    if (this.failure) throw this.failure;
  }

  /** Resolves once everything folded so far is on disk. */
  async flush(): Promise<void> {
    while (this.inFlight || this.dirty.size > 0) {
      this.schedule(true);
      await this.writing;
    }
    if (this.failure) throw this.failure;
  }
}
