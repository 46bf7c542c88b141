/**
 * The node: the one writer. It validates, appends each block to the log in one batch, then
 * emits on `events$`; projections, streams and the mempool react to that feed.
 */
import { Subject } from 'rxjs';
import { applyBlock, buildBlock, genesisState, type Applied, type ParentRef } from '../core/applyBlock.ts';
import { equivocation, slotOf, type Block } from '../core/block.ts';
import { ChainError, present } from '../core/errors.ts';
import { finalityDepthOf, withForkOverrides, type ForkHeights, type Genesis } from '../core/genesis.ts';
import type { KeyPair } from '../core/keys.ts';
import { cloneState, StateOverlay, type ChainState } from '../core/state.ts';
import type { SignedTx } from '../core/tx/handler.ts';
import { stateTx } from '../core/txCodec.ts';
import { validateTx } from '../core/validateTx.ts';
import type { BalanceChange, BlockEvent, ChainEvent, ChainInfo } from '../projections/events.ts';
import { PROJECTIONS } from '../projections/index.ts';
import { ProjectionRunner } from '../projections/runner.ts';
import { ChainStore } from './chainStore.ts';
import { silentLogger, type Logger } from './log.ts';
import { Mempool, MempoolPolicyError, type MempoolOptions } from './mempool.ts';
import { UploadHashes } from '../core/uploadHashes.ts';
import { genesisMismatch } from './genesisCheck.ts';
import { VerifyPool } from './verifyPool.ts';
import { PendingLog } from './pendingLog.ts';
import { EvidenceStore } from './evidence.ts';
import { batchesOf, blockItems, defaultBatchLimits, runPipeline } from './blockPipeline.ts';
import { betterTip, HeadMovedError, validateBranch } from './reorg.ts';
import { accountsProjection, stateWithRows } from '../projections/accounts.ts';
import { txIndexProjection } from '../projections/chainIndex.ts';
import type { AlertPorts, HealthView, NetworkPorts, NodeHealth, ReadPorts, StreamPorts } from './ports.ts';
import { DEFAULT_VERIFY_DEPTH, verifyLog } from './logIntegrity.ts';
import { DEFAULT_RECORD_CACHE, RecordsNotLoaded } from '../core/recordCache.ts';
import { withLoaded } from './recordLoader.ts';
import { explainCorruption, LogIntegrityError } from './storeDamage.ts';

export { LogIntegrityError } from './storeDamage.ts';
import { dirname, resolve } from 'node:path';
import { HealthMonitor, type HealthOptions } from './healthMonitor.ts';

/** Blocks per verification batch during catch-up. */
const CATCH_UP_CHUNK = 50;

/** How to open a node. */
export interface NodeOptions {
  /** LevelDB directory. */
  dbDir: string;
  /** The genesis file's content; required for a new data dir, checked against an existing one. */
  genesis?: Genesis;
  /** Operator fork-height overrides (OMBRA_FORK_HEIGHT...). */
  forkOverrides?: Partial<ForkHeights>;
  mempool?: Partial<MempoolOptions>;
  /** Blocks back from the head whose hash chain is checked on open (default 1,000; Infinity = all). */
  verifyDepth?: number;
  /** `ombra repair` opens a data dir whose damage it is about to repair (node/storeDamage.ts). */
  repairing?: boolean;
  /** When block work counts as failing (defaults in node/healthMonitor.ts). */
  health?: Partial<HealthOptions>;
  clock?: () => number;
  log?: Logger;
  /** Blocks back from the head whose undo records are kept for reorganisations (default 128). */
  undoDepth?: number;
  /**
   * Finished records (tasks, runs, NFTs, posts...) the consensus state keeps in memory per kind;
   * the rest are read from disk when a block needs them (default 4,096; Infinity keeps all).
   */
  recordCache?: number;
  /** Progress callback while catching projections up from the log. */
  onCatchUp?: (height: number, head: number) => void;
  /** Observer of block work (metrics): seconds each import or production took, or its error. */
  onBlockWork?: (kind: 'import' | 'produce', seconds: number, error?: unknown) => void;
}

