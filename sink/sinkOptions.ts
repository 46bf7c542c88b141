/** Options of the PostgreSQL sink (cli/sink.ts fills them from flags and the environment). */

/** How the sink runs. */
export interface SinkOptions {
  /** The node's base URL. */
  url: string;
  /** Sent as X-API-Key. */
  apiKey?: string;
  /** A postgres:// connection string. */
  db: string;
  /** The schema that holds the mirror. */
  schema: string;
  /** Start an empty mirror at this height instead of genesis (balances still fold from genesis). */
  fromHeight?: number;
  /** A backfill transaction ends after this many transactions (or blocks, below). */
  batchTxs: number;
  batchBlocks: number;
  /** Rollups (materialized views) are refreshed at most this often while following (ms). */
  rollupRefreshMs: number;
  /** The folded state is saved to the database (a restart folds from there) at most this often while following (ms). */
  stateSaveMs: number;
  /** Waits between reconnect attempts to the database or the node: min, max (ms). */
  retryMinMs: number;
  retryMaxMs: number;
  /** One-line notices (retries, reorgs, phases). */
  log(line: string): void;
  /** Each live block's lag from its SSE event to the commit of its rows, in seconds (as the histogram observes it). */
  onCommitLag?(seconds: number): void;
  /** Progress in blocks: `fold` while the state is rebuilt (no writes), `backfill` while rows are written. */
  onProgress?(phase: 'fold' | 'backfill', done: number, total: number): void;
}

/** The defaults of everything but where to connect. */
export const SINK_DEFAULTS = {
  schema: 'ombra',
  batchTxs: 50_000,
  batchBlocks: 2_000,
  rollupRefreshMs: 60_000,
  stateSaveMs: 60_000,
  retryMinMs: 500,
  retryMaxMs: 30_000,
} satisfies Partial<SinkOptions>;
