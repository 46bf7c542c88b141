/**
 * Consensus state and the record maps it and its copy-on-write overlay (core/stateOverlay.ts) are
 * made of; `commitDiff` is the one place the state mutates.
 * Besides accounts, the state holds keyed records (miners, tasks, agent runs, art NFTs) as plain
 * JSON values: big integers inside records are decimal strings. The record kinds are whatever the
 * families in core/tx/registry.ts declare: nothing here names one.
 */
import type { RecordDef } from './record.ts';
import { markAbsent, markPresent, stickyCopy, touch, trimAccounts, trimRecords, writeAccount, type RecordCache } from './recordCache.ts';
import { RECORDS, type RecordKind, type RecordTypes } from './tx/registry.ts';
import type { Account, Supply } from './txState.ts';

export type { Account, Supply } from './txState.ts';

// Record value types live with the family that owns them; re-exported here for readers.
export type { Miner } from './tx/miner.ts';
export type { Task, TaskStatus } from './tx/task/task.ts';
export type { AgentRun, AgentRunStatus } from './tx/agent/agent.ts';
export type { ArtNft } from './tx/art.ts';
export type { RecordKind, RecordTypes } from './tx/registry.ts';
export { RECORD_KINDS, RECORD_PREFIX } from './tx/registry.ts';

/** One map per record kind, id to value. */
export type Records = { [K in RecordKind]: Map<string, RecordTypes[K]> };

/**
 * Every kind's map by the kind's name, for a caller that holds the name as a string (a row key,
 * a diff's own keys): the value types are the registry's, unknown here.
 */
export const recordsByKind = (records: Records): Record<string, Map<string, unknown>> => records;

/** The sets of `sets` (open or removed ids) by the kind's name. */
export const setsByKind = (sets: Partial<Record<RecordKind, Set<string>>>): Record<string, Set<string> | undefined> => sets;

/** The whole consensus state, plus indexes derived from it. */
export interface ChainState {
  /** Every account, or with a `cache` the accounts it keeps (core/recordCache.ts): the rest are rows. */
  accounts: Map<string, Account>;
  records: Records;
  supply: Supply;
  /** Derived: per record kind that declares `isOpen`, the ids of its open records (rebuilt on load). */
  open: OpenSets;
  /** Present when `records` is a bounded cache over rows on disk (core/recordCache.ts); absent: complete. */
  cache?: RecordCache;
}

/** Ids of open records, by kind (only kinds that declare `isOpen`). */
type OpenSets = Partial<Record<RecordKind, Set<string>>>;

/** Ids of removed records, by kind (a kind appears only once something of it was removed). */
export type Removals = Partial<Record<RecordKind, Set<string>>>;

/** The changes one block made: every touched entry's value after the block, and removed records. */
export interface StateDiff {
  accounts: Map<string, Account>;
  records: Records;
  supply: Supply;
  /** Records the block removed (e.g. upload chunks dropped at completion); absent when none. */
  removed?: Removals;
}

/** The map of one kind (the one place a kind's name meets its value type): `recordMap(diff.records, UPLOADS)`. */
export function recordMap<T>(records: Records, rec: RecordDef<string, T>): Map<string, T> {
  return mapOf(records, rec);
}
function mapOf<T>(records: Records, rec: RecordDef<string, T>): Map<string, T> {
  return (records as unknown as Record<string, Map<string, T>>)[rec.kind];
}
/** The open set of a kind (absent when the kind declares no `isOpen`). */
export const openSet = (open: OpenSets, rec: RecordDef): Set<string> | undefined => setsByKind(open)[rec.kind];
/** The removal set of a kind (absent when nothing of it was removed). */
export const removedOf = (removed: Removals | undefined, kind: string): Set<string> | undefined => removed && setsByKind(removed)[kind];

/** The ids of `rec` a diff removed (empty when none). */
export function removedIds(diff: StateDiff, rec: RecordDef): ReadonlySet<string> {
  return removedOf(diff.removed, rec.kind) ?? new Set();
}

/** Writes `from`'s removals into `to`'s records map and removal sets (`removed` absent: plain maps). */
export function copyRemovals(from: Removals | undefined, records: Records, removed?: Removals): void {
  if (!from) return;
  for (const [kind, ids = new Set<string>()] of Object.entries(setsByKind(from))) {
    // Deleting from a kind still reading as NONE deletes nothing: no map needed.
    const map = recordsByKind(records)[kind];
    let into = removed ? removedOf(removed, kind) : undefined;
    if (removed && !into) {
      into = new Set();
      setsByKind(removed)[kind] = into;
    }
    for (const id of ids) {
      map.delete(id);
      into?.add(id);
    }
  }
}

/** A fresh account. */
export function emptyAccount(): Account {
  return { balance: 0n, nonce: 0, storageCapacity: 0n, storageUsed: 0n };
}

