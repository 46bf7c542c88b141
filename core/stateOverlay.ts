/**
 * A copy-on-write overlay over the consensus state. `applyBlock` writes only into an overlay, so a
 * failing block leaves the base untouched; the overlay's contents are the block's state diff.
 */
import type { RecordDef } from './record.ts';
import { accountKey } from './accountRow.ts';
import { knownAbsent, knownAbsentAccount, recordKey } from './recordCache.ts';
import {
  type ChainState,
  copyRecords,
  recordsByKind,
  setsByKind,
  copyRemovals,
  emptyAccount,
  lazyRecords,
  openSet,
  recordMap,
  type Records,
  type Removals,
  removedOf,
  type StateDiff,
  writableMap,
} from './state.ts';
import type { Account, Supply, TxState } from './txState.ts';

const NO_MISSES: ReadonlySet<string> = new Set();
const NO_IDS: ReadonlySet<string> = new Set();

/** Copy-on-write view over a ChainState, or over another overlay (a trial inside a block). */
export class StateOverlay implements TxState {
  readonly parent: ChainState | StateOverlay;
  readonly accounts = new Map<string, Account>();
  readonly records: Records = lazyRecords();
  /** Records removed in this overlay (an id is in `records` or here, never both). */
  readonly removed: Removals = {};
  supply: Supply;
  /** Row keys the base state could not answer (a bounded cache's evicted or unknown ids and accounts); root overlay only. */
  private misses?: Set<string>;

  constructor(parent: ChainState | StateOverlay) {
    this.parent = parent;
    this.supply = { ...parent.supply };
  }

  /** Read-only view of an account (a fresh empty one when unknown). */
  peek(address: string): Readonly<Account> {
    const own = this.accounts.get(address);
    if (own) return own;
    const p = this.parent;
    if (p instanceof StateOverlay) return p.peek(address);
    const a = p.accounts.get(address);
    if (a) return a;
    if (!knownAbsentAccount(p, address)) {
      this.misses ??= new Set();
      this.misses.add(accountKey(address));
    }
    return emptyAccount();
  }

  /** A mutable copy of an account, recorded in the diff. */
  account(address: string): Account {
    let a = this.accounts.get(address);
    if (!a) {
      a = { ...this.peek(address) };
      this.accounts.set(address, a);
    }
    return a;
  }

  /** A record of a kind by id. */
  get<T>(rec: RecordDef<string, T>, id: string): Readonly<T> | undefined {
    const own = recordMap(this.records, rec).get(id);
    if (own) return own;
    if (removedOf(this.removed, rec.kind)?.has(id)) return undefined;
    const p = this.parent;
    if (p instanceof StateOverlay) return p.get(rec, id);
    const v = recordMap(p.records, rec).get(id);
    if (v === undefined && !knownAbsent(p, rec, id)) {
      this.misses ??= new Set();
      this.misses.add(recordKey(rec, id));
    }
    return v;
  }

  /**
   * Row keys of records read through this overlay (or its parents) that the base state could not
   * answer from memory. While any is noted, what was read is not the state: callers throw
   * RecordsNotLoaded, never a refusal.
   */
  missing(): ReadonlySet<string> {
    const p = this.parent;
    return p instanceof StateOverlay ? p.missing() : (this.misses ?? NO_MISSES);
  }

  /** Forgets the misses noted so far (a new attempt after they were loaded). */
  forgetMisses(): void {
    const p = this.parent;
    if (p instanceof StateOverlay) p.forgetMisses();
    else this.misses = undefined;
  }

  /** Records a new or changed record (a fresh object: stored values are never mutated). */
  put<T>(rec: RecordDef<string, T>, id: string, value: T): void {
    writableMap<T>(this.records, rec.kind).set(id, value);
    removedOf(this.removed, rec.kind)?.delete(id);
  }

  /**
   * Removes a record: it leaves the state, its row and the state root's leaf (the state root hashes
   * a removal as the key with value `null`). For data that must not stay in memory once used,
   * such as upload chunks; most records are kept forever and closed by a status instead.
   */
  remove(rec: RecordDef, id: string): void {
    recordMap(this.records, rec).delete(id);
    const removal: Removals = {};
    setsByKind(removal)[rec.kind] = new Set([id]);
    copyRemovals(removal, this.records, this.removed);
  }

  /**
   * Ids of the open records of a kind as of the base state plus this overlay's changes (and of
   * records this overlay changed: callers re-judge them). Read-only: when the overlay changed
   * nothing of the kind it is the base's own set, not a copy (begin-block hooks ask for several
   * kinds every block, and most blocks change none of them).
   */
  openIds(rec: RecordDef): ReadonlySet<string> {
    const p = this.parent;
    const base = p instanceof StateOverlay ? p.openIds(rec) : (openSet(p.open, rec) ?? NO_IDS);
    const own = recordMap(this.records, rec);
    const removed = removedOf(this.removed, rec.kind);
    if (own.size === 0 && !removed?.size) return base;
    const ids = new Set(base);
    for (const id of own.keys()) ids.add(id);
    for (const id of removed ?? []) ids.delete(id);
    return ids;
  }

  /** Folds this overlay's changes into its parent overlay. */
  mergeIntoParent(): void {
    const p = this.parent;
    if (!(p instanceof StateOverlay)) throw new Error('mergeIntoParent needs an overlay parent');
    for (const [k, v] of this.accounts) p.accounts.set(k, v);
    copyRemovals(this.removed, p.records, p.removed);
    copyRecords(this.records, p.records);
    for (const [kind, ids] of Object.entries(setsByKind(p.removed)))
      for (const id of recordsByKind(this.records)[kind]?.keys() ?? []) ids?.delete(id);
    p.supply = this.supply;
  }

  /** Takes in a later block's changes (blocks applied one after another before any is committed). */
  absorb(diff: StateDiff): void {
    for (const [k, v] of diff.accounts) this.accounts.set(k, v);
    copyRemovals(diff.removed, this.records, this.removed);
    copyRecords(diff.records, this.records);
    for (const [kind, ids] of Object.entries(setsByKind(this.removed)))
      for (const id of recordsByKind(diff.records)[kind]?.keys() ?? []) ids?.delete(id);
    this.supply = diff.supply;
  }

  /** The block's changes. */
  diff(): StateDiff {
    const removed = Object.values(this.removed).some((ids) => ids.size > 0) ? this.removed : undefined;
    return { accounts: this.accounts, records: this.records, supply: this.supply, ...(removed ? { removed } : {}) };
  }
}
