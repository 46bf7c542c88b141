/**
 * The sink's schema as numbered migrations. `migrate` applies the missing ones in one transaction
 * under an advisory lock (two sinks starting at once do not race), and refuses a schema newer than
 * this binary knows. Every statement names the schema, so `--schema` can hold several mirrors in
 * one database.
 */
import type pg from 'pg';
import { SinkError } from './sinkError.ts';

/** One migration: its version and its statements, given the quoted schema name. */
interface Migration {
  version: number;
  sql(s: string): string;
}

// Rollups read blocks and transactions by hour or day; active addresses are distinct senders.
const rollup = (s: string, name: string, unit: string, seconds: number) => `
CREATE MATERIALIZED VIEW ${s}.${name} AS
WITH b AS (SELECT date_trunc('${unit}', timestamp) AS period, count(*) AS blocks, sum(tokens_burned) AS burned
           FROM ${s}.blocks GROUP BY 1),
     t AS (SELECT date_trunc('${unit}', timestamp) AS period, count(*) AS tx_count, sum(fee) AS fees,
                  count(DISTINCT from_address) AS active_addresses
           FROM ${s}.transactions GROUP BY 1)
SELECT b.period, b.blocks, coalesce(t.tx_count, 0) AS tx_count, coalesce(t.fees, 0) AS fees, b.burned,
       coalesce(t.active_addresses, 0) AS active_addresses, round(coalesce(t.tx_count, 0) / ${seconds}.0, 3) AS tps
FROM b LEFT JOIN t USING (period);
CREATE UNIQUE INDEX ON ${s}.${name} (period);`;

// A view of one record kind's current values, with the columns dashboards filter on.
const recordView = (s: string, name: string, kind: string, columns: string) => `
CREATE VIEW ${s}.${name} AS SELECT id, ${columns}, block_height AS updated_height, value
FROM ${s}.records WHERE kind = '${kind}';`;

// A view of the transactions of some types.
const txView = (s: string, name: string, types: string[], columns: string) => `
CREATE VIEW ${s}.${name} AS SELECT hash, block_height, position, timestamp, from_address, ${columns}, fee, body
FROM ${s}.transactions WHERE type IN (${types.map((t) => `'${t}'`).join(', ')});`;

