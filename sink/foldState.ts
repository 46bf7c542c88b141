/**
 * The chain state the sink folds from genesis with core's own transition (`applyBlock` with
 * signatures taken as verified: the node verified them), so every balance change, nonce and
 * record is the node's own arithmetic, not a re-implementation. Keeps an undo entry per recent
 * block, so a reorganisation or a failed database commit steps the state back without a refold,
 * and notes the entries changed since the state was last saved (sink/savedState.ts), so a save
 * writes only those.
 */
import { applyBlock, genesisState, type ParentRef } from '../core/applyBlock.ts';
import type { Block } from '../core/block.ts';
import type { Genesis } from '../core/genesis.ts';
import {
  type Account,
  type ChainState,
  commitDiff,
  emptyRecords,
  indexOpen,
  recordsByKind,
  setsByKind,
  type StateDiff,
  type Supply,
} from '../core/state.ts';
import { present } from '../core/errors.ts';

/** What undoes one block. */
interface Undo {
  parent: ParentRef;
  accounts: Map<string, Account | undefined>;
  records: Map<string, Map<string, unknown>>;
  supply: Supply;
}

/** A block folded: its diff and the accounts' values before it. */
export interface Folded {
  diff: StateDiff;
  before(address: string): Account | undefined;
}

const refOf = (b: Block): ParentRef => ({ index: b.index, hash: b.hash, timestamp: b.timestamp, stateRoot: b.stateRoot });

/** What changed since the last save: every entry (a state never saved), or these accounts and records. */
export interface StateChanges {
  all: boolean;
  accounts: Set<string>;
  records: Map<string, Set<string>>;
}

const noChanges = (all: boolean): StateChanges => ({ all, accounts: new Set(), records: new Map() });

/** A state as saved: its head, accounts and records (read back by sink/savedState.ts). */
export interface StateImage {
  head: ParentRef;
  accounts: Map<string, Account>;
  records: Map<string, Map<string, unknown>>;
  supply: Supply;
}

/** The folded state and its head. */
export class FoldState {
  readonly genesis: Genesis;
  readonly genesisBlock: Block;
  /** The genesis allocations as a diff (block 0's rows). */
  readonly genesisDiff: StateDiff;
  private state: ChainState;
  private tip: ParentRef;
  private undo: Undo[] = [];
  private readonly undoDepth: number;
  private changes = noChanges(true);

  /** `undoDepth`: how many recent blocks can be stepped back; `image`: a saved state to start from instead of genesis. */
  constructor(genesis: Genesis, undoDepth: number, image?: StateImage) {
    this.genesis = genesis;
    this.undoDepth = undoDepth;
    const { state, block } = genesisState(genesis);
    this.state = state;
    this.genesisBlock = block;
    this.genesisDiff = { accounts: new Map(state.accounts), records: emptyRecords(), supply: { ...state.supply } };
    this.tip = refOf(block);
    if (image) {
      const records = emptyRecords();
      const all = recordsByKind(records);
      // The loader keeps only the kinds this binary knows (sink/savedState.ts).
      for (const [kind, m] of image.records) if (all[kind]) all[kind] = m;
      this.state = indexOpen({ accounts: image.accounts, records, supply: image.supply, open: {} });
      this.tip = image.head;
      this.changes = noChanges(false);
    }
  }

  /** The entries changed since the last `takeChanges` (a fold from genesis: all of them). */
  takeChanges(): StateChanges {
    const c = this.changes;
    this.changes = noChanges(false);
    return c;
  }

  /** Marks every entry changed (a save of them failed). */
  changedAll(): void {
    this.changes = noChanges(true);
  }

  /** The record `id` of `kind`, or undefined. */
  record(kind: string, id: string): unknown {
    return recordsByKind(this.state.records)[kind]?.get(id);
  }

  /** The supply counters. */
  get supply(): Supply {
    return this.state.supply;
  }

  /** Every record of the folded state, by kind (read only). */
  records(): Iterable<[string, ReadonlyMap<string, unknown>]> {
    return Object.entries(recordsByKind(this.state.records));
  }

  private noteChanged(accounts: Iterable<string>, records: Iterable<[string, Iterable<string>]>): void {
    if (this.changes.all) return;
    for (const a of accounts) this.changes.accounts.add(a);
    for (const [kind, ids] of records) {
      let set = this.changes.records.get(kind);
      if (!set) {
        set = new Set();
        this.changes.records.set(kind, set);
      }
      for (const id of ids) set.add(id);
    }
  }

  /** The height and hash folded so far. */
  get head(): ParentRef {
    return this.tip;
  }

  /** Every account of the folded state (read only). */
  accounts(): ReadonlyMap<string, Account> {
    return this.state.accounts;
  }

  /** Folds the child of the head; throws ChainError INVALID_BLOCK when it does not apply. */
  apply(block: Block): Folded {
    const applied = applyBlock(this.state, this.tip, block, this.genesis, { signaturesVerified: true });
    const diff = applied.diff;
    const accounts = new Map<string, Account | undefined>();
    for (const address of diff.accounts.keys()) accounts.set(address, this.state.accounts.get(address));
    const records = new Map<string, Map<string, unknown>>();
    const all = recordsByKind(this.state.records);
    const note = (kind: string, id: string) => {
      let m = records.get(kind);
      if (!m) {
        m = new Map();
        records.set(kind, m);
      }
      if (!m.has(id)) m.set(id, all[kind]?.get(id));
    };
    for (const [kind, changed] of Object.entries(recordsByKind(diff.records))) for (const id of changed.keys()) note(kind, id);
    for (const [kind, ids] of Object.entries(setsByKind(diff.removed ?? {}))) for (const id of ids ?? []) note(kind, id);
    this.undo.push({ parent: this.tip, accounts, records, supply: this.state.supply });
    if (this.undo.length > this.undoDepth) this.undo.shift();
    commitDiff(this.state, diff);
    this.noteChanged(
      accounts.keys(),
      [...records].map(([kind, m]) => [kind, m.keys()]),
    );
    this.tip = refOf(block);
    return { diff, before: (a) => accounts.get(a) };
  }

  /** Steps back to `height`; false when the undo entries do not reach that far (refold from genesis). */
  revertTo(height: number): boolean {
    if (height > this.tip.index) return false;
    if (this.tip.index - height > this.undo.length) return false;
    const all = recordsByKind(this.state.records);
    while (this.tip.index > height) {
      const u = present(this.undo.pop(), 'an undo entry');
      this.noteChanged(
        u.accounts.keys(),
        [...u.records].map(([kind, m]) => [kind, m.keys()]),
      );
      for (const [a, v] of u.accounts) v === undefined ? this.state.accounts.delete(a) : this.state.accounts.set(a, v);
      for (const [kind, m] of u.records) for (const [id, v] of m) v === undefined ? all[kind].delete(id) : all[kind].set(id, v);
      this.state.supply = u.supply;
      this.tip = u.parent;
    }
    indexOpen(this.state);
    return true;
  }
}