/** The running node's core: log, state, mempool, projections and the event feed. */
export class OmbraNode implements HealthView {
  readonly store: ChainStore;
  readonly runner: ProjectionRunner;
  readonly mempool: Mempool;
  /** Admission's incremental hashes of pending uploads (completion checks cost the chunks since the last one). */
  private readonly uploadHashes: UploadHashes;
  /** Outcomes of block production and import, for health. */
  readonly healthMonitor: HealthMonitor;
  readonly genesis: Genesis;
  readonly info: ChainInfo;
  readonly events$ = new Subject<ChainEvent>();
  readonly log: Logger;
  readonly clock: () => number;
  private tip: Block;
  /** Blocks the last catch-up re-folded (0 after a clean restart: checkpoints were current). */
  lastCatchUp = { from: 0, to: 0, blocks: 0 };
  /** Node-local copy of the mempool (not chain state), so acknowledged transactions survive restarts. */
  private readonly pendingLog: PendingLog;
  /** Equivocations seen (node-local): the second block of a slot is never built upon. */
  readonly evidence: EvidenceStore;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private reorgs = 0;
  private readonly onCatchUp?: (height: number, head: number) => void;
  private readonly onBlockWork: NodeOptions['onBlockWork'];

  private constructor(store: ChainStore, genesis: Genesis, info: ChainInfo, tip: Block, opts: NodeOptions) {
    this.store = store;
    this.genesis = genesis;
    this.info = info;
    this.tip = tip;
    this.log = opts.log ?? silentLogger;
    this.clock = opts.clock ?? Date.now;
    this.mempool = new Mempool(opts.mempool);
    this.uploadHashes = new UploadHashes();
    this.healthMonitor = new HealthMonitor(this.clock, opts.health);
    // Undo reaches as deep as a reorganisation may (the finality depth) unless told otherwise.
    this.runner = new ProjectionRunner(store, PROJECTIONS, info, opts.undoDepth ?? finalityDepthOf(genesis));
    this.pendingLog = new PendingLog(store.sublevel('local:mempool'));
    this.evidence = new EvidenceStore(store.sublevel('local:evidence'));
    this.onCatchUp = opts.onCatchUp;
    this.onBlockWork = opts.onBlockWork;
  }

  /** Opens the data dir, writes genesis if new, and starts the node (catches projections up). */
  static async open(opts: NodeOptions): Promise<OmbraNode> {
    const node = await OmbraNode.create(opts);
    try {
      await node.start();
    } catch (e) {
      await node.store.close();
      throw explainCorruption(e, dirname(resolve(opts.dbDir)));
    }
    return node;
  }

  /** Opens the data dir and writes genesis if new; `start` then catches the read models up. */
  static async create(opts: NodeOptions): Promise<OmbraNode> {
    const dataDir = dirname(resolve(opts.dbDir));
    let store = await ChainStore.open(opts.dbDir);
    try {
      // A missing or damaged head pointer: nothing below can be read without one.
      if (!store.head() && store.damage) throw new LogIntegrityError(store.damage, dataDir);
      const stored = await store.genesis();
      const raw = stored ?? opts.genesis;
      if (!raw) throw new ChainError('INVALID_PARAMS', 'this data dir has no chain yet: pass --genesis FILE or --dev');
      if (stored && opts.genesis) {
        const why = genesisMismatch(stored, opts.genesis);
        if (why) throw new ChainError('INVALID_PARAMS', `this data dir was created with a different genesis (${why})`);
      }
      const genesis = withForkOverrides(raw, opts.forkOverrides ?? {});
      const { state, block } = genesisState(genesis);
      if (!stored) await store.init(raw, block);
      const block0 = await store.block(0);
      if (!block0 || block0.hash !== block.hash) throw new Error('stored genesis block does not match the genesis file');
      // The log's own facts first (they name the exact height), then what LevelDB lost or skipped.
      const fault = await verifyLog(store, opts.verifyDepth ?? DEFAULT_VERIFY_DEPTH);
      if (fault) throw new LogIntegrityError(fault, dataDir);
      // The check read its window through LevelDB's memory-mapped table files, whose pages stay
      // resident until the tables close (45 MiB for 400 blocks of 500 transactions): a sound
      // store is closed (recording the verified head) and opened afresh without them.
      if (!store.damage) {
        await store.close();
        store = await ChainStore.open(opts.dbDir);
      }
      if (store.damage && !opts.repairing) throw new LogIntegrityError(store.damage, dataDir);
      const head = present(store.head(), 'the head of the checked log');
      const tip = await store.storedBlock(head.index);
      const info = { genesis, genesisBlock: block, genesisState: state, recordCache: opts.recordCache ?? DEFAULT_RECORD_CACHE };
      return new OmbraNode(store, genesis, info, tip, opts);
    } catch (e) {
      await store.close();
      throw explainCorruption(e, dataDir);
    }
  }

