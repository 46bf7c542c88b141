/**
 * The mirror's one moving part: the folded state (FoldState) and the database (SinkDb) kept at the
 * same block. `resume` lines the state up with the committed cursor (and finds the common ancestor
 * when the node's chain moved away from it); `syncTo` folds the node's blocks up to a height and
 * commits them in batches, each with its cursor.
 */
import type { OmbraClient } from '../client/reads.ts';
import type { Block } from '../core/block.ts';
import { finalityDepthOf, type Genesis } from '../core/genesis.ts';
import { addBlockRows, emptyRows, type Rows } from './blockRows.ts';
import { blockFeed } from './blockFeed.ts';
import { FoldState } from './foldState.ts';
import type { Cursor, SinkDb } from './sinkDb.ts';
import { SinkError } from './sinkError.ts';
import type { SinkMetrics } from './sinkMetrics.ts';
import type { SinkOptions } from './sinkOptions.ts';

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

  private newFold(): FoldState {
    return new FoldState(this.chain.genesis, finalityDepthOf(this.chain.genesis) + this.opts.batchBlocks + 16);
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
    if (!cursor) {
      this.fresh = true;
      await this.foldTo(Math.max(0, (this.opts.fromHeight ?? 0) - 1));
      return;
    }
    this.fresh = false;
    const ancestor = await this.ancestorOf(db, cursor);
    await this.foldTo(ancestor);
    if (ancestor < cursor.height) {
      this.rewindAbove = ancestor;
      this.opts.log(`the node's chain left the mirror above height ${ancestor}: its rows will be replaced`);
    }
    this.metrics.height.set(ancestor);
  }

  /** The highest height where the mirror and the node hold the same block (the cursor itself, normally). */
  private async ancestorOf(db: SinkDb, cursor: Cursor): Promise<number> {
    const nodeHead = (await this.client.height()).height;
    if (nodeHead < cursor.height) {
      const [theirs] = (await this.client.blocksRange(nodeHead, nodeHead)).blocks;
      // A node behind the mirror on the same chain (a follower catching up, a failover): wait for
      // it rather than delete blocks it will have again.
      if ((await db.blockHashes(nodeHead, nodeHead)).get(nodeHead) === theirs?.hash)
        throw new SinkError('NODE_BEHIND', `the node's head ${nodeHead} is behind the mirror's ${cursor.height}: waiting for it`);
    }
    let top = cursor.height;
    while (top >= 0) {
      const from = Math.max(0, top - 499);
      const mine = await db.blockHashes(from, top);
      const theirs = new Map<number, string>();
      if (nodeHead >= from)
        for await (const blocks of blockFeed(this.client, from, Math.min(top, nodeHead)))
          for (const b of blocks) theirs.set(b.index, b.hash);
      for (let h = top; h >= from; h--) if (mine.get(h) !== undefined && mine.get(h) === theirs.get(h)) return h;
      if (from === 0) break;
      top = from - 1;
    }
    throw new SinkError('OTHER_CHAIN', `no block of schema ${this.opts.schema} is on the node's chain`);
  }

  /** Folds (without writing) up to `height`: back through the undo entries, or forward from the node. */
  private async foldTo(height: number): Promise<void> {
    if (this.fold.head.index > height && !this.fold.revertTo(height)) this.fold = this.newFold();
    if (this.fold.head.index >= height) return;
    const start = this.fold.head.index;
    for await (const blocks of blockFeed(this.client, start + 1, height)) {
      for (const b of blocks) this.fold.apply(b);
      this.opts.onProgress?.('fold', this.fold.head.index - start, height - start);
    }
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
    // One commit in flight while the next batch folds: PostgreSQL ingests while this thread works.
    let inflight: Promise<void> = Promise.resolve();
    const commitOf = async (batch: Rows, lastOf: Block | undefined, head: { index: number; hash: string }, rewind: number | undefined) => {
      await db.commit(batch, this.cursorAt(head.index, head.hash), rewind);
      if (rewind !== undefined) this.metrics.reorgs.inc();
      for (const t of ['blocks', 'transactions', 'transfers', 'balance_changes', 'record_versions'] as const)
        this.metrics.rows.inc({ table: t }, batch[t].length);
      this.metrics.rows.inc({ table: 'accounts' }, batch.accounts.size);
      this.metrics.height.set(head.index);
      if (lastOf) {
        this.metrics.lagSeconds.set(Math.max(0, (Date.now() - lastOf.timestamp) / 1000));
        onCommit?.(lastOf);
      }
    };
    const flush = async () => {
      await inflight;
      if (!last && this.rewindAbove === undefined && !this.fresh) return;
      const { index, hash } = this.fold.head;
      inflight = commitOf(rows, last, { index, hash }, this.rewindAbove);
      // Its failure surfaces at the next await of `inflight`; never as an unhandled rejection.
      inflight.catch(() => undefined);
      this.rewindAbove = undefined;
      this.fresh = false;
      rows = emptyRows();
      last = undefined;
    };
    try {
      for await (const chunk of blockFeed(this.client, start + 1, target)) {
        for (const b of chunk) {
          if (b.index === this.fold.head.index + 1 && b.previousHash !== this.fold.head.hash)
            throw new SinkError(
              'CHAIN_MOVED',
              `block ${b.index} does not follow the mirror's block ${this.fold.head.index}: the chain reorganised`,
            );
          const folded = this.fold.apply(b);
          addBlockRows(rows, b, folded.diff, folded.before);
          last = b;
          blocks++;
          if (rows.txCount >= this.opts.batchTxs || rows.blocks.length >= this.opts.batchBlocks) {
            await flush();
            if (stop()) {
              await inflight;
              return blocks;
            }
          }
        }
        // Live blocks come one or two at a time: a bar is for backfills.
        if (target - start >= 100) this.opts.onProgress?.('backfill', this.fold.head.index - start, target - start);
      }
      await flush();
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
      rows.accounts.set(address, { balance: a.balance, nonce: a.nonce, firstSeen: h, lastSeen: h });
    }
    return rows;
  }

  private cursorAt(height: number, hash: string): Cursor {
    return { genesisHash: this.chain.genesisHash, chainId: this.chain.genesis.chainId, height, hash };
  }
}
