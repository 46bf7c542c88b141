/** The one typed event feed everything downstream of the writer reacts to. */
import type { Block } from '../core/block.ts';
import type { Genesis } from '../core/genesis.ts';
import type { ChainState, StateDiff } from '../core/state.ts';
import type { SignedTx } from '../core/tx/handler.ts';

/** A balance that a block changed. */
export interface BalanceChange {
  address: string;
  before: bigint;
  after: bigint;
}

/** A block was appended (or replayed from the log). */
export interface BlockEvent {
  type: 'block';
  /** The block as signed and stored (forwarded and served as is). */
  block: Block;
  /**
   * Its transactions as the state reads them (core/txCodec.ts `stateTx`: addresses
   * lower-cased), what projections index; the stored objects themselves when already so.
   */
  txs: readonly SignedTx[];
  diff: StateDiff;
  balances: BalanceChange[];
  /** Micro-units newly emitted by the block (the pre-fork-2 block reward). */
  emitted: bigint;
  /** True while rebuilding from the log rather than extending it. */
  replay: boolean;
  /** Where the block came from: produced here, received from a peer, or re-folded from the log. */
  source?: 'local' | 'peer' | 'replay';
}

/** A transaction entered the mempool. */
interface TxEvent {
  type: 'tx';
  tx: SignedTx;
  /** Where it came from: this node's API (or restart), or gossip. */
  source?: 'api' | 'gossip';
}

/** Transactions left the mempool (mined or dropped). */
interface MempoolEvent {
  type: 'mempool';
  total: number;
}

/** A block at the tip of a branch. */
interface HeadRef {
  index: number;
  hash: string;
}

/**
 * The node switched to another branch. Contract for the emitter (the network layer): emit it
 * after the log holds the new branch (the head is `newHead`) and before the block events of the
 * new branch's blocks `fromHeight..newHead.index`; streams re-send those heights from the log.
 */
export interface ReorgEvent {
  type: 'reorg';
  /** First height whose block changed; the common ancestor is `fromHeight - 1`. */
  fromHeight: number;
  /** The head before the switch. */
  oldHead: HeadRef;
  /** The head after the switch. */
  newHead: HeadRef;
  /** Hashes of the abandoned blocks, lowest height first. */
  dropped: string[];
  /** The common ancestor's hash (block `fromHeight - 1`): the stream's resume cursor after the switch. */
  ancestorHash?: string;
}

/** Everything on the node's event feed. */
export type ChainEvent = BlockEvent | TxEvent | MempoolEvent | ReorgEvent;

/** What projections get to know about the chain at init. */
export interface ChainInfo {
  genesis: Genesis;
  genesisBlock: Block;
  genesisState: ChainState;
  /**
   * Finished records the consensus state keeps in memory per kind (core/recordCache.ts); absent:
   * every record (tests, tools).
   */
  recordCache?: number;
  /**
   * Accounts (and per-address counts) the consensus state and read models keep in memory
   * (core/recordCache.ts); absent: every one. A state with no record cache keeps every account.
   */
  accountCache?: number;
}
