/**
 * The undo log: for each recent block, the value every projection row had before the block
 * changed it, and each in-memory projection's state before the block. It is written in the same
 * batch as the rows, so read models can step back to a common ancestor after a reorganisation
 * without replaying the chain from genesis.
 */
import { heightKey } from '../core/encoding.ts';
import type { KvOp } from './projection.ts';

import { row } from './rows.ts';
import type { Rows as Sublevel } from './store.ts';
type BatchOp = { type: 'put' | 'del'; sublevel: unknown; key: string; value?: unknown };

/**
 * One projection's undo for one block: in `kv`, [key] was absent and [key, value] held value;
 * `fresh` lists keys the block created (puts marked fresh), undone after `kv`; the in-memory
 * state before the block (`saved`), or what its `revert` takes to step the block back (`undo`).
 */
export interface UndoEntry {
  kv: ([string] | [string, unknown])[];
  fresh?: string[];
  saved?: unknown;
  hasSaved: boolean;
  undo?: unknown;
  hasUndo?: true;
}

interface Noted {
  ops: KvOp[];
  saved?: unknown;
  hasSaved: boolean;
  undo?: { value: unknown };
}

/** Marks an absent row in the drain's working copy. */
/** `<height>`: the undo record of one block, by projection name. */
const undoRow = row<Record<string, UndoEntry>, number>('', heightKey);

const ABSENT: unique symbol = Symbol('absent');

/** Collects undo information as blocks are folded and writes it with their rows. */
export class UndoLog {
  private readonly sub: Sublevel;
  /** Blocks back from the head that keep undo records. */
  readonly depth: number;
  private noted = new Map<number, Map<string, Noted>>();

  constructor(sub: Sublevel, depth: number) {
    this.sub = sub;
    this.depth = depth;
  }

  /**
   * Notes what block `h` is about to change in projection `name`: its rows, and its state before
   * (`saved`) or what reverting the block takes (`undo`, for a projection with `revert`).
   */
  note(h: number, name: string, ops: KvOp[], saved?: unknown, hasSaved = false, undo?: { value: unknown }): void {
    let m = this.noted.get(h);
    if (!m) {
      m = new Map();
      this.noted.set(h, m);
    }
    m.set(name, { ops, saved, hasSaved, undo });
  }

  /** Undo records for everything noted, with previous values read from the rows before they change. */
  async drain(rowsOf: (name: string) => Sublevel): Promise<BatchOp[]> {
    if (this.noted.size === 0) return [];
    const noted = this.noted;
    this.noted = new Map();
    const byHeight = [...noted].sort(([a], [b]) => a - b);
    // Each projection's distinct keys, first seen first: one read of each.
    const keys = new Map<string, Set<string>>();
    for (const [, entries] of byHeight)
      for (const [name, e] of entries) {
        if (e.ops.length === 0) continue;
        let set = keys.get(name);
        if (!set) {
          set = new Set();
          keys.set(name, set);
        }
        for (const op of e.ops) if (op.type === 'del' || !op.fresh) set.add(op.key);
      }
    // The rows as they are before this batch, then as each noted block leaves them. ABSENT marks
    // a row that does not exist (undefined is never a stored value); a key missing from the map
    // was only ever written fresh, so it did not exist either.
    const current = new Map<string, Map<string, unknown>>();
    for (const [name, set] of keys) {
      // Only fresh puts (new keys: a transaction's index row): nothing to read, nothing to track.
      if (set.size === 0) continue;
      const list = [...set];
      const values = list.length ? await rowsOf(name).getMany(list) : [];
      const cur = new Map<string, unknown>();
      for (let i = 0; i < list.length; i++) cur.set(list[i], values[i] === undefined ? ABSENT : values[i]);
      current.set(name, cur);
    }
    const out: BatchOp[] = [];
    for (const [h, entries] of byHeight) {
      const record: Record<string, UndoEntry> = {};
      for (const [name, e] of entries) {
        const cur = current.get(name);
        const kv: UndoEntry['kv'] = [];
        const fresh: string[] = [];
        // A key's first op in the block records its value before the block; later ops of the
        // same key only move `current` (most blocks write each key once: no set needed then).
        // A fresh put's key did not exist before the block: it is listed, and removed after
        // `kv` is undone (so a later op on it in the same block is undone first).
        const seen = e.ops.length > 1 ? new Set<string>() : null;
        for (const op of e.ops) {
          if (op.type === 'put' && op.fresh) fresh.push(op.key);
          else if (!seen?.has(op.key)) {
            seen?.add(op.key);
            const prev = cur?.get(op.key);
            kv.push(prev === ABSENT || prev === undefined ? [op.key] : [op.key, prev]);
          }
          if (cur) cur.set(op.key, op.type === 'put' ? op.value : ABSENT);
        }
        record[name] = {
          kv,
          ...(fresh.length ? { fresh } : {}),
          hasSaved: e.hasSaved,
          ...(e.hasSaved ? { saved: e.saved } : {}),
          ...(e.undo ? { undo: e.undo.value, hasUndo: true as const } : {}),
        };
      }
      out.push({ type: 'put', sublevel: this.sub, key: heightKey(h), value: record });
      if (h - this.depth >= 0) out.push({ type: 'del', sublevel: this.sub, key: heightKey(h - this.depth) });
    }
    return out;
  }