  /** Lifecycle: catches every projection up to the head, follows the feed, restores the mempool. */
  async start(): Promise<void> {
    await this.evidence.load();
    await this.catchUp(this.onCatchUp);
    this.runner.attach(this.events$);
    await this.restorePending();
  }

  /** Lifecycle: flushes projections and closes the database. */
  stop(): Promise<void> {
    return this.close();
  }

  /** Replays the log into projections behind the head (all of them after `resetAll`). */
  async catchUp(
    onProgress?: (height: number, head: number) => void,
    opts: { verifySignatures?: boolean; to?: number } = {},
  ): Promise<void> {
    await this.runner.load();
    // Diffs come from re-executing blocks on the consensus state, so it must start no later
    // than the lowest projection.
    if (this.runner.minHeight() < this.runner.height(accountsProjection)) await this.runner.resetOne(accountsProjection);
    const from = this.runner.minHeight();
    const head = Math.min(present(this.store.head(), 'the head of the log').index, opts.to ?? Infinity);
    let parent = await this.store.storedBlock(from);
    // With verification, workers check batch k+1's signatures while batch k is applied; without
    // it the node's own log is trusted (every block in it was validated before it was appended).
    const pool = opts.verifySignatures ? new VerifyPool() : null;
    try {
      const batches = batchesOf(blockItems(this.store.range(from + 1, head)), { ...defaultBatchLimits, maxBlocks: CATCH_UP_CHUNK });
      await runPipeline(batches, pool, async ({ block: raw, txBytes }, verified) => {
        const block = raw as Block;
        const applied = await this.loading(() =>
          applyBlock(this.state(), refOf(parent), block, this.genesis, { signaturesVerified: pool ? verified : true, txBytes }),
        );
        const ev = this.blockEvent(block, applied, true);
        await this.runner.prepare(ev);
        this.runner.fold(ev);
        parent = block;
        if (block.index % 1000 === 0) await this.runner.flush();
        if (block.index % CATCH_UP_CHUNK === 0) onProgress?.(block.index, head);
      });
    } finally {
      await pool?.close();
    }
    await this.runner.flush();
    this.lastCatchUp = { from, to: head, blocks: head - from };
    onProgress?.(head, head);
    if (head > from) this.log.info('projections caught up', { from, head });
  }

  /** Re-admits the transactions that were pending when the node last stopped, in arrival order. */
  private async restorePending(): Promise<void> {
    const rows = await this.pendingLog.load();
    let kept = 0;
    for (const tx of rows) {
      try {
        await this.submitTx(tx);
        kept++;
      } catch (e) {
        await this.pendingLog.drop([tx.hash]);
        this.log.info('pending transaction no longer valid after restart', { hash: tx.hash, why: (e as Error).message });
      }
    }
    if (rows.length) this.log.info('restored pending transactions', { kept, of: rows.length });
  }

  /** The consensus state at the head. */
  state(): ChainState {
    return this.runner.state(accountsProjection);
  }

  /**
   * Runs a pure step over `state` (the head's by default), loading the records it names when
   * its cache could not answer (node/recordLoader.ts). Writer only: inside `exclusive` or catch-up.
   */
  private loading<T>(attempt: () => T, state: ChainState = this.state()): Promise<T> {
    return withLoaded(state, () => this.runner.readable(accountsProjection), attempt);
  }

