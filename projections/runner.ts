/**
 * The one projection runner. It subscribes to the node's event feed (RxJS), folds each block
 * event through every projection synchronously, and writes each projection's rows together with
 * its checkpoint in one LevelDB batch. Writes coalesce while a batch is in flight, so a replay
 * writes few large batches and a live node one small batch per block.
 */
import type { Observable, Subscription } from 'rxjs';
import { filter } from 'rxjs';
import type { BlockEvent, ChainEvent, ChainInfo } from './events.ts';
import type { Projection, Step } from './projection.ts';
import type { ProjectionStore, Rows } from './store.ts';
import type { Reactor } from './reactor.ts';
import type { Block } from '../core/block.ts';
import { UndoLog, type UndoEntry } from './undoLog.ts';

interface Slot {
  // biome-ignore lint/suspicious/noExplicitAny: slots hold projections of different state types
  p: Projection<any>;
  state: unknown;
  height: number;
  sub: Rows;
  /** Set for a reactor: node-local, block-only, never reset by `resetAll`. */
  reactor?: Reactor;
}

interface Checkpoint {
  height: number;
  version: number;
  saved?: unknown;
}

type BatchOp = { type: 'put' | 'del'; sublevel: unknown; key: string; value?: unknown };

/** Runs projections over the event feed and persists them with checkpoints. */
export class ProjectionRunner {
  private readonly store: ProjectionStore;
  private readonly info: ChainInfo;
  private readonly slots = new Map<string, Slot>();
  /** Read models reset to genesis since start, one per projection (metrics: a rebuild shows here). */
  resets = 0;
  private readonly checkpoints: Rows;
  private pending: BatchOp[] = [];
  private dirty = new Set<Slot>();
  private writing: Promise<void> = Promise.resolve();
  private inFlight = false;
  /** A batch is due once the block events emitted in the same turn are all folded. */
  private due = false;
  private subscription: Subscription | null = null;
  private failure: unknown = null;
  /** Reactors that ran here and were detached: their rows still step back on a reorganisation. */
  private readonly detached = new Set<string>();
  private readonly undo: UndoLog;
  /** A height the head is known to be heading for (a sync target): undo is kept only near it. */
  undoHorizon = 0;

  // biome-ignore lint/suspicious/noExplicitAny: projections of different state types
  constructor(store: ProjectionStore, projections: Projection<any>[], info: ChainInfo, undoDepth = 128) {
    this.store = store;
    this.info = info;
    this.checkpoints = store.sublevel('checkpoints');
    this.undo = new UndoLog(store.sublevel('undo'), undoDepth);
    for (const p of projections) {
      if (this.slots.has(p.name)) throw new Error(`duplicate projection ${p.name}`);
      this.slots.set(p.name, { p, state: undefined, height: 0, sub: store.sublevel(`p:${p.name}`) });
    }
  }

  /** Loads every projection from its checkpoint; a missing one or a new version starts at genesis. */
  async load(): Promise<void> {
    for (const slot of this.slots.values()) {
      if (slot.reactor) continue;
      const cp = (await this.checkpoints.get(slot.p.name)) as Checkpoint | undefined;
      if (!cp || cp.version !== slot.p.version) {
        await this.reset(slot);
        continue;
      }
      slot.height = cp.height;
      if (slot.p.load) slot.state = slot.p.load(cp.saved, this.info);
      else if (slot.p.restore) slot.state = await slot.p.restore(slot.sub.iterator() as AsyncIterable<[string, unknown]>, this.info);
      else slot.state = slot.p.init(this.info);
    }
  }

  /** Drops a projection's rows and checkpoint; it restarts from genesis. */
  private async reset(slot: Slot): Promise<void> {
    this.resets++;
    // The checkpoint goes first: a kill -9 between the two leaves rows without a checkpoint,
    // which the next start clears again, never a checkpoint over missing rows.
    await this.checkpoints.del(slot.p.name);
    await slot.sub.clear();
    slot.state = slot.p.init(this.info);
    slot.height = 0;
  }