/** Empty record maps, one per registered kind. */
export function emptyRecords(): Records {
  return Object.fromEntries(RECORDS.map((r) => [r.kind, new Map()])) as unknown as Records;
}

/** The map every kind of an overlay reads as until it is written: shared, so it refuses writes. */
class NoRecords<V> extends Map<string, V> {
  override set(): this {
    throw new Error('an unwritten record kind is read-only: write through the overlay');
  }
}
const NONE = new NoRecords();
let lazyKinds: Records | null = null;

/**
 * Record maps for an overlay (a block touches few of ~26 kinds, and two or three overlays are
 * made a block): every kind reads as one shared empty map until `writableMap` gives it its own.
 */
export function lazyRecords(): Records {
  lazyKinds ??= Object.fromEntries(RECORDS.map((r) => [r.kind, NONE])) as unknown as Records;
  return Object.create(lazyKinds) as Records;
}

/** A kind's own map in `records`, made on first write when the kind still reads as `NONE`. */
export function writableMap<T>(records: Records, kind: string): Map<string, T> {
  const all = records as unknown as Record<string, Map<string, T>>;
  let map = all[kind];
  if (map === NONE) {
    map = new Map();
    all[kind] = map;
  }
  return map;
}

function emptyOpen(): OpenSets {
  return Object.fromEntries(RECORDS.filter((r) => r.isOpen).map((r) => [r.kind, new Set<string>()]));
}

/** An empty state. */
export function emptyState(): ChainState {
  return {
    accounts: new Map(),
    records: emptyRecords(),
    supply: { emitted: 0n, burned: 0n, escrow: 0n, feesPaid: 0n },
    open: emptyOpen(),
  };
}

/** Copies every record of `from` into `to` (records are immutable values: maps are copied, not records). */
export function copyRecords(from: Records, to: Records): void {
  // Own keys: every kind of a full map set, only the written kinds of an overlay's.
  for (const kind of Object.keys(from)) {
    const source = recordsByKind(from)[kind];
    if (source.size === 0) continue;
    const target = writableMap(to, kind);
    for (const [k, v] of source) target.set(k, v);
  }
}

/** The kinds that declare `isOpen` (the only ones with open sets). */
const OPEN_KINDS = RECORDS.filter((r) => r.isOpen);

/** Adds or removes the ids of `records` in the open sets, as each record's kind judges it. */
function trackOpen(open: OpenSets, records: Records): void {
  for (const rec of OPEN_KINDS) {
    const set = openSet(open, rec);
    const changed = mapOf(records, rec);
    // A block changes a kind or two: the others are skipped without an iterator.
    if (!set || !rec.isOpen || changed.size === 0) continue;
    for (const [id, v] of changed) rec.isOpen(v) ? set.add(id) : set.delete(id);
  }
}

/** Writes a diff into a state (the one place state mutates) and keeps the open sets current. */
export function commitDiff(state: ChainState, diff: StateDiff): ChainState {
  if (state.cache) for (const [k, v] of diff.accounts) writeAccount(state, k, v);
  else for (const [k, v] of diff.accounts) state.accounts.set(k, v);
  copyRemovals(diff.removed, state.records);
  if (state.cache) {
    for (const rec of RECORDS) {
      const changed = mapOf(diff.records, rec);
      if (changed.size === 0) continue;
      for (const [id, v] of changed) {
        touch(state, rec.kind, id, v);
        markPresent(state, rec.kind, id);
      }
    }
  } else copyRecords(diff.records, state.records);
  trackOpen(state.open, diff.records);
  for (const [kind, ids = new Set<string>()] of Object.entries(setsByKind(diff.removed ?? {})))
    for (const id of ids) {
      setsByKind(state.open)[kind]?.delete(id);
      markAbsent(state, kind, id);
    }
  state.supply = diff.supply;
  trimRecords(state);
  trimAccounts(state);
  return state;
}

/** Rebuilds the derived open sets from the records (after loading a state). */
export function indexOpen(state: ChainState): ChainState {
  state.open = emptyOpen();
  trackOpen(state.open, state.records);
  return state;
}

/**
 * An independent copy of a state (records are immutable values, so maps are copied, not records).
 * A bounded cache's copy is sticky (it never evicts): what it is given stays its own answer.
 */
export function cloneState(s: ChainState): ChainState {
  const records = emptyRecords();
  copyRecords(s.records, records);
  const copy: ChainState = { accounts: new Map(s.accounts), records, supply: { ...s.supply }, open: {} };
  if (s.cache) copy.cache = stickyCopy(s.cache);
  return indexOpen(copy);
}

/** Σ balances: with escrow and burned it must equal emitted (a complete state's: a cache holds part of them). */
export function sumBalances(state: ChainState): bigint {
  let total = 0n;
  for (const a of state.accounts.values()) total += a.balance;
  return total;
}
