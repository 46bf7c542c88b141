/**
 * Consensus state and a copy-on-write overlay. `applyBlock` writes only into an overlay, so a
 * failing block leaves the base untouched; the overlay's contents are the block's state diff.
 * Besides accounts, the state holds keyed records (miners, tasks, agent runs, art NFTs) as plain
 * JSON values: big integers inside records are decimal strings. The record kinds are whatever the
 * families in core/tx/registry.ts declare: nothing here names one.
 */
import type { RecordDef } from './record.ts';
import { RECORDS, type RecordKind, type RecordTypes } from './tx/registry.ts';

/** One account's consensus state. */
export interface Account {
  balance: bigint;
  /** The nonce the account's next confirmed transaction must carry. */
  nonce: number;
  /** Storage bytes earned by winning blocks or received by STORAGE_TRANSFER. */
  storageCapacity: bigint;
  storageUsed: bigint;
  /** Set once the account registered a miner. */
  minerId?: string;
}

// Record value types live with the family that owns them; re-exported here for readers.
export type { Miner } from './tx/miner.ts';
export type { Task, TaskResponseRef, TaskStatus } from './tx/task.ts';
export type { AgentRun, AgentRunStatus } from './tx/agent.ts';
export type { ArtNft } from './tx/art.ts';
export type { RecordKind, RecordTypes } from './tx/registry.ts';
export { RECORD_KINDS, RECORD_PREFIX } from './tx/registry.ts';

/** One map per record kind, id to value. */
export type Records = { [K in RecordKind]: Map<string, RecordTypes[K]> };

/** Where every micro-unit is: totalEmitted = Σ balances + escrow + burned. */
export interface Supply {
  emitted: bigint;
  burned: bigint;
  escrow: bigint;
  /** Fees paid to proposers so far (informational; fees stay inside Σ balances). */
  feesPaid: bigint;
}

/** The whole consensus state, plus indexes derived from it. */
export interface ChainState {
  accounts: Map<string, Account>;
  records: Records;
  supply: Supply;
  /** Derived: per record kind that declares `isOpen`, the ids of its open records (rebuilt on load). */
  open: OpenSets;
}

/** Ids of open records, by kind (only kinds that declare `isOpen`). */
export type OpenSets = Partial<Record<RecordKind, Set<string>>>;

/** The changes one block made: every touched entry's value after the block. */
export interface StateDiff {
  accounts: Map<string, Account>;
  records: Records;
  supply: Supply;
}

// The registry is read inside functions only, never at module load: families may import this
// module, and ESM evaluates a cycle's modules one after the other.
/** The map of one kind (the one place a kind's name meets its value type). */
function mapOf<T>(records: Records, rec: RecordDef<string, T>): Map<string, T> {
  return (records as unknown as Record<string, Map<string, T>>)[rec.kind];
}
const openSet = (open: OpenSets, rec: RecordDef): Set<string> | undefined => (open as Record<string, Set<string>>)[rec.kind];

/** A fresh account. */
export function emptyAccount(): Account {
  return { balance: 0n, nonce: 0, storageCapacity: 0n, storageUsed: 0n };
}

/** Empty record maps, one per registered kind. */
export function emptyRecords(): Records {
  return Object.fromEntries(RECORDS.map((r) => [r.kind, new Map()])) as unknown as Records;
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
function copyRecords(from: Records, to: Records): void {
  for (const rec of RECORDS) {
    const target = mapOf(to, rec);
    for (const [k, v] of mapOf(from, rec)) target.set(k, v);
  }
}

/** Copy-on-write view over a ChainState, or over another overlay (a trial inside a block). */
export class StateOverlay {
  readonly parent: ChainState | StateOverlay;
  readonly accounts = new Map<string, Account>();
  readonly records: Records = emptyRecords();
  supply: Supply;

  constructor(parent: ChainState | StateOverlay) {
    this.parent = parent;
    this.supply = { ...parent.supply };
  }

  /** Read-only view of an account (a fresh empty one when unknown). */
  peek(address: string): Readonly<Account> {
    const own = this.accounts.get(address);
    if (own) return own;
    const p = this.parent;
    return p instanceof StateOverlay ? p.peek(address) : (p.accounts.get(address) ?? emptyAccount());
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
    const own = mapOf(this.records, rec).get(id);
    if (own) return own;
    const p = this.parent;
    return p instanceof StateOverlay ? p.get(rec, id) : mapOf(p.records, rec).get(id);
  }

  /** Records a new or changed record (a fresh object: stored values are never mutated). */
  put<T>(rec: RecordDef<string, T>, id: string, value: T): void {
    mapOf(this.records, rec).set(id, value);
  }

  /** Ids of the open records of a kind as of the base state plus this overlay's changes. */
  openIds(rec: RecordDef): Set<string> {
    const p = this.parent;
    const ids = new Set(p instanceof StateOverlay ? p.openIds(rec) : openSet(p.open, rec));
    for (const id of mapOf(this.records, rec).keys()) ids.add(id);
    return ids;
  }

  /** Folds this overlay's changes into its parent overlay. */
  mergeIntoParent(): void {
    const p = this.parent;
    if (!(p instanceof StateOverlay)) throw new Error('mergeIntoParent needs an overlay parent');
    for (const [k, v] of this.accounts) p.accounts.set(k, v);
    copyRecords(this.records, p.records);
    p.supply = this.supply;
  }

  /** Takes in a later block's changes (blocks applied one after another before any is committed). */
  absorb(diff: StateDiff): void {
    for (const [k, v] of diff.accounts) this.accounts.set(k, v);
    copyRecords(diff.records, this.records);
    this.supply = diff.supply;
  }

  /** The block's changes. */
  diff(): StateDiff {
    return { accounts: this.accounts, records: this.records, supply: this.supply };
  }
}

/** Adds or removes the ids of `records` in the open sets, as each record's kind judges it. */
function trackOpen(open: OpenSets, records: Records): void {
  for (const rec of RECORDS) {
    const set = openSet(open, rec);
    if (!set || !rec.isOpen) continue;
    for (const [id, v] of mapOf(records, rec)) rec.isOpen(v) ? set.add(id) : set.delete(id);
  }
}

/** Writes a diff into a state (the one place state mutates) and keeps the open sets current. */
export function commitDiff(state: ChainState, diff: StateDiff): ChainState {
  for (const [k, v] of diff.accounts) state.accounts.set(k, v);
  copyRecords(diff.records, state.records);
  trackOpen(state.open, diff.records);
  state.supply = diff.supply;
  return state;
}

/** Rebuilds the derived open sets from the records (after loading a state). */
export function indexOpen(state: ChainState): ChainState {
  state.open = emptyOpen();
  trackOpen(state.open, state.records);
  return state;
}

/** An independent copy of a state (records are immutable values, so maps are copied, not records). */
export function cloneState(s: ChainState): ChainState {
  const records = emptyRecords();
  copyRecords(s.records, records);
  return indexOpen({ accounts: new Map(s.accounts), records, supply: { ...s.supply }, open: {} });
}

/** Σ balances: with escrow and burned it must equal emitted. */
export function sumBalances(state: ChainState): bigint {
  let total = 0n;
  for (const a of state.accounts.values()) total += a.balance;
  return total;
}