  /** The read side's ports over this node: what query objects are built from. */
  readPorts(): ReadPorts {
    return { chain: this, blocks: this.store, models: this.runner, mempool: this.mempool, evidence: this.evidence, feed: this };
  }

  /** The ports of the live-stream hub. */
  streamPorts(): StreamPorts {
    return { feed: this, chain: this, blocks: this.store, mempool: this.mempool, log: this.log };
  }

  /** The ports of the p2p network. */
  networkPorts(): NetworkPorts {
    return {
      chain: this,
      feed: this,
      blocks: this.store,
      log: this.log,
    };
  }

  /** The ports of the alert service: storage, the runner that drives its reactor, stored blocks. */
  alertPorts(): AlertPorts {
    return { store: this.store, runner: this.runner, blocks: (from, to) => this.store.range(from, to), height: () => this.tip.index };
  }

  /**
   * A copy of the consensus state as it was at block `ancestor`, from the undo log, without
   * moving any read model; null when the log does not reach that far.
   */
  private async consensusStateAt(ancestor: number): Promise<ChainState | null> {
    if (ancestor === 0) return cloneState(this.info.genesisState);
    const rows = await this.runner.rowsAt(accountsProjection, ancestor);
    return rows && stateWithRows(this.state(), rows);
  }

  /** The head block. */
  head(): Block {
    return this.tip;
  }

  /** Counts reorganisations (read caches of stored blocks key on it). */
  epoch(): number {
    return this.reorgs;
  }

  /** Height of the next block. */
  nextHeight(): number {
    return this.tip.index + 1;
  }

  /** Validates and admits a transaction to the mempool (the API's and gossip's entry point). */
  submitTx(raw: unknown, source: 'api' | 'gossip' = 'api'): Promise<SignedTx> {
    return this.exclusive(async () => {
      const { tx, left } = await this.loading(() => this.admit(raw));
      // Durable before acknowledged (a restart re-admits it); replaced and evicted ones leave in the same batch.
      await this.pendingLog.put(
        tx,
        left.map((t) => t.hash),
      );
      this.events$.next({ type: 'tx', tx, source });
      this.events$.next({ type: 'mempool', total: this.mempool.size });
      return tx;
    }).catch(async (e: unknown) => {
      // A stale nonce may be a transaction already in the chain: that is a duplicate.
      if (e instanceof ChainError && e.code === 'STALE_NONCE' && typeof (raw as SignedTx).hash === 'string') {
        if ((await (await this.runner.readable(txIndexProjection)).get((raw as SignedTx).hash)) !== undefined)
          throw new ChainError('DUPLICATE_TX', 'transaction already in the chain');
      }
      throw e;
    });
  }

  /**
   * Validates a transaction against the head and the mempool and adds it (no I/O). Returns it
   * with the transactions that left the pool for it (replaced by fee, or evicted).
   */
  private admit(raw: unknown): { tx: SignedTx; left: SignedTx[] } {
    // A replacement is validated against the sender's run before its nonce.
    const nonce = (raw as { nonce?: unknown } | null)?.nonce;
    const before = typeof nonce === 'number' ? nonce : Number.POSITIVE_INFINITY;
    // A read-only view: validation never writes, the overlay stays empty.
    const state = new StateOverlay(this.state());
    let tx: SignedTx;
    try {
      tx = validateTx(raw, {
        height: this.nextHeight(),
        timestamp: this.clock(),
        genesis: this.genesis,
        state,
        pending: (a) => this.mempool.pending(a, before),
        inMempool: (h) => this.mempool.has(h),
        uploadHashes: this.uploadHashes,
      });
    } catch (e) {
      // A refusal judged on a record the cache could not answer is no refusal: load, then judge.
      if (state.missing().size > 0) throw new RecordsNotLoaded(state.missing());
      // The upload hashes' bound on a sender's refused completions is this node's policy (gossip ignores it).
      if (e instanceof ChainError && e.code === 'RATE_LIMITED') throw new MempoolPolicyError(e.code, e.message);
      throw e;
    }
    if (state.missing().size > 0) throw new RecordsNotLoaded(state.missing());
    return { tx, left: this.mempool.add(tx, state.peek(tx.from).balance) };
  }

