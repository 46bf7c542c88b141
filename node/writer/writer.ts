/**
 * The writer's shared state: the head, the one write queue, the consensus state and the stores
 * that the role files (catch-up, import, submit, reorg) work on. Only node/ sees it; `OmbraNode`
 * is its façade. The writer validates, appends each block to the log in one batch, then emits on
 * `events$`; projections, streams and the mempool react to that feed.
 */
import { Subject } from 'rxjs';
import type { Applied, ParentRef } from '../../core/applyBlock.ts';
import type { Block } from '../../core/block.ts';
import { finalityDepthOf, type Genesis } from '../../core/genesis.ts';
import type { ChainState } from '../../core/state.ts';
import { StateOverlay } from '../../core/stateOverlay.ts';
import { stateTx } from '../../core/txCodec.ts';
import { UploadHashes } from '../../core/uploadHashes.ts';
import { accountsProjection } from '../../projections/accounts.ts';
import type { BalanceChange, BlockEvent, ChainEvent, ChainInfo } from '../../projections/events.ts';
import { PROJECTIONS } from '../../projections/index.ts';
import { ProjectionRunner } from '../../projections/runner.ts';
import type { ChainStore } from '../store/chainStore.ts';
import { EvidenceStore } from './evidence.ts';
import { ReorgJournal } from './reorgJournal.ts';
import { HealthMonitor } from '../healthMonitor.ts';
import { silentLogger, type Logger } from '../log.ts';
import { Mempool } from '../mempool/mempool.ts';
import type { NodeOptions, OpenedChain } from '../store/openChain.ts';
import { PendingLog } from '../mempool/pendingLog.ts';
import { prefetchAccounts, withLoaded, withLoadedNow } from './recordLoader.ts';
import { WriteQueue, type BlockWork } from './writeQueue.ts';

/** The one writer's state and primitives. */
export class Writer {
  readonly store: ChainStore;
  readonly genesis: Genesis;
  readonly info: ChainInfo;
  readonly log: Logger;
  readonly clock: () => number;
  readonly mempool: Mempool;
  /** Admission's incremental hashes of pending uploads (completion checks cost the chunks since the last one). */
  readonly uploadHashes = new UploadHashes();
  /** Outcomes of block production and import, for health. */
  readonly healthMonitor: HealthMonitor;
  readonly runner: ProjectionRunner;
  /** Node-local copy of the mempool (not chain state), so acknowledged transactions survive restarts. */
  readonly pendingLog: PendingLog;
  /** Equivocations seen (node-local): the second block of a slot is never built upon. */
  readonly evidence: EvidenceStore;
  /** Reorganisations made (node-local): what a stream resuming from a replaced block is told. */
  readonly reorgJournal: ReorgJournal;
  readonly events$ = new Subject<ChainEvent>();
  /** The head block: moved only by an append or a reorganisation, inside the queue. */
  tip: Block;
  /** Reorganisations so far (read caches of stored blocks key on it). */
  reorgs = 0;
  closed = false;
  /** Blocks the last catch-up re-folded (0 after a clean restart: saved positions were current). */
  lastCatchUp = { from: 0, to: 0, blocks: 0 };
  private readonly queue: WriteQueue;

  constructor({ store, genesis, info, tip }: OpenedChain, opts: NodeOptions) {
    this.store = store;
    this.genesis = genesis;
    this.info = info;
    this.tip = tip;
    this.log = opts.log ?? silentLogger;
    this.clock = opts.clock ?? Date.now;
    this.mempool = new Mempool(opts.mempool);
    this.healthMonitor = new HealthMonitor(this.clock, opts.health);
    // Undo reaches as deep as a reorganisation may (the finality depth) unless told otherwise.
    this.runner = new ProjectionRunner(store, PROJECTIONS, info, opts.undoDepth ?? finalityDepthOf(genesis));
    this.pendingLog = new PendingLog(store.sublevel('local:mempool'));
    this.evidence = new EvidenceStore(store.sublevel('local:evidence'));
    this.reorgJournal = new ReorgJournal(store.sublevel('local:reorgs'));
    this.queue = new WriteQueue(this.healthMonitor, opts.onBlockWork);
    // The one line an operator needs: every later write is refused quietly (node/store/storageFence.ts).
    store.fence.onTrip = (f) =>
      this.log.error('data dir full: writes stopped', {
        dataDir: f.dataDir,
        cause: f.cause,
        error: f.error,
        fix: 'free space: the node reopens its store once its disk takes writes',
      });
  }

  /** The consensus state at the head. */
  state(): ChainState {
    return this.runner.state(accountsProjection);
  }

  /**
   * Runs a pure step over `state` (the head's by default), loading the records it names when
   * its cache could not answer (node/writer/recordLoader.ts). Writer only: inside `exclusive` or catch-up.
   */
  loading<T>(attempt: () => T, state: ChainState = this.state()): Promise<T> {
    return withLoaded(state, (keys) => this.runner.rowsNow(accountsProjection, keys), attempt);
  }

  /** `loading`, answering at once when nothing was missing (node/writer/recordLoader.ts `withLoadedNow`). */
  loadingNow<T>(attempt: () => T, state: ChainState = this.state()): T | Promise<T> {
    return withLoadedNow(state, (keys) => this.runner.rowsNow(accountsProjection, keys), attempt);
  }

  /**
   * Loads the accounts a block to be applied names that `state`'s cache lacks (node/writer/recordLoader.ts);
   * undefined when it lacks none. Writer only.
   */
  prefetch(raw: unknown, state: ChainState = this.state()): Promise<void> | undefined {
    return prefetchAccounts(state, raw, (keys) => this.runner.rowsNow(accountsProjection, keys));
  }

  /**
   * Runs write-side work one at a time; block work is timed for `onBlockWork` (the wait for its
   * turn is not counted) and its outcome recorded for health.
   */
  exclusive<T>(fn: () => Promise<T>, work?: BlockWork): Promise<T> {
    return this.queue.run(fn, work);
  }

  /**
   * A block event onto the feed, once the read models hold the rows they need to fold it: at
   * once (undefined) when they need none, else once they are read.
   */
  announce(ev: BlockEvent): Promise<void> | undefined {
    const preparing = this.runner.prepare(ev);
    if (preparing) return preparing.then(() => this.events$.next(ev));
    this.events$.next(ev);
    return undefined;
  }

  /**
   * The event of `block`, its balance changes read off the state before it: `before`, the head's
   * state unless the block follows others not yet committed (then an overlay holding their diffs).
   * Called before anything is committed after the block was applied: every account it changed is
   * then in the cache (or known absent).
   */
  blockEvent(block: Block, applied: Applied, replay: boolean, before = new StateOverlay(this.state())): BlockEvent {
    const balances: BalanceChange[] = [];
    for (const [address, a] of applied.diff.accounts) {
      const was = before.peek(address).balance;
      if (was !== a.balance) balances.push({ address, before: was, after: a.balance });
    }
    if (before.missing().size > 0) throw new Error(`balance changes read accounts the cache lost: ${[...before.missing()].slice(0, 3)}`);
    return {
      type: 'block',
      block,
      // Application computed them already (applyBlock's `txs`); a produced block's are made here.
      txs: applied.txs ?? block.transactions.map(stateTx),
      diff: applied.diff,
      balances,
      emitted: applied.diff.supply.emitted - before.supply.emitted,
      replay,
      ...(replay ? { source: 'replay' as const } : {}),
    };
  }
}

/** The parent reference of a block. */
export function refOf(b: Block): ParentRef {
  return { index: b.index, hash: b.hash, timestamp: b.timestamp, stateRoot: b.stateRoot };
}
