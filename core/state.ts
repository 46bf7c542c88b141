/**
 * Consensus state and a copy-on-write overlay. `applyBlock` writes only into an overlay, so a
 * failing block leaves the base untouched; the overlay's contents are the block's state diff.
 * Besides accounts, the state holds keyed records (miners, tasks, agent runs, art NFTs) as plain
 * JSON values: big integers inside records are decimal strings.
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

/** A registered miner (reputation and completed tasks are read models, not consensus). */
export interface Miner {
  id: string;
  name: string;
  address: string;
  capabilities: string[];
  registeredAt: number;
  txHash: string;
}

/** Task statuses: see core/tx/taskMachine.ts for the transitions. */
export type TaskStatus = 'submitted' | 'responses_collected' | 'validated' | 'rewarded' | 'timeout';

/** One miner's answer to a task, as consensus keeps it (the content stays in the block log). */
export interface TaskResponseRef {
  minerId: string;
  miner: string;
  contentHash: string;
  txHash: string;
}

/** A task in flight or settled. */
export interface Task {
  taskId: string;
  submitter: string;
  taskType: string;
  prompt: string;
  fee: string;
  timeoutMs: number;
  submittedAt: number;
  submitBlock: number;
  submitTxHash: string;
  status: TaskStatus;
  responses: TaskResponseRef[];
  validator?: string;
  bestMinerId?: string;
  scores?: { minerId: string; score: number }[];
  rewardTxHash?: string;
  settledAt?: number;
  nftTokenId?: string;
}

/** Agent run statuses: see core/tx/agentMachine.ts for the transitions. */
export type AgentRunStatus = 'pending' | 'claimed' | 'running' | 'completed' | 'failed' | 'timeout' | 'insufficient_funds' | 'cancelled';

/** An agent run's consensus record. */
export interface AgentRun {
  agentRunId: string;
  conversationId: string;
  submitter: string;
  maxFee: string;
  maxSteps: number;
  status: AgentRunStatus;
  submittedAt: number;
  requestTxHash: string;
  minerAddress?: string;
  minerId?: string;
  claimedAt?: number;
  lastActivityAt?: number;
  stepCount: number;
  stepTokensOut: number;
  totalTokensOut: number;
  networkFee: string;
  minerReward: string;
  userRefund: string;
  finishedAt?: number;
}

/** An art NFT minted from a rewarded SVG task. */
export interface ArtNft {
  tokenId: string;
  owner: string;
  taskId: string;
  minerId: string;
  mintedAt: number;
  blockIndex: number;
  txHash: string;
}

/** The record kinds and their value types. */
export interface RecordTypes {
  miners: Miner;
  tasks: Task;
  runs: AgentRun;
  nfts: ArtNft;
}
/** A record kind. */
export type RecordKind = keyof RecordTypes;
/** Every record kind with its state-root key prefix. */
export const RECORD_PREFIX: Record<RecordKind, string> = { miners: 'm', tasks: 't', runs: 'r', nfts: 'n' };
/** The record kinds. */
export const RECORD_KINDS = Object.keys(RECORD_PREFIX) as RecordKind[];
type Records = { [K in RecordKind]: Map<string, RecordTypes[K]> };

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
  /** Derived: ids of tasks and runs that can still time out (rebuilt from records on load). */
  open: { tasks: Set<string>; runs: Set<string> };
}

/** The changes one block made: every touched entry's value after the block. */
export interface StateDiff {
  accounts: Map<string, Account>;
  records: Records;
  supply: Supply;
}

const OPEN_TASK: readonly TaskStatus[] = ['submitted', 'responses_collected', 'validated'];
const OPEN_RUN: readonly AgentRunStatus[] = ['pending', 'claimed', 'running'];

/** True while a task can still progress or time out. */
export const isOpenTask = (t: Task): boolean => OPEN_TASK.includes(t.status);
/** True while a run can still progress or time out. */
export const isOpenRun = (r: AgentRun): boolean => OPEN_RUN.includes(r.status);