  /** Builds, signs and appends a block from the mempool at `timestamp`. */
  produce(key: KeyPair, timestamp: number): Promise<Block> {
    return this.exclusive(async () => {
      const candidates = this.mempool.candidates();
      const { block, applied, dropped } = await this.loading(() =>
        buildBlock(this.state(), refOf(this.tip), candidates, key, timestamp, this.genesis),
      );
      for (const d of dropped) this.log.warn('dropped pending transaction', { hash: d.tx.hash, code: d.error.code, why: d.error.message });
      await this.append([{ block, applied }], 'local');
      return block;
    }, 'produce');
  }

  /**
   * Switches to a better branch after block `ancestor`: validates it from the ancestor's state,
   * replaces the log's suffix in one batch, rebuilds the read models, returns the dropped blocks'
   * transactions to the mempool, and announces it on the feed (a reorg event, then the blocks).
   */
  reorg(ancestor: number, branch: Block[], expectedHead?: string): Promise<void> {
    return this.exclusive(async () => {
      const oldTip = this.tip;
      // The caller judged the branch against a head that has since moved: its verdict is stale.
      if (expectedHead !== undefined && oldTip.hash !== expectedHead)
        throw new HeadMovedError(`the head moved to ${oldTip.index} while the branch was fetched`);
      if (branch.length === 0 || !betterTip(branch[branch.length - 1], oldTip, this.genesis.blockTimeMs)) {
        throw new ChainError('INVALID_BLOCK', 'the branch is not better than the current chain');
      }
      if (!Number.isSafeInteger(ancestor) || ancestor < 0 || ancestor >= oldTip.index + 1)
        throw new ChainError('INVALID_BLOCK', `no common ancestor at ${ancestor}`);
      // Final blocks are never reorganised away.
      const finality = finalityDepthOf(this.genesis);
      if (oldTip.index - ancestor > finality)
        throw new ChainError(
          'INVALID_BLOCK',
          `the branch leaves the chain at ${ancestor}, more than ${finality} blocks below the head (final)`,
        );
      // Blocks of the branch that equivocate against ours are recorded. The branch still wins when
      // it is better: refusing it would split the network by who saw which block first.
      for (const b of branch) if (b.index <= oldTip.index) await this.noteCompetingBlock(b);
      const ancestorBlock = await this.store.storedBlock(ancestor);
      // The branch is validated on a copy of the ancestor's state first: an invalid branch moves
      // no read model, so the API never serves the ancestor's state for it.
      const before = await this.consensusStateAt(ancestor);
      // The copy loads what its cache lacks from rows at the head: rows the branch's blocks change
      // since the ancestor are in the copy already (from the undo log), the others are the same.
      if (before) await validateBranch(before, ancestorBlock, this.genesis, branch, this.clock(), (step) => this.loading(step, before));
      // Read models (the consensus state among them) step back to the ancestor through the undo
      // log; only a reorganisation deeper than the log rebuilds them from genesis.
      if (!(await this.runner.rollbackTo(ancestor))) {
        this.log.warn('reorganisation deeper than the undo log: rebuilding read models from genesis', { ancestor });
        await this.runner.resetAll();
        await this.runner.rewindReactors(ancestor);
        await this.catchUp(undefined, { to: ancestor });
      }
      if (!before) {
        try {
          const copy = cloneState(this.state());
          await validateBranch(copy, ancestorBlock, this.genesis, branch, this.clock(), (step) => this.loading(step, copy));
        } catch (e) {
          // An invalid branch changes nothing: fold the old blocks back from the log.
          await this.catchUp();
          throw e;
        }
      }
      const dropped = await this.store.blocksIn(ancestor + 1, oldTip.index);
      const kept = new Set(branch.flatMap((b) => b.transactions.map((t) => t.hash)));
      const orphans = dropped.flatMap((b) => b.transactions).filter((t) => !kept.has(t.hash));
      const pending = [...orphans, ...this.mempool.list()];
      // The dropped blocks' transactions enter the pending log in the batch that drops the blocks:
      // a kill -9 at any moment finds each in a block or pending (a restart re-validates them).
      await this.store.replaceSuffix(ancestor, branch, await this.pendingLog.rewriteOps(pending));
      // The log holds the new branch and the head moves before the announcement (the streams'
      // contract), then the branch's blocks follow as ordinary block events.
      this.tip = branch[branch.length - 1];
      this.reorgs++;
      this.events$.next({
        type: 'reorg',
        fromHeight: ancestor + 1,
        oldHead: { index: oldTip.index, hash: oldTip.hash },
        newHead: { index: this.tip.index, hash: this.tip.hash },
        dropped: dropped.map((b) => b.hash),
      });
      let parent = ancestorBlock;
      for (const b of branch) {
        const applied = await this.loading(() => applyBlock(this.state(), refOf(parent), b, this.genesis, { signaturesVerified: true }));
        await this.announce({ ...this.blockEvent(b, applied, false), source: 'peer' });
        parent = b;
      }
      this.mempool.clear();
      // Chunks the hashed runs took in may be gone or different on the new branch.
      this.uploadHashes.clear();
      let returned = 0;
      for (const tx of pending) {
        try {
          await this.loading(() => this.admit(tx));
          returned++;
        } catch {
          // No longer valid on the new chain (spent, or already included): dropped.
        }
      }
      // Those no longer valid on the new chain leave the log, again in one batch.
      await this.pendingLog.rewrite(this.mempool.list());
      this.log.warn('reorganised to a better chain', {
        ancestor,
        from: oldTip.index,
        to: this.tip.index,
        dropped: dropped.length,
        returnedTxs: returned,
      });
      this.events$.next({ type: 'mempool', total: this.mempool.size });
    });
  }