/** Every migration, oldest first. Never edit one that shipped: add the next. */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: (s) => `
CREATE TABLE ${s}.sink_cursor (
  id boolean PRIMARY KEY DEFAULT true CHECK (id), genesis_hash text NOT NULL, chain_id text NOT NULL,
  height bigint NOT NULL, hash text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE ${s}.blocks (
  height bigint PRIMARY KEY, hash text NOT NULL UNIQUE, previous_hash text NOT NULL, timestamp timestamptz NOT NULL,
  proposer text NOT NULL, tx_count integer NOT NULL, fees numeric NOT NULL, tokens_burned numeric NOT NULL,
  tokens_consumed numeric NOT NULL, state_root text NOT NULL);
CREATE INDEX ON ${s}.blocks (timestamp);
CREATE INDEX ON ${s}.blocks (proposer, height);
CREATE TABLE ${s}.transactions (
  hash text PRIMARY KEY, block_height bigint NOT NULL, position integer NOT NULL, type text NOT NULL,
  from_address text NOT NULL, to_address text, amount numeric, fee numeric NOT NULL, nonce bigint NOT NULL,
  timestamp timestamptz NOT NULL, body jsonb NOT NULL);
CREATE INDEX ON ${s}.transactions (block_height, position);
CREATE INDEX ON ${s}.transactions (from_address, block_height);
CREATE INDEX ON ${s}.transactions (to_address, block_height) WHERE to_address IS NOT NULL;
CREATE INDEX ON ${s}.transactions (type, block_height);
CREATE INDEX ON ${s}.transactions (timestamp);
CREATE TABLE ${s}.transfers (
  tx_hash text PRIMARY KEY, block_height bigint NOT NULL, position integer NOT NULL, from_address text NOT NULL,
  to_address text NOT NULL, amount numeric NOT NULL, timestamp timestamptz NOT NULL);
CREATE INDEX ON ${s}.transfers (block_height);
CREATE INDEX ON ${s}.transfers (from_address, block_height);
CREATE INDEX ON ${s}.transfers (to_address, block_height);
CREATE TABLE ${s}.balance_changes (
  address text NOT NULL, block_height bigint NOT NULL, balance_before numeric NOT NULL, balance_after numeric NOT NULL,
  delta numeric NOT NULL, nonce bigint NOT NULL, PRIMARY KEY (address, block_height));
CREATE INDEX ON ${s}.balance_changes (block_height);
CREATE TABLE ${s}.accounts (
  address text PRIMARY KEY, balance numeric NOT NULL, nonce bigint NOT NULL,
  first_seen_height bigint NOT NULL, last_seen_height bigint NOT NULL);
CREATE INDEX ON ${s}.accounts (balance DESC);
CREATE TABLE ${s}.record_versions (
  kind text NOT NULL, id text NOT NULL, block_height bigint NOT NULL, value jsonb,
  PRIMARY KEY (kind, id, block_height));
CREATE INDEX ON ${s}.record_versions (block_height);
CREATE VIEW ${s}.records AS
  SELECT * FROM (SELECT DISTINCT ON (kind, id) kind, id, block_height, value FROM ${s}.record_versions
                 ORDER BY kind, id, block_height DESC) cur WHERE value IS NOT NULL;
${recordView(s, 'tasks', 'tasks', "value->>'status' AS status, value->>'submitter' AS submitter, value->>'taskType' AS task_type")}
${recordView(s, 'miners', 'miners', "value->>'address' AS address, value->>'name' AS name")}
${recordView(s, 'agent_runs', 'runs', "value->>'status' AS status, value->>'submitter' AS submitter, value->>'minerAddress' AS miner_address")}
${recordView(s, 'posts', 'posts', "value->>'author' AS author, (value->>'likeCount')::integer AS like_count")}
${recordView(s, 'follows', 'follows', "split_part(id, ':', 1) AS follower, split_part(id, ':', 2) AS target")}
${recordView(s, 'nfts', 'nfts', "value->>'owner' AS owner, value->>'taskId' AS task_id")}
${recordView(s, 'image_nfts', 'imageNfts', "value->>'owner' AS owner, value->>'blobId' AS blob_id")}
${recordView(s, 'audio_nfts', 'audioNfts', "value->>'owner' AS owner, value->>'blobId' AS blob_id")}
${recordView(s, 'drive_sites', 'webSites', "value->>'owner' AS owner, value->>'name' AS name")}
${recordView(s, 'drive_files', 'webFiles', "value->>'siteId' AS site_id, value->>'path' AS path")}
${recordView(s, 'drive_releases', 'webReleases', "value->>'siteId' AS site_id, (value->>'seq')::integer AS seq")}
${txView(s, 'task_responses', ['TASK_RESPONSE'], "body->>'taskId' AS task_id, body->>'minerId' AS miner_id")}
${txView(s, 'agent_steps', ['AGENT_STEP'], "body->>'agentRunId' AS agent_run_id")}
${txView(s, 'chat_turns', ['CHAT_TURN'], "body->>'conversationId' AS conversation_id, body->>'role' AS role")}
${txView(s, 'social_likes', ['SOCIAL_REACTION_SET', 'SOCIAL_LIKE_INTENT'], "coalesce(body->>'targetPostId', body->>'postId') AS post_id")}
${rollup(s, 'hourly_stats', 'hour', 3600)}
${rollup(s, 'daily_stats', 'day', 86400)}`,
  },
  {
    // The backfill's deferred secondary indexes (dropped for a load into an empty mirror, built
    // again at its end: sink/sinkDb.ts) and the folded state the sink restarts from
    // (sink/stateSnapshot.ts), so a restart does not re-read the chain from genesis.
    version: 2,
    sql: (s) => `
CREATE TABLE ${s}.sink_deferred_indexes (name text PRIMARY KEY, definition text NOT NULL);
CREATE TABLE ${s}.sink_state (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE ${s}.sink_state_head (
  id boolean PRIMARY KEY DEFAULT true CHECK (id), height bigint NOT NULL, hash text NOT NULL, ref text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now());`,
  },
];

/** The newest schema version this binary knows. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** `name` quoted as an SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Brings `schema` to SCHEMA_VERSION in one transaction; returns the versions applied. Throws
 * SinkError SCHEMA_TOO_NEW when the schema was made by a newer sink.
 */
export async function migrate(db: pg.ClientBase, schema: string): Promise<number[]> {
  const s = quoteIdent(schema);
  await db.query('BEGIN');
  try {
    // One lock per schema name: a second sink waits here rather than applying the same migration.
    await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ombra-sink:${schema}`]);
    await db.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await db.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_version (version integer NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await db.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${s}.schema_version`);
    const current = rows[0]?.v ?? 0;
    if (current > SCHEMA_VERSION)
      throw new SinkError(
        'SCHEMA_TOO_NEW',
        `schema ${schema} is at version ${current}, newer than this sink knows (${SCHEMA_VERSION}); upgrade ombra`,
      );
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      await db.query(m.sql(s));
      await db.query(`INSERT INTO ${s}.schema_version (version) VALUES ($1)`, [m.version]);
      applied.push(m.version);
    }
    await db.query('COMMIT');
    return applied;
  } catch (e) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
