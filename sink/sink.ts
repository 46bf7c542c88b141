/**
 * `Sink`: follows a node into PostgreSQL until stopped. Backfill by range reads, then the node's
 * SSE stream as the trigger to read and commit each new block; a `reorg` event, a block that
 * does not chain onto the mirror or a refused resume point sends it back through `resume`
 * (common ancestor, rewind). A lost database or node is retried with backoff and said so on one
 * line; a wrong password, another chain's database or a newer schema ends the run.
 */
import { OmbraApiError, OmbraUnreachable } from '../client/http.ts';
import { OmbraClient } from '../client/reads.ts';
import { genesisState } from '../core/applyBlock.ts';
import { ChainError } from '../core/errors.ts';
import { fieldOf } from '../core/encoding.ts';
import { parseGenesis } from '../core/genesis.ts';
import { migrate } from './migrations.ts';
import { writeState } from './savedState.ts';
import { SideJobs } from './sideJobs.ts';
import { type ChainId, Mirror } from './mirror.ts';
import { SinkDb } from './sinkDb.ts';
import { describeFailure, dbWhere, fatalDbError, SinkError } from './sinkError.ts';
import { SinkMetrics } from './sinkMetrics.ts';
import type { SinkOptions } from './sinkOptions.ts';

/** The PostgreSQL sink. */
export class Sink {
  readonly metrics = new SinkMetrics();
  private readonly client: OmbraClient;
  private stopping = false;
  private wake: (() => void) | undefined;
  private readonly stopCtl = new AbortController();
  /** When the rollups were last refreshed (never: the first live commit refreshes them). */
  private lastRefresh = Number.NEGATIVE_INFINITY;
  /** When the folded state was last saved, and at which height. */
  private lastSave = Number.NEGATIVE_INFINITY;
  private savedHeight = -1;

  private readonly opts: SinkOptions;

  constructor(opts: SinkOptions) {
    this.opts = opts;
    this.client = new OmbraClient({ url: opts.url, apiKey: opts.apiKey, timeoutMs: 120_000 });
  }

  /** Asks the run to end after the transaction in progress. */
  stop(): void {
    this.stopping = true;
    this.stopCtl.abort();
    this.wake?.();
  }

  private backoff(attempt: number): number {
    return Math.min(this.opts.retryMinMs * 2 ** attempt, this.opts.retryMaxMs);
  }