  /**
   * Looks at a block for a height this node already has: when it and ours are two blocks for one
   * slot attested by its authority, the pair is recorded as evidence (true). Never throws.
   */
  async noteCompetingBlock(raw: unknown): Promise<boolean> {
    const index = (raw as { index?: unknown } | null)?.index;
    if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 1 || index > this.tip.index) return false;
    const ours = await this.store.block(index);
    if (!ours || !equivocation(ours, raw, this.genesis.blockTimeMs)) return false;
    const theirs = raw as Block;
    const fresh = await this.evidence.record(ours, theirs, slotOf(ours.timestamp, this.genesis.blockTimeMs), this.clock());
    if (fresh)
      this.log.warn('equivocation: two blocks for one slot', {
        proposer: ours.proposer,
        height: index,
        ours: ours.hash,
        theirs: theirs.hash,
      });
    return true;
  }

  /** Validates a block from elsewhere (a peer, a snapshot) as the child of the head and appends it. */
  importBlock(raw: unknown, source: 'peer' | 'local' = 'peer', opts: { signaturesVerified?: boolean } = {}): Promise<Block> {
    return this.exclusive(async () => {
      const applied = await this.loading(() =>
        applyBlock(this.state(), refOf(this.tip), raw, this.genesis, {
          now: this.clock(),
          signaturesVerified: opts.signaturesVerified,
        }),
      );
      const block = raw as Block;
      await this.append([{ block, applied }], source);
      return block;
    }, 'import');
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
  ): Promise<Block[]> {
    return this.exclusive(async () => {
      // Blocks gossip brought in while these were fetched are ours already: skipped, not invalid.
      let first = 0;
      while (first < raws.length && (await this.holds(raws[first]))) first++;
      const next = (raws[first] as { index?: unknown } | undefined)?.index;
      if (typeof next === 'number' && next <= this.tip.index)
        throw new HeadMovedError(`the chain holds another block at ${next} (head ${this.tip.index}) than the one fetched`);
      const pending = new StateOverlay(this.state());
      const done: { block: Block; applied: Applied }[] = [];
      let parent = this.tip;
      let failure: unknown = null;
      for (let i = first; i < raws.length; i++) {
        try {
          const applied = await this.loading(() =>
            applyBlock(pending, refOf(parent), raws[i], this.genesis, {
              now: this.clock(),
              signaturesVerified: verified[i],
              txBytes: txBytes[i],
            }),
          );
          pending.absorb(applied.diff);
          parent = raws[i] as Block;
          done.push({ block: parent, applied });
        } catch (e) {
          failure = e;
          break;
        }
      }
      if (done.length) await this.append(done, 'peer');
      if (failure) throw failure;
      return done.map((d) => d.block);
    }, 'import');
  }

  /** True when `raw` is the block this chain already holds at its height. */
  private async holds(raw: unknown): Promise<boolean> {
    const b = raw as { index?: unknown; hash?: unknown } | null;
    if (typeof b?.index !== 'number' || b.index > this.tip.index || typeof b.hash !== 'string') return false;
    return (await this.store.block(b.index))?.hash === b.hash;
  }

  private async append(blocks: readonly { block: Block; applied: Applied }[], source: 'local' | 'peer'): Promise<void> {
    if (this.closed) throw new Error('node is closed');
    await this.store.appendMany(blocks.map((b) => b.block));
    // Durable first, then announced in order: each event's balances are read off the state the
    // previous one left.
    for (const { block, applied } of blocks) {
      this.tip = block;
      await this.announce({ ...this.blockEvent(block, applied, false), source });
    }
    const block = this.tip;
    const ctx = { height: block.index + 1, timestamp: this.clock(), genesis: this.genesis };
    const removed: SignedTx[] = [];
    const dropped: { tx: SignedTx; error: ChainError }[] = [];
    // Runs judged on records the cache lacked stay as they were until those are loaded.
    await this.loading(() => {
      const r = this.mempool.revalidate(this.state(), ctx);
      removed.push(...r.removed);
      dropped.push(...r.dropped);
      if (r.misses.size > 0) throw new RecordsNotLoaded(r.misses);
    });
    for (const d of dropped) this.log.warn('dropped pending transaction', { hash: d.tx.hash, code: d.error.code, why: d.error.message });
    const gone = [...removed, ...dropped.map((d) => d.tx)];
    await this.pendingLog.drop(gone.map((t) => t.hash));
    this.events$.next({ type: 'mempool', total: this.mempool.size });
  }

  /** A block event onto the feed, once the read models hold the rows they need to fold it. */
  private async announce(ev: BlockEvent): Promise<void> {
    await this.runner.prepare(ev);
    this.events$.next(ev);
  }

  private blockEvent(block: Block, applied: Applied, replay: boolean): BlockEvent {
    const state = this.state();
    const balances: BalanceChange[] = [];
    for (const [address, a] of applied.diff.accounts) {
      const before = state.accounts.get(address)?.balance ?? 0n;
      if (before !== a.balance) balances.push({ address, before, after: a.balance });
    }
    return {
      type: 'block',
      block,
      txs: block.transactions.map(stateTx),
      diff: applied.diff,
      balances,
      emitted: applied.diff.supply.emitted - state.supply.emitted,
      replay,
      ...(replay ? { source: 'replay' as const } : {}),
    };
  }

  /**
   * Runs write-side work one at a time; block work is timed for `onBlockWork` (the wait for its
   * turn is not counted) and its outcome recorded for health.
   */
  private exclusive<T>(fn: () => Promise<T>, work?: 'import' | 'produce'): Promise<T> {
    const observe = this.onBlockWork;
    const timed = work
      ? async () => {
          const started = performance.now();
          const kind = work === 'produce' ? 'production' : 'import';
          try {
            const out = await fn();
            observe?.(work, (performance.now() - started) / 1000);
            this.healthMonitor.record(kind);
            return out;
          } catch (e) {
            observe?.(work, (performance.now() - started) / 1000, e);
            this.healthMonitor.record(kind, e);
            throw e;
          }
        }
      : fn;
    const run = this.queue.then(timed, timed);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** `ok`, or `degraded` while block production or import keeps failing. */
  health(): NodeHealth {
    return this.healthMonitor.health();
  }

  /** Flushes projections and closes the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.exclusive(async () => {
      this.closed = true;
    });
    this.events$.complete();
    await this.runner.stop();
    await this.store.close();
  }
}

/** The parent reference of a block. */
export function refOf(b: Block): ParentRef {
  return { index: b.index, hash: b.hash, timestamp: b.timestamp, stateRoot: b.stateRoot };
}
