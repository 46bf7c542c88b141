/**
 * The chain state the sink folds from genesis with core's own transition (`applyBlock` with
 * signatures taken as verified: the node verified them), so every balance change, nonce and
 * record is the node's own arithmetic, not a re-implementation. Keeps an undo entry per recent
 * block, so a reorganisation or a failed database commit steps the state back without a refold.
 */
import { applyBlock, genesisState, type ParentRef } from '../core/applyBlock.ts';
import type { Block } from '../core/block.ts';
import type { Genesis } from '../core/genesis.ts';
import { type Account, type ChainState, commitDiff, emptyRecords, indexOpen, type StateDiff, type Supply } from '../core/state.ts';

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

  /** `undoDepth`: how many recent blocks can be stepped back. */
  constructor(genesis: Genesis, undoDepth: number) {
    this.genesis = genesis;
    this.undoDepth = undoDepth;
    const { state, block } = genesisState(genesis);
    this.state = state;
    this.genesisBlock = block;
    this.genesisDiff = { accounts: new Map(state.accounts), records: emptyRecords(), supply: { ...state.supply } };
    this.tip = refOf(block);
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
    const all = this.state.records as unknown as Record<string, Map<string, unknown>>;
    const note = (kind: string, id: string) => {
      let m = records.get(kind);
      if (!m) {
        m = new Map();
        records.set(kind, m);
      }
      if (!m.has(id)) m.set(id, all[kind]?.get(id));
    };
    for (const [kind, changed] of Object.entries(diff.records) as [string, Map<string, unknown>][])
      for (const id of changed.keys()) note(kind, id);
    for (const [kind, ids] of Object.entries(diff.removed ?? {}) as [string, Set<string>][]) for (const id of ids) note(kind, id);
    this.undo.push({ parent: this.tip, accounts, records, supply: this.state.supply });
    if (this.undo.length > this.undoDepth) this.undo.shift();
    commitDiff(this.state, diff);
    this.tip = refOf(block);
    return { diff, before: (a) => accounts.get(a) };
  }

  /** Steps back to `height`; false when the undo entries do not reach that far (refold from genesis). */
  revertTo(height: number): boolean {
    if (height > this.tip.index) return false;
    if (this.tip.index - height > this.undo.length) return false;
    const all = this.state.records as unknown as Record<string, Map<string, unknown>>;
    while (this.tip.index > height) {
      const u = this.undo.pop() as Undo;
      for (const [a, v] of u.accounts) v === undefined ? this.state.accounts.delete(a) : this.state.accounts.set(a, v);
      for (const [kind, m] of u.records) for (const [id, v] of m) v === undefined ? all[kind].delete(id) : all[kind].set(id, v);
      this.state.supply = u.supply;
      this.tip = u.parent;
    }
    indexOpen(this.state);
    return true;
  }
}
