/**
 * The one projection runner. It subscribes to the node's event feed (RxJS), folds each block
 * event through every projection synchronously, and writes each projection's rows together with
 * its checkpoint in one LevelDB batch. Writes coalesce while a batch is in flight, so a replay
 * writes few large batches and a live node one small batch per block.
 */
import type { Observable, Subscription } from 'rxjs';
import { filter } from 'rxjs';
import type { ChainStore } from '../node/chainStore.ts';
import type { BlockEvent, ChainEvent, ChainInfo } from './events.ts';
import type { Projection } from './projection.ts';

interface Slot {
  p: Projection<any>;
  state: unknown;
  height: number;
  sub: ReturnType<ChainStore['sublevel']>;
}

interface Checkpoint {
  height: number;
  version: number;
  saved?: unknown;
}

type BatchOp = { type: 'put' | 'del'; sublevel: unknown; key: string; value?: unknown };

/** Runs projections over the event feed and persists them with checkpoints. */
export class ProjectionRunner {
  private readonly store: ChainStore;
  private readonly info: ChainInfo;
  private readonly slots = new Map<string, Slot>();
  private readonly checkpoints: ReturnType<ChainStore['sublevel']>;
  private pending: BatchOp[] = [];
  private dirty = new Set<Slot>();
  private writing: Promise<void> = Promise.resolve();
  private inFlight = false;
  private subscription: Subscription | null = null;
  private failure: unknown = null;

  constructor(store: ChainStore, projections: Projection<any>[], info: ChainInfo) {
    this.store = store;
    this.info = info;
    this.checkpoints = store.sublevel('checkpoints');
    for (const p of projections) {
      if (this.slots.has(p.name)) throw new Error(`duplicate projection ${p.name}`);
      this.slots.set(p.name, { p, state: undefined, height: 0, sub: store.sublevel(`p:${p.name}`) });
    }
  }

  /** Loads every projection from its checkpoint; a missing one or a new version starts at genesis. */
  async load(): Promise<void> {
    for (const slot of this.slots.values()) {
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
    await slot.sub.clear();
    await this.checkpoints.del(slot.p.name);
    slot.state = slot.p.init(this.info);
    slot.height = 0;
  }

  /** Resets every projection (for `replay`). */
  async resetAll(): Promise<void> {
    // A batch still in flight must not land after the clear.
    await this.flush();
    for (const slot of this.slots.values()) await this.reset(slot);
  }

  /** Resets one projection by name (the consensus state must restart with its dependents). */
  async resetOne(name: string): Promise<void> {
    await this.flush();
    await this.reset(this.slot(name));
  }

  /** Height each projection has folded. */
  heights(): Record<string, number> {
    return Object.fromEntries([...this.slots.values()].map((s) => [s.p.name, s.height]));
  }

  /** The lowest checkpoint: replay from the block after it. */
  minHeight(): number {
    return Math.min(...[...this.slots.values()].map((s) => s.height));
  }

  private slot(name: string): Slot {
    const s = this.slots.get(name);
    if (!s) throw new Error(`unknown projection ${name}`);
    return s;
  }

  /** The current state of a projection. */
  state<S>(name: string): S {
    return this.slot(name).state as S;
  }

  /** A projection's height. */
  height(name: string): number {
    return this.slot(name).height;
  }

  /** The sublevel holding a projection's rows, for queries. */
  rows(name: string): ReturnType<ChainStore['sublevel']> {
    return this.slot(name).sub;
  }

  /** Subscribes to the feed. */
  attach(events$: Observable<ChainEvent>): void {
    this.subscription = events$.pipe(filter((e): e is BlockEvent => e.type === 'block')).subscribe((ev) => this.fold(ev));
  }

  /** Folds one block event through every projection behind it. */
  fold(ev: BlockEvent): void {
    const h = ev.block.index;
    for (const slot of this.slots.values()) {
      if (h <= slot.height) continue;
      if (h !== slot.height + 1) throw new Error(`projection ${slot.p.name} at ${slot.height} got block ${h}`);
      const step = slot.p.apply(slot.state, ev);
      slot.state = step.state;
      slot.height = h;
      for (const op of step.ops ?? []) {
        this.pending.push(op.type === 'put' ? { type: 'put', sublevel: slot.sub, key: op.key, value: op.value } : { type: 'del', sublevel: slot.sub, key: op.key });
      }
      this.dirty.add(slot);
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.inFlight || this.dirty.size === 0) return;
    this.inFlight = true;
    const ops = this.pending;
    for (const slot of this.dirty) {
      const cp: Checkpoint = { height: slot.height, version: slot.p.version };
      if (slot.p.save) cp.saved = slot.p.save(slot.state);
      ops.push({ type: 'put', sublevel: this.checkpoints, key: slot.p.name, value: cp });
    }
    this.pending = [];
    this.dirty = new Set();
    this.writing = this.store.db
      .batch(ops as never)
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

  /**
   * Every read model as plain JSON: saved state or rows, per projection (big integers as
   * strings). Two nodes with equal dumps serve equal reads.
   */
  async dump(): Promise<Record<string, unknown>> {
    await this.flush();
    const out: Record<string, unknown> = {};
    for (const slot of this.slots.values()) {
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
