/**
 * Work the sink does on a second connection beside its commits: refreshing the rollups and saving
 * the folded state. Neither belongs in a block's transaction, and neither may hold up a live
 * block's commit (a refresh over millions of rows takes seconds, so the commit loop does not wait
 * for one). Jobs run one at a time in order; a job asked for while one of its kind still waits is
 * dropped (the waiting one does its work). A failed job is said on one line and its connection
 * dropped; the next job connects again.
 */
import { errorMessage } from '../core/errors.ts';
import { SinkDb } from './sinkDb.ts';

/** What the side connection needs. */
export interface SideJobsOptions {
  db: string;
  schema: string;
  log(line: string): void;
}

/** Jobs on a connection of their own. */
export class SideJobs {
  private conn: SinkDb | undefined;
  private tail: Promise<void> = Promise.resolve();
  private readonly queued = new Set<string>();
  private readonly opts: SideJobsOptions;

  constructor(opts: SideJobsOptions) {
    this.opts = opts;
  }

  /** True while a job of `kind` waits or runs. */
  pending(kind: string): boolean {
    return this.queued.has(kind);
  }

  /** Queues `job` (unless one of `kind` is pending); `onFail` hears its failure. Answers at once. */
  queue(kind: string, job: (db: SinkDb) => Promise<void>, onFail?: () => void): void {
    if (this.queued.has(kind)) return;
    this.queued.add(kind);
    this.tail = this.tail.then(async () => {
      try {
        this.conn ??= await SinkDb.connect(this.opts.db, this.opts.schema, () => undefined);
        await job(this.conn);
      } catch (e) {
        this.opts.log(`${kind} failed on the side connection (${errorMessage(e)}); tried again later`);
        onFail?.();
        await this.conn?.close();
        this.conn = undefined;
      } finally {
        this.queued.delete(kind);
      }
    });
  }

  /** Waits for the queued jobs, then closes the connection. */
  async close(): Promise<void> {
    await this.tail;
    await this.conn?.close();
    this.conn = undefined;
  }
}
