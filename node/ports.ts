/**
 * The node's ports: the small interfaces other components take instead of the whole node
 * (js-libp2p style). `OmbraNode` implements the chain-side ones; its block log, mempool and
 * projection runner implement the rest. A component names only the ports it uses.
 */
import type { Observable } from 'rxjs';
import type { Block } from '../core/block.ts';
import type { Genesis } from '../core/genesis.ts';
import type { KeyPair } from '../core/keys.ts';
import type { ChainState } from '../core/state.ts';
import type { SignedTx } from '../core/tx/handler.ts';
import type { ChainEvent, ChainInfo } from '../projections/events.ts';
import type { Projection } from '../projections/projection.ts';
import type { ProjectionStore, Rows } from '../projections/store.ts';
import type { Reactor } from '../projections/reactor.ts';
import type { Evidence } from './writer/evidence.ts';
import type { ReorgJournal } from './writer/reorgJournal.ts';
import type { Logger } from './log.ts';

/** The head of the chain and the chain's identity. */
export interface HeadReader {
  readonly genesis: Genesis;
  readonly info: ChainInfo;
  head(): Block;
  nextHeight(): number;
  /** Counts reorganisations: stored blocks at or below the head change only when it moves. */
  epoch(): number;
  /** The consensus state at the head (read-only by contract). */
  state(): ChainState;
}

/** Stored blocks, by height. */
interface BlockReader {
  block(index: number): Promise<Block | undefined>;
  /** Blocks from..to inclusive, as an array (the caller bounds the range). */
  blocksIn(from: number, to: number): Promise<Block[]>;
  /** Blocks from..to inclusive as their stored JSON text (the caller bounds the range). */
  blocksJsonIn(from: number, to: number): Promise<string[]>;
  /** Blocks from..to inclusive, streamed in height order. */
  range(from: number, to: number): AsyncIterable<Block>;
  /**
   * Blocks from..to inclusive as their stored JSON's UTF-8 bytes, streamed in height order from
   * one snapshot (written to a socket as they are: no string decoded and encoded again).
   */
  rangeJsonBytes(from: number, to: number): AsyncGenerator<Uint8Array>;
  /** The lowest block above 0 held (absent: 1): a node started from a checkpoint holds no blocks below it yet. */
  readonly logFrom?: number;
}

/** The projections' read models, typed by their definitions. */
export interface ReadModels {
  state<S>(p: Projection<S>): S;
  /** The height a projection has folded. */
  height<S>(p: Projection<S>): number;
  /** A projection's rows once everything folded so far is written (queries read their own writes). */
  readable<S>(p: Projection<S>): Promise<Rows>;
}

/** What the mempool shows to readers. */
interface MempoolView {
  readonly size: number;
  list(): SignedTx[];
  get(hash: string): SignedTx | undefined;
  /** The nonce after a sender's pending run; undefined when it has none pending. */
  pendingEnd(address: string): number | undefined;
  /** A page of the pending transactions of one type, in arrival order, with their count. */
  ofType(type: string, limit: number, offset: number): { total: number; txs: SignedTx[] };
}

/** The one typed event feed: committed blocks, reorganisations, admitted transactions. */
interface ChainFeed {
  readonly events$: Observable<ChainEvent>;
}

/** Options of one `importBlocks` call (node/writer/blockImport.ts). */
export interface ImportOptions {
  /**
   * A height the head is known to reach (the top of blocks whose signatures were verified, such
   * as the group itself): blocks more than the undo depth below it keep no undo records, as no
   * reorganisation can reach them once the head is there. Holds for this import only.
   */
  horizon?: number;
  /**
   * Per block (as the raws): its signatures were not checked, as an ancestor of the assume-valid
   * block (p2p/chainFetcher.ts); it is applied and stored, but the store's verified mark stays below it.
   */
  trusted?: readonly boolean[];
}

/** `ok`, or `degraded` with the reason (block production or import keeps failing). */
export type NodeHealth = { status: 'ok' } | { status: 'degraded'; reason: string };

/** Whether the node's block work is succeeding (GET /api/health). */
export interface HealthView {
  health(): NodeHealth;
}

/** The write entry point for transactions (the API's and gossip's). */
export interface TxSubmitter {
  submitTx(raw: unknown, source?: 'api' | 'gossip'): Promise<SignedTx>;
}