  /** Resets every projection (for `replay`). */
  async resetAll(): Promise<void> {
    // A batch still in flight must not land after the clear.
    await this.flush();
    await this.undo.clear();
    for (const slot of this.slots.values()) if (!slot.reactor) await this.reset(slot);
  }

  /** Resets one projection (the consensus state must restart with its dependents). */
  async resetOne<S>(p: Projection<S>): Promise<void> {
    await this.flush();
    await this.undo.clear();
    await this.reset(this.slotOf(p));
  }

  /** Height each projection has folded. */
  heights(): Record<string, number> {
    return Object.fromEntries([...this.slots.values()].map((s) => [s.p.name, s.height]));
  }

  /** The lowest checkpoint: replay from the block after it. */
  minHeight(): number {
    return Math.min(...[...this.slots.values()].filter((s) => !s.reactor).map((s) => s.height));
  }

  /**
   * Runs `reactor` from its checkpoint: a new one (or a new version) starts at the projections'
   * height; one behind them is caught up from `blocks` first. From then on it folds every block
   * with the projections, in the same batches, and steps back with them on a reorganisation.
   */
  async attachReactor<S>(reactor: Reactor<S>, blocks: (from: number, to: number) => AsyncIterable<Block>): Promise<void> {
    if (this.slots.has(reactor.name)) throw new Error(`duplicate projection or reactor ${reactor.name}`);
    await this.flush();
    this.detached.delete(reactor.name);
    const sub = this.store.sublevel(`p:${reactor.name}`);
    const top = this.minHeight();
    const cp = (await this.checkpoints.get(reactor.name)) as Checkpoint | undefined;
    let height = top;
    if (!cp || cp.version !== reactor.version) {
      await sub.clear();
      await this.checkpoints.put(reactor.name, { height: top, version: reactor.version });
    } else height = Math.min(cp.height, top);
    const state = await reactor.restore(sub.iterator() as AsyncIterable<[string, unknown]>, this.info);
    const slot: Slot = { p: reactorAsProjection(reactor), state, height, sub, reactor: reactor as Reactor };
    // Catch up from the log before joining the live fold; the log may grow meanwhile.
    for (;;) {
      const target = this.minHeight();
      if (slot.height >= target) break;
      for await (const block of blocks(slot.height + 1, target))
        this.foldSlot(slot, block.index, () => reactor.react(slot.state as S, block), false);
      this.dirty.add(slot);
      await this.flush();
    }
    this.slots.set(reactor.name, slot);
  }

  /**
   * After a reorganisation deeper than the undo log (read models rebuilt from genesis), reactors
   * resume at the common ancestor so the new branch's blocks reach them; rows they wrote for the
   * dropped blocks stay (their consumers dedupe by id).
   */
  async rewindReactors(ancestor: number): Promise<void> {
    await this.flush();
    for (const slot of this.slots.values()) {
      if (!slot.reactor || slot.height <= ancestor) continue;
      slot.height = ancestor;
      await this.checkpoints.put(slot.p.name, { height: ancestor, version: slot.p.version });
    }
  }

  /** The height a reactor has folded (undefined when it is not attached). */
  reactorHeight(name: string): number | undefined {
    const slot = this.slots.get(name);
    return slot?.reactor ? slot.height : undefined;
  }

  /** Stops running a reactor (its rows and checkpoint stay for the next attach). */
  async detachReactor(name: string): Promise<void> {
    await this.flush();
    if (this.slots.get(name)?.reactor) {
      this.slots.delete(name);
      this.detached.add(name);
    }
  }

  /** The rows of a projection or reactor by name, attached or not. */
  private rowsByName(name: string): Rows {
    return this.slots.get(name)?.sub ?? this.store.sublevel(`p:${name}`);
  }

