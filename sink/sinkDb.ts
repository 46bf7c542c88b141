/**
 * The sink's side of PostgreSQL (node-postgres with pg-copy-streams): one connection, and one
 * transaction per batch that holds the batch's rows (COPY), the accounts it changed (upserted
 * through a staging table) and the cursor. The cursor therefore never says more or less than
 * the rows: that is what makes every block's rows exactly once across crashes. A rewind (a
 * reorganisation) deletes the rows above the common ancestor and rebuilds the accounts they
 * touched from balance_changes in the same transaction as the new branch's rows.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Rows } from './blockRows.ts';
import { type CopyValue, copyChunks } from './copyText.ts';
import { quoteIdent } from './migrations.ts';

/** Where the mirror stands: the last block whose rows are committed, and whose chain it is. */
export interface Cursor {
  genesisHash: string;
  chainId: string;
  height: number;
  hash: string;
}

/** The mirrored tables, in the order a commit writes them. */
const TABLES = ['blocks', 'transactions', 'transfers', 'balance_changes', 'record_versions'] as const;

/** Each table's columns, as its INSERT and COPY name them. */
const COLUMNS: Record<(typeof TABLES)[number], string> = {
  blocks: 'height, hash, previous_hash, timestamp, proposer, tx_count, fees, tokens_burned, tokens_consumed, state_root',
  transactions: 'hash, block_height, position, type, from_address, to_address, amount, fee, nonce, timestamp, body',
  transfers: 'tx_hash, block_height, position, from_address, to_address, amount, timestamp',
  balance_changes: 'address, block_height, balance_before, balance_after, delta, nonce',
  record_versions: 'kind, id, block_height, value',
};
/** How a batch commits besides its rows. */
export interface CommitOptions {
  /** Delete every row above this height first (a reorganisation). */
  rewindAbove?: number;
  /** Drop the secondary indexes before the rows (`defer`), or build the dropped ones after them (`restore`). */
  indexes?: 'defer' | 'restore';
}

/** The mirror's tables whose secondary indexes a backfill may defer. */
const MIRROR_TABLES = ['blocks', 'transactions', 'transfers', 'balance_changes', 'accounts', 'record_versions'];
/** Up to this many transactions (and balance changes) a commit goes as one statement text, above it by COPY. */
const INLINE_TXS = 1000;
/** Tables whose rows belong to a height, deleted above the ancestor on a rewind. */
const HEIGHT_TABLES = ['transfers', 'transactions', 'record_versions', 'balance_changes', 'blocks'] as const;

/** One connection to the mirror's schema. */
export class SinkDb {
  private readonly s: string;
  private readonly schema: string;
  private readonly client: pg.Client;

  private constructor(client: pg.Client, schema: string) {
    this.client = client;
    this.schema = schema;
    this.s = quoteIdent(schema);
  }

  /** Connects (throws pg's error: the caller decides whether to retry). */
  static async connect(url: string, schema: string, onLost: (e: Error) => void): Promise<SinkDb> {
    const client = new pg.Client({ connectionString: url, application_name: 'ombra-sink' });
    // An idle connection that dies (server stopped) emits 'error': noted, the next query fails.
    client.on('error', onLost);
    await client.connect();
    return new SinkDb(client, schema);
  }

  /** The raw client (migrations). */
  get raw(): pg.Client {
    return this.client;
  }

  /** The committed cursor, or null for an empty mirror. */
  async cursor(): Promise<Cursor | null> {
    const { rows } = await this.client.query<{ genesis_hash: string; chain_id: string; height: string; hash: string }>(
      `SELECT genesis_hash, chain_id, height, hash FROM ${this.s}.sink_cursor`,
    );
    const r = rows[0];
    return r ? { genesisHash: r.genesis_hash, chainId: r.chain_id, height: Number(r.height), hash: r.hash } : null;
  }

