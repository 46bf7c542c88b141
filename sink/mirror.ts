/**
 * The mirror's one moving part: the folded state (FoldState) and the database (SinkDb) kept at the
 * same block. `resume` lines the state up with the committed cursor (and finds the common ancestor
 * when the node's chain moved away from it), starting from the state saved in the database when
 * there is one; `syncTo` folds the node's blocks up to a height and commits them in batches, each
 * with its cursor.
 */
import type { OmbraClient } from '../client/reads.ts';
import type { Block } from '../core/block.ts';
import { finalityDepthOf, type Genesis } from '../core/genesis.ts';
import { addBlockRows, emptyRows, type Rows } from './blockRows.ts';
import { blockFeed } from './blockFeed.ts';
import { commonAncestor } from './commonAncestor.ts';
import { FoldState } from './foldState.ts';
import { loadState, type StateRows, stateRows } from './savedState.ts';
import type { CommitOptions, Cursor, SinkDb } from './sinkDb.ts';
import { SinkError } from './sinkError.ts';
import type { SinkMetrics } from './sinkMetrics.ts';
import type { SinkOptions } from './sinkOptions.ts';

/** The first batch of a range commits after this many transactions or blocks; each next one doubles, up to the options'. */
const FIRST_BATCH_TXS = 5_000;
const FIRST_BATCH_BLOCKS = 50;

/** The chain the mirror follows. */
export interface ChainId {
  genesis: Genesis;
  genesisHash: string;
}

/** State and database, at the same block once `resume` returned. */
export class Mirror {
  private fold: FoldState;
  /** A rewind the next commit must do first (the rows above this height left the chain). */
  private rewindAbove: number | undefined;
  /** An empty mirror: the next commit starts with block 0 (or the `--from-height` baseline). */
  private fresh = false;
  /** The secondary indexes are dropped (a backfill into an empty mirror): the range's last commit builds them. */
  private deferred = false;

  private readonly client: OmbraClient;
  private readonly chain: ChainId;
  private readonly opts: SinkOptions;
  private readonly metrics: SinkMetrics;

  constructor(client: OmbraClient, chain: ChainId, opts: SinkOptions, metrics: SinkMetrics) {
    this.client = client;
    this.chain = chain;
    this.opts = opts;
    this.metrics = metrics;
    this.fold = this.newFold();
  }

  private undoDepth(): number {
    return finalityDepthOf(this.chain.genesis) + this.opts.batchBlocks + 16;
  }

  private newFold(): FoldState {
    return new FoldState(this.chain.genesis, this.undoDepth());
  }

  /** The height whose rows are committed (once resumed: the state's head). */
  get height(): number {
    return this.fold.head.index;
  }

  /** Lines the state up with `db`'s cursor; refuses another chain's database. */
  async resume(db: SinkDb): Promise<void> {
    const cursor = await db.cursor();
    if (cursor && cursor.genesisHash !== this.chain.genesisHash)
      throw new SinkError(
        'OTHER_CHAIN',
        `schema ${this.opts.schema} mirrors another chain (${cursor.chainId}, genesis ${cursor.genesisHash.slice(0, 16)}...); the node runs ${this.chain.genesis.chainId} (genesis ${this.chain.genesisHash.slice(0, 16)}...): use another --schema or database`,
      );
    this.rewindAbove = undefined;
    this.deferred = (await db.deferredIndexes()) > 0;
    if (!cursor) {
      this.fresh = true;
      await this.foldTo(Math.max(0, (this.opts.fromHeight ?? 0) - 1), db);
      return;
    }
    this.fresh = false;
    const ancestor = await commonAncestor(this.client, db, cursor, this.opts.schema);
    await this.foldTo(ancestor, db);
    if (ancestor < cursor.height) {
      this.rewindAbove = ancestor;
      this.opts.log(`the node's chain left the mirror above height ${ancestor}: its rows will be replaced`);
    }
    this.metrics.height.set(ancestor);
  }

  /**
   * Folds (without writing) up to `height`: back through the undo entries, else from the state
   * saved in `db` when that is further on than the fold, then forward from the node.
   */
  private async foldTo(height: number, db: SinkDb): Promise<void> {
    if (this.fold.head.index > height && !this.fold.revertTo(height)) this.fold = this.newFold();
    if (this.fold.head.index >= height) return;
    const wanted = { above: this.fold.head.index, atMost: height };
    const image = await loadState(db.raw, this.opts.schema, wanted, async (h) => (await db.blockHashes(h, h)).get(h));
    if (image) {
      this.fold = new FoldState(this.chain.genesis, this.undoDepth(), image);
      this.metrics.stateHeight.set(image.head.index);
      this.opts.log(`state loaded as saved at height ${image.head.index}`);
    }
    const start = this.fold.head.index;
    for await (const blocks of blockFeed(this.client, start + 1, height)) {
      for (const b of blocks) this.fold.apply(b);
      this.opts.onProgress?.('fold', this.fold.head.index - start, height - start);
    }
  }

  /** The rows that save the folded state: call between two `syncTo`s (the state is then the committed cursor's). */
  stateRows(): StateRows {
    return stateRows(this.fold);
  }

  /** A save of the state failed: the next one writes every entry. */
  stateSaveFailed(): void {
    this.fold.changedAll();
  }