  private sleep(ms: number): Promise<void> {
    const signal = this.stopCtl.signal;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const t = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** The node's genesis document and block 0's hash, checked against each other. */
  private async chainId(): Promise<ChainId> {
    const genesis = parseGenesis(await this.client.read('getApiChainGenesisConfig', {}));
    const block0 = await this.client.read('getApiChainGenesis', {});
    const mine = genesisState(genesis).block.hash;
    if (mine !== block0.hash)
      throw new SinkError('NODE_INCONSISTENT', `the node's genesis document does not make its block 0 (${mine} vs ${block0.hash})`);
    return { genesis, genesisHash: block0.hash };
  }

  /** Runs until `stop`; throws SinkError (or a pg error mapped to one) on what no retry fixes. */
  async run(): Promise<void> {
    let attempt = 0;
    let chain: ChainId | undefined;
    let mirror: Mirror | undefined;
    while (!this.stopping) {
      let db: SinkDb | undefined;
      const side = new SideJobs({ db: this.opts.db, schema: this.opts.schema, log: this.opts.log });
      try {
        chain ??= await this.chainId();
        mirror ??= new Mirror(this.client, chain, this.opts, this.metrics);
        db = await SinkDb.connect(this.opts.db, this.opts.schema, () => undefined);
        const applied = await migrate(db.raw, this.opts.schema);
        if (applied.length) this.opts.log(`schema ${this.opts.schema}: applied migration ${applied.join(', ')}`);
        await mirror.resume(db);
        attempt = 0;
        await this.follow(mirror, db, side);
        // Stopped between two commits: the state is the cursor's, saved for the next start.
        await this.saveState(mirror, db, side);
      } catch (e) {
        // The chain moved under a read (a reorganisation seen mid-range): resume from the common ancestor at once.
        if (e instanceof SinkError && e.code === 'CHAIN_MOVED') {
          this.opts.log(e.message);
          continue;
        }
        if (e instanceof SinkError && e.code !== 'NODE_BEHIND') throw e;
        // A block that does not apply to the folded state: the chain moved between two reads (retried,
        // from the ancestor); anything else from core is the node answering what no chain holds.
        if (e instanceof ChainError && e.code !== 'INVALID_BLOCK')
          throw new SinkError('NODE_INCONSISTENT', `the node's answer: ${e.message}`);
        if (e instanceof OmbraApiError && e.status >= 400 && e.status < 500 && e.status !== 429)
          throw new SinkError('NODE_REFUSED', `the node at ${this.opts.url} refused: ${e.status} ${e.code} ${e.message}`);
        const fatal = fatalDbError(e, dbWhere(this.opts.db));
        if (fatal) throw fatal;
        if (this.stopping) break;
        const wait = this.backoff(attempt++);
        const party = e instanceof OmbraUnreachable || e instanceof OmbraApiError || e instanceof SinkError || e instanceof ChainError;
        this.metrics.retries.inc({ party: party ? 'node' : 'database' });
        this.opts.log(`${describeFailure(e, this.opts.db)}; retrying in ${wait / 1000} s`);
        await this.sleep(wait);
      } finally {
        await side.close();
        await db?.close();
      }
    }
  }

  /** Refreshes the rollups on the side connection (a live commit never waits for one). */
  private refreshRollups(side: SideJobs): void {
    this.lastRefresh = performance.now();
    side.queue('rollup refresh', (db) => db.refreshRollups());
  }

  /**
   * Saves the folded state as it is now: call only between two `syncTo`s. Changed entries are
   * copied and written on the side connection while the sink goes on (while a save is pending they
   * stay in the fold for the next one); every entry (the first save) is written from the fold
   * itself on `db`, the sink waiting: a copy of a large state would double its memory.
   */
  private async saveState(mirror: Mirror, db: SinkDb, side: SideJobs): Promise<void> {
    if (side.pending('state save')) return;
    this.lastSave = performance.now();
    const rows = mirror.stateRows();
    if (!rows.all && rows.deletes.length === 0 && rows.head.index === this.savedHeight && [...rows.upserts].length <= 1) return;
    const save = async (conn: SinkDb) => {
      const t0 = performance.now();
      const written = await writeState(conn.raw, this.opts.schema, rows);
      this.savedHeight = rows.head.index;
      this.metrics.stateHeight.set(rows.head.index);
      if (rows.all || written > 10_000)
        this.opts.log(`state saved at height ${rows.head.index} (${written} entries, ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    };
    if (!rows.all) return side.queue('state save', save, () => mirror.stateSaveFailed());
    try {
      await save(db);
    } catch (e) {
      mirror.stateSaveFailed();
      throw e;
    }
  }

  /** Backfills to the node's head, then follows its stream; returns when stopped. */
  private async follow(mirror: Mirror, db: SinkDb, side: SideJobs): Promise<void> {
    for (;;) {
      const head = (await this.client.height()).height;
      this.metrics.nodeHeight.set(head);
      this.metrics.lagBlocks.set(Math.max(0, head - mirror.height));
      if (head <= mirror.height) {
        // A fresh mirror's block 0, or a rewind with nothing above the ancestor: committed alone.
        // Otherwise the backfill's first commit carries them (a rewind with the new branch).
        await mirror.syncTo(db, mirror.height, () => this.stopping);
        break;
      }
      this.opts.log(`backfill ${mirror.height + 1}..${head}`);
      await mirror.syncTo(db, head, () => this.stopping);
      if (this.stopping) return;
      await this.saveState(mirror, db, side);
      this.refreshRollups(side);
    }
    await this.live(mirror, db, side);
  }

  /** Follows GET /api/chain/events: each block event triggers a read and commit of the blocks up to it. */
  private async live(mirror: Mirror, db: SinkDb, side: SideJobs): Promise<void> {
    const ctl = new AbortController();
    const stop = () => ctl.abort();
    this.stopCtl.signal.addEventListener('abort', stop, { once: true });
    let target = mirror.height;
    let resync: string | undefined;
    let ended = false;
    const seenAt = new Map<number, number>();
    const poke = () => this.wake?.();
    const sub = this.client
      .subscribe({
        fromHeight: mirror.height + 1,
        signal: ctl.signal,
        backoff: (n) => this.backoff(n),
        onNotice: (line) => this.opts.log(`node stream: ${line}`),
        onEvent: (e) => {
          const index = fieldOf(e.data, 'index');
          const height = fieldOf(e.data, 'height');
          if (e.event === 'block' && typeof index === 'number') {
            seenAt.set(index, performance.now());
            target = Math.max(target, index);
          } else if (e.event === 'hello' && typeof height === 'number') target = Math.max(target, height);
          else if (e.event === 'reorg') resync = `the node reorganised from height ${fieldOf(e.data, 'fromHeight')}`;
          poke();
        },
      })
      .then((end) => {
        if (end === 1) resync = 'the node refused the stream resume point';
        ended = true;
        poke();
      });
    try {
      while (!this.stopping && resync === undefined && !ended) {
        if (target <= mirror.height) {
          await new Promise<void>((resolve) => (this.wake = resolve));
          continue;
        }
        await mirror.syncTo(
          db,
          target,
          () => this.stopping,
          (last) => {
            const now = performance.now();
            for (const [h, t] of seenAt) {
              if (h > last.index) continue;
              this.metrics.commitLag.observe((now - t) / 1000);
              this.opts.onCommitLag?.((now - t) / 1000);
              seenAt.delete(h);
            }
            this.metrics.nodeHeight.set(target);
            this.metrics.lagBlocks.set(Math.max(0, target - last.index));
          },
        );
        if (performance.now() - this.lastRefresh >= this.opts.rollupRefreshMs) this.refreshRollups(side);
        if (performance.now() - this.lastSave >= this.opts.stateSaveMs) await this.saveState(mirror, db, side);
      }
    } finally {
      this.wake = undefined;
      ctl.abort();
      this.stopCtl.signal.removeEventListener('abort', stop);
      await sub;
    }
    if (resync !== undefined && !this.stopping) throw new SinkError('CHAIN_MOVED', `${resync}: finding the common ancestor`);
  }
}
