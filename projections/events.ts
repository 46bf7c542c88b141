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
  block: Block;
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
export interface TxEvent {
  type: 'tx';
  tx: SignedTx;
  /** Where it came from: this node's API (or restart), or gossip. */
  source?: 'api' | 'gossip';
}

/** Transactions left the mempool (mined or dropped). */
export interface MempoolEvent {
  type: 'mempool';
  total: number;
}

/**
 * The node switched to a better chain: blocks after `ancestor` were replaced. Block events for
 * the new blocks follow; read models were rebuilt before this event.
 */
export interface ReorgEvent {
  type: 'reorg';
  ancestor: number;
  oldHead: { index: number; hash: string };
  newHead: { index: number; hash: string };
  /** Blocks dropped from the old chain (their transactions go back to the mempool when still valid). */
  dropped: number;
}

/** Everything on the node's event feed. */
export type ChainEvent = BlockEvent | TxEvent | MempoolEvent | ReorgEvent;

/** What projections get to know about the chain at init. */
export interface ChainInfo {
  genesis: Genesis;
  genesisBlock: Block;
  genesisState: ChainState;
}
