/**
 * The node: the one writer's façade. It validates, appends each block to the log in one batch,
 * then emits on `events$`; projections, streams and the mempool react to that feed. The work is
 * in role files over the shared `Writer` (node/writer/writer.ts): opening (openChain.ts), catch-up
 * (catchUp.ts), import and production (blockImport.ts), transactions (txSubmit.ts) and
 * reorganisation (reorg.ts); this class holds the lifecycle and hands out the ports.
 */
import type { Block } from '../core/block.ts';
import type { KeyPair } from '../core/keys.ts';
import type { ChainState } from '../core/state.ts';
import type { SignedTx } from '../core/tx/handler.ts';
import { importBlock, importBlocks, produceBlock } from './writer/blockImport.ts';
import { catchUp, type CatchUpOptions } from './writer/catchUp.ts';
import type { ChainStore } from './store/chainStore.ts';
import { openChain, type NodeOptions } from './store/openChain.ts';
import type {
  AlertPorts,
  Component,
  HealthView,
  ImportOptions,
  MetricsPorts,
  NetworkPorts,
  NodeHealth,
  ReadPorts,
  StreamPorts,
} from './ports.ts';
import { noteCompetingBlock, reorg } from './writer/reorg.ts';
import { explainCorruption } from './store/storeDamage.ts';
import { restorePending, submitTx } from './mempool/txSubmit.ts';
import { Writer } from './writer/writer.ts';
import { WriterViews } from './writerViews.ts';
import { dirname, resolve } from 'node:path';

export type { NodeOptions } from './store/openChain.ts';
export { LogIntegrityError } from './store/storeDamage.ts';
export { refOf } from './writer/writer.ts';

/** The running node's core: log, state, mempool, projections and the event feed. */
export class OmbraNode extends WriterViews implements HealthView, Component {
  private readonly onCatchUp?: (height: number, head: number) => void;

  private constructor(w: Writer, opts: NodeOptions) {
    super(w);
    this.onCatchUp = opts.onCatchUp;
  }

  /**
   * Opens the data dir (genesis written if new, the log's integrity checked) and starts the node
   * (catches the read models up), unless `opts.start` is false: a `Lifecycle` then starts it.
   * One lifecycle for every component: a factory or constructor, then `start` and `stop`.
   */
  static async open(opts: NodeOptions): Promise<OmbraNode> {
    const node = new OmbraNode(new Writer(await openChain(opts), opts), opts);
    if (opts.start === false) return node;
    try {
      await node.start();
    } catch (e) {
      await node.store.close();
      throw explainCorruption(e, dirname(resolve(opts.dbDir)));
    }
    return node;
  }

  /** Lifecycle: catches every projection up to the head, follows the feed, restores the mempool. */
  async start(): Promise<void> {
    await this.w.evidence.load();
    await this.w.reorgJournal.load();
    await this.catchUp(this.onCatchUp);
    this.w.runner.attach(this.w.events$);
    await restorePending(this.w);
  }

  /** Lifecycle: waits for the write in progress, flushes projections and closes the database (idempotent). */
  async stop(): Promise<void> {
    if (this.w.closed) return;
    await this.w.exclusive(async () => {
      this.w.closed = true;
    });
    this.w.events$.complete();
    try {
      await this.w.runner.stop();
    } finally {
      // A fenced store refuses the runner's last batch; it is closed all the same, so a reopen (a
      // recovery from a full disk) finds it unlocked.
      await this.w.store.close();
    }
  }

  /** Replays the log into projections behind the head (all of them after `resetAll`). */
  catchUp(onProgress?: (height: number, head: number) => void, opts: CatchUpOptions = {}): Promise<void> {
    return catchUp(this.w, onProgress, opts);
  }

  /**
   * A LevelDB snapshot taken between two writes, with every folded block's rows written: the log
   * and every read model stand at the same height in it (a checkpoint's source). Close it after use.
   */
  consistentSnapshot(): Promise<ReturnType<ChainStore['db']['snapshot']>> {
    return this.w.exclusive(async () => {
      await this.w.runner.flush();
      return this.w.store.db.snapshot();
    });
  }

