/**
 * The node: the one writer. It validates, appends each block to the log in one batch, then
 * emits on `events$`; projections, streams and the mempool react to that feed.
 */
import { Subject } from 'rxjs';
import { applyBlock, buildBlock, genesisState, type Applied, type ParentRef } from '../core/applyBlock.ts';
import type { Block } from '../core/block.ts';
import { ChainError } from '../core/errors.ts';
import { withForkOverrides, type ForkHeights, type Genesis } from '../core/genesis.ts';
import type { KeyPair } from '../core/keys.ts';
import { cloneState, StateOverlay, type ChainState } from '../core/state.ts';
import type { SignedTx } from '../core/tx/handler.ts';
import { validateTx } from '../core/validateTx.ts';
import type { BalanceChange, BlockEvent, ChainEvent, ChainInfo } from '../projections/events.ts';
import { PROJECTIONS } from '../projections/index.ts';
import { ProjectionRunner } from '../projections/runner.ts';
import { ChainStore } from './chainStore.ts';
import { silentLogger, type Logger } from './log.ts';
import { Mempool, type MempoolOptions } from './mempool.ts';
import { genesisMismatch } from './genesisCheck.ts';
import { VerifyPool } from './verifyPool.ts';
import { betterTip, validateBranch } from './reorg.ts';

/** Blocks per verification chunk during catch-up. */
const CATCH_UP_CHUNK = 50;