  /**
   * What stepping back from `top` to `ancestor` takes: row writes restoring every changed row,
   * and each in-memory projection's state at `ancestor`. Null when a record is missing.
   */
  async rollback(
    ancestor: number,
    top: number,
    rowsOf: (name: string) => Sublevel,
  ): Promise<{ ops: BatchOp[]; saved: Map<string, unknown>; entries: Map<string, UndoEntry[]> } | null> {
    const ops: BatchOp[] = [];
    const saved = new Map<string, unknown>();
    // Every projection's entries, highest block first (a projection with `revert` steps back through them).
    const entries = new Map<string, UndoEntry[]>();
    for (let h = top; h > ancestor; h--) {
      const record = await undoRow.get(this.sub, h);
      if (!record) return null;
      // Highest block first: the last write of a row is its value before block ancestor + 1.
      for (const [name, e] of Object.entries(record)) {
        for (const entry of e.kv) {
          ops.push(
            entry.length === 2
              ? { type: 'put', sublevel: rowsOf(name), key: entry[0], value: entry[1] }
              : { type: 'del', sublevel: rowsOf(name), key: entry[0] },
          );
        }
        for (const key of e.fresh ?? []) ops.push({ type: 'del', sublevel: rowsOf(name), key });
        if (e.hasSaved) saved.set(name, e.saved);
        let list = entries.get(name);
        if (!list) {
          list = [];
          entries.set(name, list);
        }
        list.push(e);
      }
      ops.push({ type: 'del', sublevel: this.sub, key: heightKey(h) });
    }
    return { ops, saved, entries };
  }

  /**
   * One projection's rows as they were at `ancestor`, for the rows changed since (undefined: the
   * row did not exist); null when the log does not reach that far. Reads only: nothing moves.
   */
  async rowsAt(name: string, ancestor: number, top: number): Promise<Map<string, unknown> | null> {
    const rows = new Map<string, unknown>();
    for (let h = top; h > ancestor; h--) {
      const record = await undoRow.get(this.sub, h);
      if (!record) return null;
      // Going down, a later (lower) block's value overwrites: the last one is the value at the ancestor.
      for (const entry of record[name]?.kv ?? []) rows.set(entry[0], entry.length === 2 ? entry[1] : undefined);
      for (const key of record[name]?.fresh ?? []) rows.set(key, undefined);
    }
    return rows;
  }

  /** Drops every record (the rows they describe are being rebuilt). */
  async clear(): Promise<void> {
    this.noted = new Map();
    await this.sub.clear();
  }
}