/** The write entry point for blocks from elsewhere (gossip, sync). */
interface BlockImporter {
  importBlock(raw: unknown, source?: 'peer' | 'local', opts?: { signaturesVerified?: boolean }): Promise<Block>;
  /**
   * Imports consecutive blocks with one synced write (catch-up); `verified[i]`: block i's
   * signatures were checked; `txBytes[i]`: its transactions' bytes, when the caller measured them;
   * `opts.horizon`: a height the head is known to reach (node/writer/blockImport.ts).
   */
  importBlocks(
    raws: readonly unknown[],
    verified?: readonly boolean[],
    txBytes?: readonly (number | undefined)[],
    opts?: ImportOptions,
  ): Promise<Block[]>;
  /** Records a block for a height already held as equivocation evidence when it is one (true). */
  noteCompetingBlock(raw: unknown): Promise<boolean>;
  /**
   * Switches to a better branch after block `ancestor`; with `expectedHead`, only while the head
   * is still that block (else a HeadMovedError: the branch was judged against an older head).
   */
  reorg(ancestor: number, branch: Block[], expectedHead?: string): Promise<void>;
}

/** Equivocations this node has seen. */
interface EvidenceReader {
  list(): Evidence[];
}

/** The read side's ports, bundled: what query objects are built from. */
export interface ReadPorts {
  chain: HeadReader;
  blocks: BlockReader;
  models: ReadModels;
  mempool: MempoolView;
  evidence: EvidenceReader;
  /** The event feed (read models kept in memory by queries follow it). */
  feed: ChainFeed;
}

/** What the live-stream hub reads: the feed, the head and stored blocks (for resume), the mempool's size. */
export interface StreamPorts {
  feed: ChainFeed;
  chain: Pick<HeadReader, 'head'>;
  blocks: Pick<BlockReader, 'range'>;
  mempool: Pick<MempoolView, 'size'>;
  /** The reorganisations this node made: what replaced a block a client resumes from (node/writer/reorgJournal.ts). */
  reorgs: Pick<ReorgJournal, 'replaced'>;
  log: Logger;
}

/** What the p2p network needs of the node: the head, both write entry points, the feed, stored blocks, pending transactions. */
export interface NetworkPorts {
  chain: Pick<HeadReader, 'head' | 'genesis' | 'info'> & TxSubmitter & BlockImporter;
  feed: ChainFeed;
  blocks: Pick<BlockReader, 'block' | 'blocksIn' | 'blocksJsonIn' | 'logFrom'>;
  /** Pending transactions, announced until mined (p2p/txAnnouncer.ts). */
  mempool: Pick<MempoolView, 'list'>;
  log: Logger;
}

/** What the node did about hostile peers: bans in force and handed out, gossip dropped unread and rejected, by topic. */
export interface PeerGuardStats {
  banned: number;
  bans: number;
  gossipDropped: { block: number; tx: number };
  gossipRejected: { block: number; tx: number };
}

/** Network facts the API reports (p2p/ fills them in; a --dev node has no peers). */
export interface NetworkView {
  peerCount(): number;
  peers(): { peerId: string; addresses: string[] }[];
  peerId(): string | null;
  addresses(): string[];
  syncing(): boolean;
  /** Peers a transaction gossiped now would reach; absent without p2p. */
  txRecipients?(): number;
  /** The best head connected peers showed with evidence (p2p/peerHeads.ts); null when none did or without p2p. */
  networkHeight?(): number | null;
  /** True while peers are, or may be, ahead: an authority skips its slot (p2p/sync.ts `behind`); absent without p2p. */
  behind?(): boolean;
  /** Bans and dropped gossip (metrics); absent without p2p. */
  guardStats?(): PeerGuardStats;
}

/** What the alert service needs of the node: storage, the runner that drives reactors, the log. */
export interface AlertPorts {
  store: ProjectionStore;
  runner: {
    attachReactor<S>(r: Reactor<S>, blocks: (from: number, to: number) => AsyncIterable<Block>): Promise<void>;
    detachReactor(name: string): Promise<void>;
    reactorHeight(name: string): number | undefined;
  };
  /** Stored blocks from..to (the reactor's catch-up). */
  blocks(from: number, to: number): AsyncIterable<Block>;
  /** The head's height. */
  height(): number;
}

/** What the metrics read of the node at scrape time: the feed, the head, pending transactions, the read models. */
export interface MetricsPorts {
  feed: ChainFeed;
  chain: Pick<HeadReader, 'head'>;
  mempool: Pick<MempoolView, 'list'>;
  models: {
    /** Height each read model has folded. */
    heights(): Record<string, number>;
    /** Read models reset to genesis since start (one per projection). */
    resets(): number;
  };
  /** Bytes LevelDB holds in memory now: its memtables and block cache (`leveldb.approximate-memory-usage`). */
  storeMemory(): number;
}

/** What block production needs of the node: the head, the clock, and the one way to append a block. */
export interface ProducerPorts {
  readonly genesis: Genesis;
  readonly log: Logger;
  clock(): number;
  head(): Block;
  /** Builds, signs and appends a block from the mempool at `timestamp`. */
  produce(key: KeyPair, timestamp: number): Promise<Block>;
}

/** A component with a lifecycle; one place starts them in order and stops them in reverse. */
export interface Component {
  start(): Promise<void>;
  stop(): Promise<void>;
}
