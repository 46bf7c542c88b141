/**
 * Consensus state and a copy-on-write overlay. `applyBlock` writes only into an overlay, so a
 * failing block leaves the base untouched; the overlay's contents are the block's state diff.
 */

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

/** A registered miner. */
export interface Miner {
  id: string;
  name: string;
  address: string;
  capabilities: string[];
  reputationScore: number;
  tasksCompleted: number;
  registeredAt: number;
  txHash: string;
}

/** Where every micro-unit is: totalEmitted = Σ balances + escrow + burned. */
export interface Supply {
  emitted: bigint;
  burned: bigint;
  escrow: bigint;
  /** Fees paid to proposers so far (informational; fees stay inside Σ balances). */
  feesPaid: bigint;
}

/** The whole consensus state. */
export interface ChainState {
  accounts: Map<string, Account>;
  miners: Map<string, Miner>;
  supply: Supply;
}

/** The changes one block made: every touched entry's value after the block. */
export interface StateDiff {
  accounts: Map<string, Account>;
  miners: Map<string, Miner>;
  supply: Supply;
}

/** A fresh account. */
export function emptyAccount(): Account {
  return { balance: 0n, nonce: 0, storageCapacity: 0n, storageUsed: 0n };
}

/** An empty state. */
export function emptyState(): ChainState {
  return { accounts: new Map(), miners: new Map(), supply: { emitted: 0n, burned: 0n, escrow: 0n, feesPaid: 0n } };
}

/** Copy-on-write view over a ChainState, or over another overlay (a trial inside a block). */
export class StateOverlay {
  readonly parent: ChainState | StateOverlay;
  readonly accounts = new Map<string, Account>();
  readonly miners = new Map<string, Miner>();
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

  /** A miner by id. */
  miner(id: string): Readonly<Miner> | undefined {
    const own = this.miners.get(id);
    if (own) return own;
    const p = this.parent;
    return p instanceof StateOverlay ? p.miner(id) : p.miners.get(id);
  }

  /** Records a new or changed miner. */
  putMiner(m: Miner): void {
    this.miners.set(m.id, m);
  }

  /** Folds this overlay's changes into its parent overlay. */
  mergeIntoParent(): void {
    const p = this.parent;
    if (!(p instanceof StateOverlay)) throw new Error('mergeIntoParent needs an overlay parent');
    for (const [k, v] of this.accounts) p.accounts.set(k, v);
    for (const [k, v] of this.miners) p.miners.set(k, v);
    p.supply = this.supply;
  }

  /** The block's changes. */
  diff(): StateDiff {
    return { accounts: this.accounts, miners: this.miners, supply: this.supply };
  }
}

/** Writes a diff into a state (the one place state mutates). */
export function commitDiff(state: ChainState, diff: StateDiff): ChainState {
  for (const [k, v] of diff.accounts) state.accounts.set(k, v);
  for (const [k, v] of diff.miners) state.miners.set(k, v);
  state.supply = diff.supply;
  return state;
}

/** Σ balances: with escrow and burned it must equal emitted. */
export function sumBalances(state: ChainState): bigint {
  let total = 0n;
  for (const a of state.accounts.values()) total += a.balance;
  return total;
}