  /** Hashes of the mirror's blocks from..to, by height. */
  async blockHashes(from: number, to: number): Promise<Map<number, string>> {
    const { rows } = await this.client.query<{ height: string; hash: string }>(
      `SELECT height, hash FROM ${this.s}.blocks WHERE height BETWEEN $1 AND $2`,
      [from, to],
    );
    return new Map(rows.map((r) => [Number(r.height), r.hash]));
  }

  /**
   * Commits `rows` and `cursor` in one transaction; with `rewindAbove`, first deletes every row
   * above that height and rebuilds the accounts those rows touched. `indexes: 'defer'` drops the
   * secondary indexes first (a backfill into an empty mirror: PostgreSQL builds an index over
   * loaded rows several times faster than it maintains it row by row), noting their definitions
   * in sink_deferred_indexes; `'restore'` builds the noted ones after the rows. Either way in the
   * same transaction, so a crash leaves them noted or built, never lost.
   */
  async commit(rows: Rows, cursor: Cursor, opts: CommitOptions = {}): Promise<void> {
    const c = this.client;
    const { rewindAbove, indexes } = opts;
    if (rewindAbove === undefined && !indexes && rows.txCount <= INLINE_TXS && rows.balance_changes.length <= INLINE_TXS)
      return this.commitInline(rows, cursor);
    await c.query('BEGIN');
    try {
      if (rewindAbove !== undefined) await this.rewind(rewindAbove);
      if (indexes === 'defer') await this.dropIndexes();
      for (const table of TABLES) await this.copy(table, COLUMNS[table], rows[table]);
      if (rows.accounts.size > 0) await this.writeAccounts(rows);
      await c.query(
        `INSERT INTO ${this.s}.sink_cursor (genesis_hash, chain_id, height, hash) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET height = EXCLUDED.height, hash = EXCLUDED.hash, updated_at = now()`,
        [cursor.genesisHash, cursor.chainId, cursor.height, cursor.hash],
      );
      if (indexes === 'restore') await this.buildIndexes();
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  /** How many secondary indexes a backfill left to build (0: all in place). */
  async deferredIndexes(): Promise<number> {
    const { rows } = await this.client.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.s}.sink_deferred_indexes`);
    return Number(rows[0].n);
  }

  private async dropIndexes(): Promise<void> {
    const c = this.client;
    // Unique ones stay: they are what refuses a row twice.
    const { rows } = await c.query<{ name: string; definition: string }>(
      `SELECT ic.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
       WHERE t.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = $1) AND t.relname = ANY($2)
         AND NOT i.indisunique`,
      [this.schema, MIRROR_TABLES],
    );
    for (const r of rows) {
      await c.query(`INSERT INTO ${this.s}.sink_deferred_indexes (name, definition) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
        r.name,
        r.definition,
      ]);
      await c.query(`DROP INDEX ${this.s}.${quoteIdent(r.name)}`);
    }
  }

  private async buildIndexes(): Promise<void> {
    const c = this.client;
    const { rows } = await c.query<{ definition: string }>(`SELECT definition FROM ${this.s}.sink_deferred_indexes ORDER BY name`);
    for (const r of rows) await c.query(r.definition);
    await c.query(`DELETE FROM ${this.s}.sink_deferred_indexes`);
  }

  /**
   * A live block's few rows: the whole transaction as one multi-statement text (literals escaped
   * by the driver), so it costs one round trip instead of one per table.
   */
  private async commitInline(rows: Rows, cursor: Cursor): Promise<void> {
    const lit = (v: CopyValue): string =>
      v === null ? 'NULL' : typeof v === 'string' ? this.client.escapeLiteral(v) : typeof v === 'boolean' ? String(v) : String(v);
    const values = (list: readonly CopyValue[][]) => list.map((r) => `(${r.map(lit).join(', ')})`).join(', ');
    const sql = ['BEGIN'];
    for (const table of TABLES)
      if (rows[table].length) sql.push(`INSERT INTO ${this.s}.${table} (${COLUMNS[table]}) VALUES ${values(rows[table])}`);
    if (rows.accounts.size)
      sql.push(
        `INSERT INTO ${this.s}.accounts (address, balance, nonce, first_seen_height, last_seen_height) VALUES ${values(
          [...rows.accounts].map(([a, v]) => [a, v.balance.toString(), v.nonce, v.firstSeen, v.lastSeen]),
        )} ON CONFLICT (address) DO UPDATE SET balance = EXCLUDED.balance, nonce = EXCLUDED.nonce, last_seen_height = EXCLUDED.last_seen_height`,
      );
    sql.push(
      `INSERT INTO ${this.s}.sink_cursor (genesis_hash, chain_id, height, hash) VALUES (${[cursor.genesisHash, cursor.chainId, cursor.height, cursor.hash].map(lit).join(', ')})
       ON CONFLICT (id) DO UPDATE SET height = EXCLUDED.height, hash = EXCLUDED.hash, updated_at = now()`,
      'COMMIT',
    );
    try {
      await this.client.query(sql.join(';\n'));
    } catch (e) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  private async copy(table: string, columns: string, rows: readonly CopyValue[][]): Promise<void> {
    if (rows.length === 0) return;
    await pipeline(Readable.from(copyChunks(rows)), this.client.query(copyFrom(`COPY ${this.s}.${table} (${columns}) FROM STDIN`)));
  }

  /**
   * The batch's accounts: those the chain created in it straight by COPY (an account the folded
   * state did not hold has no row), the others upserted through a staging table.
   */
  private async writeAccounts(rows: Rows): Promise<void> {
    const c = this.client;
    const created: CopyValue[][] = [];
    const stage: CopyValue[][] = [];
    for (const [a, v] of rows.accounts) (v.created ? created : stage).push([a, v.balance.toString(), v.nonce, v.firstSeen, v.lastSeen]);
    await this.copy('accounts', 'address, balance, nonce, first_seen_height, last_seen_height', created);
    if (stage.length === 0) return;
    await c.query(
      `CREATE TEMP TABLE IF NOT EXISTS sink_accounts_stage (address text, balance numeric, nonce bigint, first_seen bigint, last_seen bigint) ON COMMIT DELETE ROWS`,
    );
    await pipeline(Readable.from(copyChunks(stage)), c.query(copyFrom('COPY sink_accounts_stage FROM STDIN')));
    await c.query(
      `INSERT INTO ${this.s}.accounts (address, balance, nonce, first_seen_height, last_seen_height)
       SELECT address, balance, nonce, first_seen, last_seen FROM sink_accounts_stage
       ON CONFLICT (address) DO UPDATE SET balance = EXCLUDED.balance, nonce = EXCLUDED.nonce, last_seen_height = EXCLUDED.last_seen_height`,
    );
  }

  private async rewind(above: number): Promise<void> {
    const c = this.client;
    const s = this.s;
    await c.query(
      `CREATE TEMP TABLE sink_touched ON COMMIT DROP AS SELECT DISTINCT address FROM ${s}.balance_changes WHERE block_height > $1`,
      [above],
    );
    for (const t of HEIGHT_TABLES) await c.query(`DELETE FROM ${s}.${t} WHERE ${t === 'blocks' ? 'height' : 'block_height'} > $1`, [above]);
    await c.query(`DELETE FROM ${s}.accounts a USING sink_touched t WHERE a.address = t.address`);
    // Each touched account as its last remaining balance change says (none left: it did not exist).
    await c.query(
      `INSERT INTO ${s}.accounts (address, balance, nonce, first_seen_height, last_seen_height)
       SELECT DISTINCT ON (b.address) b.address, b.balance_after, b.nonce,
              min(b.block_height) OVER (PARTITION BY b.address), b.block_height
       FROM ${s}.balance_changes b JOIN sink_touched t ON t.address = b.address
       ORDER BY b.address, b.block_height DESC`,
    );
  }

  /** Refreshes the hourly and daily rollups (concurrently: dashboards keep reading the old ones). */
  async refreshRollups(): Promise<void> {
    for (const v of ['hourly_stats', 'daily_stats']) await this.client.query(`REFRESH MATERIALIZED VIEW CONCURRENTLY ${this.s}.${v}`);
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