  /**
   * Folds and commits the node's blocks up to `target`, `batch` blocks and transactions at most
   * per transaction, or until `stop()` says so after a commit. Returns the blocks folded. After a failure the state may be ahead of the
   * database: call `resume` before the next `syncTo`.
   */
  async syncTo(db: SinkDb, target: number, stop: () => boolean, onCommit?: (last: Block) => void): Promise<number> {
    const start = this.fold.head.index;
    let rows = this.startRows();
    let last: Block | undefined;
    let blocks = 0;
    // The first commit comes early (PostgreSQL idles until it starts); batches then double in size.
    let limitTxs = Math.min(this.opts.batchTxs, FIRST_BATCH_TXS);
    let limitBlocks = Math.min(this.opts.batchBlocks, FIRST_BATCH_BLOCKS);
    // One commit in flight while the next batch folds: PostgreSQL ingests while this thread works.
    let inflight: Promise<void> = Promise.resolve();
    const commitOf = async (batch: Rows, lastOf: Block | undefined, head: { index: number; hash: string }, opts: CommitOptions) => {
      const t0 = performance.now();
      await db.commit(batch, this.cursorAt(head.index, head.hash), opts);
      if (opts.indexes === 'defer') this.opts.log('secondary indexes dropped for the backfill into an empty mirror');
      if (opts.indexes === 'restore')
        this.opts.log(
          `secondary indexes built at height ${head.index} (${((performance.now() - t0) / 1000).toFixed(1)} s with the last batch)`,
        );
      if (opts.rewindAbove !== undefined) this.metrics.reorgs.inc();
      for (const t of ['blocks', 'transactions', 'transfers', 'balance_changes', 'record_versions'] as const)
        this.metrics.rows.inc({ table: t }, batch[t].length);
      this.metrics.rows.inc({ table: 'accounts' }, batch.accounts.size);
      this.metrics.height.set(head.index);
      if (lastOf) {
        this.metrics.lagSeconds.set(Math.max(0, (Date.now() - lastOf.timestamp) / 1000));
        onCommit?.(lastOf);
      }
    };
    /** Commits what is folded; `final` at the end of the range (deferred indexes are built then). */
    const flush = async (final: boolean) => {
      await inflight;
      const restore = final && this.deferred;
      if (!last && this.rewindAbove === undefined && !this.fresh && !restore) return;
      const { index, hash } = this.fold.head;
      // An empty mirror that takes more than one batch loads without its secondary indexes.
      const indexes = restore ? 'restore' : this.fresh && !final ? 'defer' : undefined;
      inflight = commitOf(rows, last, { index, hash }, { rewindAbove: this.rewindAbove, indexes });
      // Its failure surfaces at the next await of `inflight`; never as an unhandled rejection.
      inflight.catch(() => undefined);
      if (indexes === 'defer') this.deferred = true;
      if (indexes === 'restore') this.deferred = false;
      this.rewindAbove = undefined;
      this.fresh = false;
      rows = emptyRows();
      last = undefined;
    };
    // The COPY of the commit in flight is fed by this thread: folding a whole range answer (a
    // hundred blocks) without a turn of the event loop would leave PostgreSQL idle meanwhile.
    let turn = performance.now();
    try {
      for await (const chunk of blockFeed(this.client, start + 1, target)) {
        for (const b of chunk) {
          if (performance.now() - turn > 5) {
            await new Promise((r) => setImmediate(r));
            turn = performance.now();
          }
          if (b.index === this.fold.head.index + 1 && b.previousHash !== this.fold.head.hash)
            throw new SinkError(
              'CHAIN_MOVED',
              `block ${b.index} does not follow the mirror's block ${this.fold.head.index}: the chain reorganised`,
            );
          const folded = this.fold.apply(b);
          addBlockRows(rows, b, folded.diff, folded.before);
          last = b;
          blocks++;
          if ((rows.txCount >= limitTxs || rows.blocks.length >= limitBlocks) && b.index < target) {
            await flush(false);
            limitTxs = Math.min(this.opts.batchTxs, limitTxs * 2);
            limitBlocks = Math.min(this.opts.batchBlocks, limitBlocks * 2);
            if (stop()) {
              await inflight;
              return blocks;
            }
          }
        }
        // Live blocks come one or two at a time: a bar is for backfills.
        if (target - start >= 100) this.opts.onProgress?.('backfill', this.fold.head.index - start, target - start);
      }
      await flush(true);
    } catch (e) {
      // Nothing is left running on the connection when the caller resumes.
      await inflight.catch(() => undefined);
      throw e;
    }
    await inflight;
    return blocks;
  }

  /** Rows of the next commit: block 0's (genesis allocations), or a `--from-height` baseline of every balance. */
  private startRows(): Rows {
    const rows = emptyRows();
    if (!this.fresh) return rows;
    if (this.fold.head.index === 0 && !this.opts.fromHeight) {
      addBlockRows(rows, this.fold.genesisBlock, this.fold.genesisDiff, () => undefined);
      return rows;
    }
    // Starting at H: balance_changes at H-1 hold every balance then, so accounts and "balance at
    // height" queries are right from H on.
    const h = this.fold.head.index;
    for (const [address, a] of this.fold.accounts()) {
      rows.balance_changes.push([address, h, a.balance.toString(), a.balance.toString(), '0', a.nonce]);
      rows.accounts.set(address, { balance: a.balance, nonce: a.nonce, firstSeen: h, lastSeen: h, created: true });
    }
    return rows;
  }

  private cursorAt(height: number, hash: string): Cursor {
    return { genesisHash: this.chain.genesisHash, chainId: this.chain.genesis.chainId, height, hash };
  }
}