/** A fresh account. */
export function emptyAccount(): Account {
  return { balance: 0n, nonce: 0, storageCapacity: 0n, storageUsed: 0n };
}

/** Empty record maps. */
export function emptyRecords(): Records {
  return { miners: new Map(), tasks: new Map(), runs: new Map(), nfts: new Map() };
}

/** An empty state. */
export function emptyState(): ChainState {
  return {
    accounts: new Map(),
    records: emptyRecords(),
    supply: { emitted: 0n, burned: 0n, escrow: 0n, feesPaid: 0n },
    open: { tasks: new Set(), runs: new Set() },
  };
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

  /** A record by kind and id. */
  get<K extends RecordKind>(kind: K, id: string): Readonly<RecordTypes[K]> | undefined {
    const own = this.records[kind].get(id);
    if (own) return own;
    const p = this.parent;
    return p instanceof StateOverlay ? p.get(kind, id) : p.records[kind].get(id);
  }

  /** Records a new or changed record (a fresh object: stored values are never mutated). */
  put<K extends RecordKind>(kind: K, id: string, value: RecordTypes[K]): void {
    (this.records[kind] as Map<string, RecordTypes[K]>).set(id, value);
  }

  /** A miner by id. */
  miner(id: string): Readonly<Miner> | undefined {
    return this.get('miners', id);
  }

  /** Ids of open tasks or runs as of the base state plus this overlay's changes. */
  openIds(kind: 'tasks' | 'runs'): Set<string> {
    const p = this.parent;
    const ids = new Set(p instanceof StateOverlay ? p.openIds(kind) : p.open[kind]);
    for (const id of this.records[kind].keys()) ids.add(id);
    return ids;
  }

  /** Folds this overlay's changes into its parent overlay. */
  mergeIntoParent(): void {
    const p = this.parent;
    if (!(p instanceof StateOverlay)) throw new Error('mergeIntoParent needs an overlay parent');
    for (const [k, v] of this.accounts) p.accounts.set(k, v);
    for (const kind of RECORD_KINDS) for (const [k, v] of this.records[kind]) (p.records[kind] as Map<string, unknown>).set(k, v);
    p.supply = this.supply;
  }

  /** The block's changes. */
  diff(): StateDiff {
    return { accounts: this.accounts, records: this.records, supply: this.supply };
  }
}

/** Writes a diff into a state (the one place state mutates) and keeps the open sets current. */
export function commitDiff(state: ChainState, diff: StateDiff): ChainState {
  for (const [k, v] of diff.accounts) state.accounts.set(k, v);
  for (const kind of RECORD_KINDS) for (const [k, v] of diff.records[kind]) (state.records[kind] as Map<string, unknown>).set(k, v);
  for (const [id, t] of diff.records.tasks) isOpenTask(t) ? state.open.tasks.add(id) : state.open.tasks.delete(id);
  for (const [id, r] of diff.records.runs) isOpenRun(r) ? state.open.runs.add(id) : state.open.runs.delete(id);
  state.supply = diff.supply;
  return state;
}

/** Rebuilds the derived open sets from the records (after loading a state). */
export function indexOpen(state: ChainState): ChainState {
  state.open = { tasks: new Set(), runs: new Set() };
  for (const [id, t] of state.records.tasks) if (isOpenTask(t)) state.open.tasks.add(id);
  for (const [id, r] of state.records.runs) if (isOpenRun(r)) state.open.runs.add(id);
  return state;
}

/** An independent copy of a state (records are immutable values, so maps are copied, not records). */
export function cloneState(s: ChainState): ChainState {
  const records = emptyRecords();
  for (const kind of RECORD_KINDS) for (const [k, v] of s.records[kind]) (records[kind] as Map<string, unknown>).set(k, v);
  return indexOpen({ accounts: new Map(s.accounts), records, supply: { ...s.supply }, open: { tasks: new Set(), runs: new Set() } });
}

/** Σ balances: with escrow and burned it must equal emitted. */
export function sumBalances(state: ChainState): bigint {
  let total = 0n;
  for (const a of state.accounts.values()) total += a.balance;
  return total;
}