  private slot(name: string): Slot {
    const s = this.slots.get(name);
    if (!s) throw new Error(`unknown projection ${name}`);
    return s;
  }

  /** The slot of a registered projection (the very definition, not just its name). */
  private slotOf<S>(p: Projection<S>): Slot {
    const s = this.slot(p.name);
    if (s.p !== (p as unknown)) throw new Error(`projection ${p.name} is not the one this runner runs`);
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

  /** The sublevel holding a projection's rows (no wait: for code that only writes or already flushed). */
  rows<S>(p: Projection<S>): Rows {
    return this.slotOf(p).sub;
  }

  /** Subscribes to the feed. */
  attach(events$: Observable<ChainEvent>): void {
    this.subscription = events$.pipe(filter((e): e is BlockEvent => e.type === 'block')).subscribe((ev) => this.fold(ev));
  }

  /**
   * Reads the rows projections need before folding `ev` (`Projection.needs`, for models that keep
   * a bounded cache of their rows) and hands them over. The writer awaits this before it folds or
   * announces a block; it reads nothing unless a cache lost a row the block needs.
   */
  async prepare(ev: BlockEvent): Promise<void> {
    for (const slot of this.slots.values()) {
      const keys = slot.p.needs && ev.block.index === slot.height + 1 ? slot.p.needs(slot.state, ev) : [];
      if (keys.length === 0) continue;
      // The rows as every block folded so far left them.
      await this.flush();
      const values = await slot.sub.getMany(keys);
      // A model that names rows it needs takes them (Projection.needs and take go together).
      slot.p.take?.(slot.state, new Map(keys.map((k, i) => [k, values[i]])));
    }
  }

  /** Folds one block event through every projection and reactor behind it. */
  fold(ev: BlockEvent): void {
    const h = ev.block.index;
    // Blocks near the head keep undo records, so a reorganisation can step back to an ancestor.
    const track = h > Math.max(this.store.head()?.index ?? 0, this.undoHorizon) - this.undo.depth;
    for (const slot of this.slots.values()) {
      if (h <= slot.height) continue;
      this.foldSlot(slot, h, () => (slot.reactor ? slot.reactor.react(slot.state, ev.block) : slot.p.apply(slot.state, ev)), track);
      this.dirty.add(slot);
    }
    // Blocks imported as a group are emitted one after another in one turn: their rows go out as
    // one batch with one checkpoint a projection, not the first block alone and then the rest.
    if (!this.due) {
      this.due = true;
      queueMicrotask(() => {
        this.due = false;
        this.schedule();
      });
    }
  }

  /** One slot, one block: the step, its undo record and its rows queued for the next batch. */
  private foldSlot(slot: Slot, h: number, step: () => Step<unknown>, track: boolean): void {
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

  /**
   * Steps every read model back to `ancestor` through the undo log: rows restored and
   * checkpoints moved in one batch, in-memory states reloaded. False (nothing changed) when the
   * log does not reach that far; the caller then rebuilds from genesis.
   */
  async rollbackTo(ancestor: number): Promise<boolean> {
    await this.flush();
    const heights = [...this.slots.values()].map((x) => x.height);
    const top = Math.max(...heights);
    if (heights.some((x) => x !== top)) return false;
    if (top <= ancestor) return top === ancestor;
    const r = await this.undo.rollback(ancestor, top, (name) => this.rowsByName(name));
    if (!r) return false;
    const reverted = new Map<Slot, unknown>();
    for (const slot of this.slots.values()) {
      if (!slot.p.revert) continue;
      const state = revertTo(slot.p, slot.state, r.entries.get(slot.p.name) ?? [], top - ancestor, this.info);
      if (state === undefined) return false;
      reverted.set(slot, state);
    }
    for (const slot of this.slots.values()) {
      const cp: Checkpoint = { height: ancestor, version: slot.p.version };
      if (reverted.has(slot) && slot.p.save) cp.saved = structuredClone(slot.p.save(reverted.get(slot)));
      else if (slot.p.save) cp.saved = r.saved.get(slot.p.name);
      r.ops.push({ type: 'put', sublevel: this.checkpoints, key: slot.p.name, value: cp });
    }
    // A detached reactor's rows stepped back too: so does its checkpoint.
    for (const name of this.detached) {
      const cp = (await this.checkpoints.get(name)) as Checkpoint | undefined;
      if (cp && cp.height > ancestor)
        r.ops.push({ type: 'put', sublevel: this.checkpoints, key: name, value: { ...cp, height: ancestor } });
    }
    await this.store.write(r.ops as never);
    for (const slot of this.slots.values()) {
      slot.height = ancestor;
      if (reverted.has(slot)) slot.state = reverted.get(slot);
      else if (slot.p.load) slot.state = slot.p.load(r.saved.get(slot.p.name), this.info);
      else if (slot.p.restore) slot.state = await slot.p.restore(slot.sub.iterator() as AsyncIterable<[string, unknown]>, this.info);
      else slot.state = slot.p.init(this.info);
    }
    return true;
  }

  /**
   * The rows of `p` changed since `ancestor`, with their values at `ancestor` (undefined: absent),
   * read from the undo log without moving anything; null when the log does not reach that far.
   */
  async rowsAt<S>(p: Projection<S>, ancestor: number): Promise<Map<string, unknown> | null> {
    await this.flush();
    const slot = this.slotOf(p);
    if (ancestor >= slot.height) return new Map();
    return this.undo.rowsAt(p.name, ancestor, slot.height);
  }

  /** Resolves once everything folded so far is on disk. */
  async flush(): Promise<void> {
    while (this.inFlight || this.dirty.size > 0) {
      this.schedule();
      await this.writing;
    }
    if (this.failure) throw this.failure;
  }

  /**
   * Every read model as plain JSON: saved state or rows, per projection (big integers as
   * strings). Two nodes with equal dumps serve equal reads.
   */
  async dump(): Promise<Record<string, unknown>> {
    await this.flush();
    const out: Record<string, unknown> = {};
    for (const slot of this.slots.values()) {
      // Reactors are node-local, not read models.
      if (slot.reactor) continue;
      const rows: [string, unknown][] = [];
      for await (const entry of slot.sub.iterator()) rows.push(entry as [string, unknown]);
      const memory = slot.p.save ? slot.p.save(slot.state) : null;
      out[slot.p.name] = { height: slot.height, memory, rows };
    }
    return JSON.parse(JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
  }

  /** Stops listening and flushes. */
  async stop(): Promise<void> {
    this.subscription?.unsubscribe();
    this.subscription = null;
    await this.flush();
  }
}

/**
 * A projection with `revert` stepped back over `blocks` blocks from `state` (left untouched: a
 * copy is reverted) through their undo entries, highest first; undefined when the entries do not
 * cover every block. An entry written with the whole state before its block (`saved`) restarts
 * the walk from that state.
 */
// biome-ignore lint/suspicious/noExplicitAny: slots hold projections of different state types
function revertTo(p: Projection<any>, state: unknown, entries: UndoEntry[], blocks: number, info: ChainInfo): unknown {
  if (!p.save || !p.load || !p.revert || entries.length !== blocks) return undefined;
  let s = p.load(structuredClone(p.save(state)), info);
  for (const e of entries) {
    if (e.hasUndo) s = p.revert(s, e.undo);
    else if (e.hasSaved) s = p.load(e.saved, info);
    else return undefined;
  }
  return s;
}

/** A reactor in a projection's clothes, for the slot machinery (it never folds a BlockEvent). */
function reactorAsProjection<S>(r: Reactor<S>): Projection<S> {
  return {
    name: r.name,
    version: r.version,
    init: (info) => r.init(info),
    apply: () => {
      throw new Error(`reactor ${r.name} folds blocks, not events`);
    },
    restore: (rows, info) => r.restore(rows, info),
  };
}