  /** The consensus state at the head. */
  state(): ChainState {
    return this.w.state();
  }

  /** The read side's ports over this node: what query objects are built from. */
  readPorts(): ReadPorts {
    return { chain: this, blocks: this.store, models: this.runner, mempool: this.mempool, evidence: this.evidence, feed: this };
  }

  /** The ports of the live-stream hub. */
  streamPorts(): StreamPorts {
    return { feed: this, chain: this, blocks: this.store, mempool: this.mempool, reorgs: this.w.reorgJournal, log: this.log };
  }

  /** The ports of the p2p network. */
  networkPorts(): NetworkPorts {
    return {
      chain: this,
      feed: this,
      blocks: this.store,
      mempool: this.mempool,
      log: this.log,
    };
  }

  /** The ports of the alert service: storage, the runner that drives its reactor, stored blocks. */
  alertPorts(): AlertPorts {
    return { store: this.store, runner: this.runner, blocks: (from, to) => this.store.range(from, to), height: () => this.w.tip.index };
  }

  /** The ports the metrics read at scrape time. */
  metricsPorts(): MetricsPorts {
    const runner = this.runner;
    return {
      feed: this,
      chain: this,
      mempool: this.mempool,
      models: { heights: () => runner.heights(), resets: () => runner.resets },
      storeMemory: () => this.store.memoryBytes(),
    };
  }

  /** The head block. */
  head(): Block {
    return this.w.tip;
  }

  /** Counts reorganisations (read caches of stored blocks key on it). */
  epoch(): number {
    return this.w.reorgs;
  }

  /** Height of the next block. */
  nextHeight(): number {
    return this.w.tip.index + 1;
  }

  /** Validates and admits a transaction to the mempool (the API's and gossip's entry point). */
  submitTx(raw: unknown, source: 'api' | 'gossip' = 'api'): Promise<SignedTx> {
    return submitTx(this.w, raw, source);
  }

  /** Builds, signs and appends a block from the mempool at `timestamp`. */
  produce(key: KeyPair, timestamp: number): Promise<Block> {
    return produceBlock(this.w, key, timestamp);
  }

  /**
   * Switches to a better branch after block `ancestor`: validates it from the ancestor's state,
   * replaces the log's suffix in one batch, rebuilds the read models, returns the dropped blocks'
   * transactions to the mempool, and announces it on the feed (a reorg event, then the blocks).
   */
  reorg(ancestor: number, branch: Block[], expectedHead?: string): Promise<void> {
    return reorg(this.w, ancestor, branch, expectedHead);
  }

  /**
   * Looks at a block for a height this node already has: when it and ours are two blocks for one
   * slot attested by its authority, the pair is recorded as evidence (true). Never throws.
   */
  noteCompetingBlock(raw: unknown): Promise<boolean> {
    return noteCompetingBlock(this.w, raw);
  }

  /** Validates a block from elsewhere (a peer, a snapshot) as the child of the head and appends it. */
  importBlock(raw: unknown, source: 'peer' | 'local' = 'peer', opts: { signaturesVerified?: boolean } = {}): Promise<Block> {
    return importBlock(this.w, raw, source, opts);
  }

  /**
   * Imports consecutive blocks from elsewhere with one synced write (group commit, for catch-up):
   * each is validated on the state its predecessors leave, all are appended in one batch, and only
   * then announced. Blocks before the first invalid one are kept; the fault is then rethrown.
   */
  importBlocks(
    raws: readonly unknown[],
    verified: readonly boolean[] = [],
    txBytes: readonly (number | undefined)[] = [],
    opts: ImportOptions = {},
  ): Promise<Block[]> {
    return importBlocks(this.w, raws, verified, txBytes, opts);
  }

  /** `ok`, or `degraded` while block production or import keeps failing. */
  health(): NodeHealth {
    const fault = this.w.store.fence.fault;
    if (fault)
      return {
        status: 'degraded',
        reason: `writes stopped since ${new Date(fault.since).toISOString()}: the data dir ${fault.dataDir} failed a write (${fault.cause}); free space: the node reopens its store once its disk takes writes`,
      };
    return this.w.healthMonitor.health();
  }
}