/** Groups an async stream of blocks into arrays of `size`. */
async function* chunksOf(blocks: AsyncIterable<Block>, size: number): AsyncGenerator<Block[]> {
  let chunk: Block[] = [];
  for await (const b of blocks) {
    chunk.push(b);
    if (chunk.length >= size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length) yield chunk;
}

/** Heights of the blocks in `blocks` that carry a transaction whose signature fails. */
async function badTxBlocks(pool: VerifyPool, blocks: Block[]): Promise<Set<number>> {
  const txs = blocks.flatMap((b) => (Array.isArray(b.transactions) ? b.transactions : []));
  const owner = blocks.flatMap((b) => (Array.isArray(b.transactions) ? b.transactions.map(() => b.index) : []));
  return new Set((await pool.verifyTxs(txs)).map((i) => owner[i]));
}

/** How to open a node. */
export interface NodeOptions {
  /** LevelDB directory. */
  dbDir: string;
  /** The genesis file's content; required for a new data dir, checked against an existing one. */
  genesis?: Genesis;
  /** Operator fork-height overrides (OMBRA_FORK_HEIGHT...). */
  forkOverrides?: Partial<ForkHeights>;
  mempool?: Partial<MempoolOptions>;
  clock?: () => number;
  log?: Logger;
  /** Blocks back from the head whose undo records are kept for reorganisations (default 128). */
  undoDepth?: number;
  /** Progress callback while catching projections up from the log. */
  onCatchUp?: (height: number, head: number) => void;
  /** Observer of block work (metrics): seconds each import or production took, or its error. */
  onBlockWork?: (kind: 'import' | 'produce', seconds: number, error?: unknown) => void;
}

/** The running node's core: log, state, mempool, projections and the event feed. */
export class OmbraNode {
  readonly store: ChainStore;
  readonly runner: ProjectionRunner;
  readonly mempool: Mempool;
  readonly genesis: Genesis;
  readonly info: ChainInfo;
  readonly events$ = new Subject<ChainEvent>();
  readonly log: Logger;
  readonly clock: () => number;
  private tip: Block;
  /** Blocks the last catch-up re-folded (0 after a clean restart: checkpoints were current). */
  lastCatchUp = { from: 0, to: 0, blocks: 0 };
  /** Node-local copy of the mempool (not chain state), so acknowledged transactions survive restarts. */
  private readonly pendingRows: ReturnType<ChainStore['sublevel']>;
  private pendingSeq = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly onBlockWork: NodeOptions['onBlockWork'];

  private constructor(store: ChainStore, genesis: Genesis, info: ChainInfo, tip: Block, opts: NodeOptions) {
    this.store = store;
    this.genesis = genesis;
    this.info = info;
    this.tip = tip;
    this.log = opts.log ?? silentLogger;
    this.clock = opts.clock ?? Date.now;
    this.mempool = new Mempool(opts.mempool);
    this.runner = new ProjectionRunner(store, PROJECTIONS, info, opts.undoDepth);
    this.pendingRows = store.sublevel('local:mempool');
    this.onBlockWork = opts.onBlockWork;
  }

  /** Opens the data dir, writes genesis if new, and catches every projection up to the head. */
  static async open(opts: NodeOptions): Promise<OmbraNode> {
    const store = await ChainStore.open(opts.dbDir);
    try {
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
      const head = store.head()!;
      const tip = (await store.block(head.index))!;
      const node = new OmbraNode(store, genesis, { genesis, genesisBlock: block, genesisState: state }, tip, opts);
      await node.catchUp(opts.onCatchUp);
      node.runner.attach(node.events$);
      await node.restorePending();
      return node;
    } catch (e) {
      await store.close();
      throw e;
    }
  }

  /** Replays the log into projections behind the head (all of them after `resetAll`). */
  async catchUp(
    onProgress?: (height: number, head: number) => void,
    opts: { verifySignatures?: boolean; to?: number } = {},
  ): Promise<void> {
    await this.runner.load();
    // Diffs come from re-executing blocks on the consensus state, so it must start no later
    // than the lowest projection.
    if (this.runner.minHeight() < this.runner.height('accounts')) await this.runner.resetOne('accounts');
    const from = this.runner.minHeight();
    const head = Math.min(this.store.head()!.index, opts.to ?? Infinity);
    let parent = (await this.store.block(from))!;
    // With verification, workers check chunk k+1's signatures while chunk k is applied.
    const pool = opts.verifySignatures ? new VerifyPool() : null;
    try {
      const chunks = chunksOf(this.store.range(from + 1, head), CATCH_UP_CHUNK);
      const verify = (blocks: Block[] | undefined) => (blocks && pool ? badTxBlocks(pool, blocks) : Promise.resolve(new Set<number>()));
      let current = (await chunks.next()).value as Block[] | undefined;
      let verifying = verify(current);
      while (current) {
        const next = (await chunks.next()).value as Block[] | undefined;
        const nextVerifying = verify(next);
        const bad = await verifying;
        for (const block of current) {
          // A block with a failing signature is re-checked in full to report the exact fault.
          const verified = !pool || !bad.has(block.index);
          const applied = applyBlock(this.state(), refOf(parent), block, this.genesis, { signaturesVerified: verified });
          this.runner.fold(this.blockEvent(block, applied, true));
          parent = block;
          if (block.index % 1000 === 0) await this.runner.flush();
        }
        onProgress?.(parent.index, head);
        current = next;
        verifying = nextVerifying;
      }
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
    const rows: { seq: number; tx: SignedTx }[] = [];
    for await (const v of this.pendingRows.values()) rows.push(v as { seq: number; tx: SignedTx });
    rows.sort((a, b) => a.seq - b.seq);
    let kept = 0;
    for (const { tx } of rows) {
      try {
        await this.submitTx(tx);
        kept++;
      } catch (e) {
        await this.pendingRows.del(tx.hash);
        this.log.info('pending transaction no longer valid after restart', { hash: tx.hash, why: (e as Error).message });
      }
    }
    if (rows.length) this.log.info('restored pending transactions', { kept, of: rows.length });
  }

  /** The consensus state at the head. */
  state(): ChainState {
    return this.runner.state<ChainState>('accounts');
  }

  /** The head block. */
  head(): Block {
    return this.tip;
  }

  /** Height of the next block. */
  nextHeight(): number {
    return this.tip.index + 1;
  }

  /** Validates and admits a transaction to the mempool (the API's and gossip's entry point). */
  submitTx(raw: unknown, source: 'api' | 'gossip' = 'api'): Promise<SignedTx> {
    return this.exclusive(async () => {
      const tx = this.admit(raw);
      // Durable before acknowledged: a restart re-admits it.
      await this.pendingRows.put(tx.hash, { seq: this.pendingSeq++, tx });
      this.events$.next({ type: 'tx', tx, source });
      this.events$.next({ type: 'mempool', total: this.mempool.size });
      return tx;
    }).catch(async (e: unknown) => {
      // A stale nonce may be a transaction already in the chain: that is a duplicate.
      if (e instanceof ChainError && e.code === 'STALE_NONCE' && typeof (raw as SignedTx).hash === 'string') {
        if ((await (await this.runner.readable('txIndex')).get((raw as SignedTx).hash)) !== undefined)
          throw new ChainError('DUPLICATE_TX', 'transaction already in the chain');
      }
      throw e;
    });
  }

  /** Validates a transaction against the head and the mempool and adds it (no I/O). */
  private admit(raw: unknown): SignedTx {
    const tx = validateTx(raw, {
      height: this.nextHeight(),
      timestamp: this.clock(),
      genesis: this.genesis,
      // A read-only view: validation never writes, the overlay stays empty.
      state: new StateOverlay(this.state()),
      pending: (a) => this.mempool.pending(a),
      inMempool: (h) => this.mempool.has(h),
    });
    this.mempool.add(tx);
    return tx;
  }

  /** Builds, signs and appends a block from the mempool at `timestamp`. */
  produce(key: KeyPair, timestamp: number): Promise<Block> {
    return this.exclusive(async () => {
      const { block, applied, dropped } = buildBlock(
        this.state(),
        refOf(this.tip),
        this.mempool.candidates(),
        key,
        timestamp,
        this.genesis,
      );
      for (const d of dropped) this.log.warn('dropped pending transaction', { hash: d.tx.hash, code: d.error.code, why: d.error.message });
      await this.append(block, applied, 'local');
      return block;
    }, 'produce');
  }

  /**
   * Switches to a better branch after block `ancestor`: validates it from the ancestor's state,
   * replaces the log's suffix in one batch, rebuilds the read models, returns the dropped blocks'
   * transactions to the mempool, and announces it on the feed (a reorg event, then the blocks).
   */
  reorg(ancestor: number, branch: Block[]): Promise<void> {
    return this.exclusive(async () => {
      const oldTip = this.tip;
      if (branch.length === 0 || !betterTip(branch[branch.length - 1], oldTip, this.genesis.blockTimeMs)) {
        throw new ChainError('INVALID_BLOCK', 'the branch is not better than the current chain');
      }
      if (!Number.isSafeInteger(ancestor) || ancestor < 0 || ancestor >= oldTip.index + 1)
        throw new ChainError('INVALID_BLOCK', `no common ancestor at ${ancestor}`);
      // Read models (the consensus state among them) step back to the ancestor through the undo
      // log; only a reorganisation deeper than the log rebuilds them from genesis.
      if (!(await this.runner.rollbackTo(ancestor))) {
        this.log.warn('reorganisation deeper than the undo log: rebuilding read models from genesis', { ancestor });
        await this.runner.resetAll();
        await this.catchUp(undefined, { to: ancestor });
      }
      const ancestorBlock = (await this.store.block(ancestor))!;
      try {
        validateBranch(cloneState(this.state()), ancestorBlock, this.genesis, branch, this.clock());
      } catch (e) {
        // An invalid branch changes nothing: fold the old blocks back from the log.
        await this.catchUp();
        throw e;
      }
      const dropped = await this.store.blocksIn(ancestor + 1, oldTip.index);
      await this.store.replaceSuffix(ancestor, branch);
      // The log holds the new branch and the head moves before the announcement (the streams'
      // contract), then the branch's blocks follow as ordinary block events.
      this.tip = branch[branch.length - 1];
      this.events$.next({
        type: 'reorg',
        fromHeight: ancestor + 1,
        oldHead: { index: oldTip.index, hash: oldTip.hash },
        newHead: { index: this.tip.index, hash: this.tip.hash },
        dropped: dropped.map((b) => b.hash),
      });
      let parent = ancestorBlock;
      for (const b of branch) {
        const applied = applyBlock(this.state(), refOf(parent), b, this.genesis, { signaturesVerified: true });
        this.events$.next({ ...this.blockEvent(b, applied, false), source: 'peer' });
        parent = b;
      }
      const kept = new Set(branch.flatMap((b) => b.transactions.map((t) => t.hash)));
      const orphans = dropped.flatMap((b) => b.transactions).filter((t) => !kept.has(t.hash));
      const pending = [...orphans, ...this.mempool.list()];
      this.mempool.clear();
      await this.pendingRows.clear();
      let returned = 0;
      for (const tx of pending) {
        try {
          this.admit(tx);
          returned++;
        } catch {
          // No longer valid on the new chain (spent, or already included): dropped.
        }
      }
      await this.pendingRows.batch(this.mempool.list().map((tx, seq) => ({ type: 'put' as const, key: tx.hash, value: { seq, tx } })));
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

  /** Validates a block from elsewhere (a peer, a snapshot) as the child of the head and appends it. */
  importBlock(raw: unknown, source: 'peer' | 'local' = 'peer'): Promise<Block> {
    return this.exclusive(async () => {
      const applied = applyBlock(this.state(), refOf(this.tip), raw, this.genesis, { now: this.clock() });
      const block = raw as Block;
      await this.append(block, applied, source);
      return block;
    }, 'import');
  }

  private async append(block: Block, applied: Applied, source: 'local' | 'peer'): Promise<void> {
    if (this.closed) throw new Error('node is closed');
    await this.store.append(block);
    this.tip = block;
    this.events$.next({ ...this.blockEvent(block, applied, false), source });
    const { removed, dropped } = this.mempool.revalidate(this.state(), {
      height: block.index + 1,
      timestamp: this.clock(),
      genesis: this.genesis,
    });
    for (const d of dropped) this.log.warn('dropped pending transaction', { hash: d.tx.hash, code: d.error.code, why: d.error.message });
    const gone = [...removed, ...dropped.map((d) => d.tx)];
    if (gone.length) await this.pendingRows.batch(gone.map((t) => ({ type: 'del' as const, key: t.hash })));
    this.events$.next({ type: 'mempool', total: this.mempool.size });
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
      diff: applied.diff,
      balances,
      emitted: applied.diff.supply.emitted - state.supply.emitted,
      replay,
      ...(replay ? { source: 'replay' as const } : {}),
    };
  }

  /** Runs write-side work one at a time; block work is timed for `onBlockWork` (the wait for its turn is not counted). */
  private exclusive<T>(fn: () => Promise<T>, work?: 'import' | 'produce'): Promise<T> {
    const observe = work && this.onBlockWork;
    const timed = observe
      ? async () => {
          const started = performance.now();
          try {
            const out = await fn();
            observe(work, (performance.now() - started) / 1000);
            return out;
          } catch (e) {
            observe(work, (performance.now() - started) / 1000, e);
            throw e;
          }
        }
      : fn;
    const run = this.queue.then(timed, timed);
    this.queue = run.catch(() => undefined);
    return run;
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
