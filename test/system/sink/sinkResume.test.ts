/**
 * The sink's backfill and follow paths that keep PostgreSQL's work off the commit: a backfill into
 * an empty mirror loads without the secondary indexes and builds them at its end, also when it is
 * stopped half way and resumed; a rollup refresh that cannot proceed (its view locked) holds up no
 * live block's commit.
 */
import assert from 'node:assert/strict';
import { errorMessage } from '../../../core/errors.ts';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { OmbraClient } from '../../../client/reads.ts';
import { migrate } from '../../../sink/migrations.ts';
import { Sink } from '../../../sink/sink.ts';
import { SinkDb } from '../../../sink/sinkDb.ts';
import { SINK_DEFAULTS, type SinkOptions } from '../../../sink/sinkOptions.ts';
import { type LiveNode, liveSimulatedNode } from '../../helpers/liveNode.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { type PgCluster, startPostgres } from '../../helpers/postgresCluster.ts';
import { checkMirror } from '../../helpers/sinkCheck.ts';
import { missing } from '../../helpers/skip.ts';

let pgc: PgCluster | null = null;
let live: LiveNode;

before(async () => {
  pgc = await startPostgres('sink resume');
  if (pgc) live = await liveSimulatedNode();
});
after(async () => {
  await live?.stop();
  pgc?.stop();
});

/** A sink on `schema`; `onLine` hears each log line. */
function sinkOn(schema: string, extra: Partial<SinkOptions>, onLine?: (line: string, sink: Sink) => void) {
  const lines: string[] = [];
  const sink: Sink = new Sink({
    ...SINK_DEFAULTS,
    url: live.url,
    db: pgc!.url,
    schema,
    retryMinMs: 50,
    log: (l) => {
      lines.push(l);
      onLine?.(l, sink);
    },
    ...extra,
  });
  const run = sink.run().then(
    () => 'stopped',
    (e: Error) => e,
  );
  return { sink, lines, run };
}

const heightOf = (schema: string) => Number(pgc!.tryPsql(`SELECT coalesce((SELECT height FROM ${schema}.sink_cursor), -1)`) ?? -1);

/** The schema's index definitions, its name taken out. */
const indexes = (schema: string) =>
  pgc!.psql(
    `SELECT string_agg(replace(indexdef, '${schema}.', 'S.'), E'\\n' ORDER BY indexname) FROM pg_indexes WHERE schemaname = '${schema}'`,
  );

test('a backfill into an empty mirror stopped half way resumes without its secondary indexes and builds them at its end', {
  skip: missing('postgresql'),
}, async () => {
  assert.ok(pgc, 'PostgreSQL started');
  const head = (await new OmbraClient(live.url).height()).height;
  // Batches of 10, 20, 40 blocks: stopped once the first commit dropped the indexes.
  const first = sinkOn('halfway', { batchBlocks: 10 }, (l, sink) => {
    if (/^secondary indexes dropped/.test(l)) sink.stop();
  });
  assert.equal(await first.run, 'stopped');
  const stoppedAt = heightOf('halfway');
  assert.ok(stoppedAt > 0 && stoppedAt < head, `stopped at ${stoppedAt} of ${head}`);
  assert.ok(Number(pgc.psql('SELECT count(*) FROM halfway.sink_deferred_indexes')) >= 10);
  assert.equal(
    pgc.psql(
      "SELECT count(*) FROM pg_indexes i JOIN pg_class c ON c.relname = i.indexname AND c.relnamespace = 'halfway'::regnamespace JOIN pg_index x ON x.indexrelid = c.oid WHERE NOT x.indisunique",
    ),
    '0',
    'only the unique indexes are left while the backfill runs',
  );

  const second = sinkOn('halfway', { batchBlocks: 10 });
  // The build commits with the last batch and is logged once that commit returns: on a loaded
  // machine the cursor can be read past the head before the line is written, so wait for both.
  const built = () => second.lines.some((l) => /^secondary indexes built at height \d+/.test(l));
  await waitFor(async () => (heightOf('halfway') >= head + 2 && built() ? true : undefined), 90_000).catch((e) => {
    throw new Error(`${errorMessage(e)}; the sink said:\n${second.lines.join('\n')}`);
  });
  second.sink.stop();
  assert.equal(await second.run, 'stopped');
  assert.equal(pgc.psql('SELECT count(*) FROM halfway.sink_deferred_indexes'), '0');
  const db = await SinkDb.connect(pgc.url, 'pristine', () => undefined);
  await migrate(db.raw, 'pristine').finally(() => db.close());
  assert.equal(indexes('halfway'), indexes('pristine'));
  // Every block's rows once across the stop.
  const check = await checkMirror(pgc.url, 'halfway', live.url);
  assert.ok(check.txs > 500, `${check.txs} transactions`);
});

test('a rollup refresh waiting on a lock holds up no live commit', { skip: missing('postgresql') }, async () => {
  assert.ok(pgc, 'PostgreSQL started');
  const s = sinkOn('locked', { rollupRefreshMs: 50 });
  const lock = new pg.Client({ connectionString: pgc.url });
  await lock.connect();
  try {
    const liveCommits = async () => (await s.sink.metrics.commitLag.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
    await waitFor(async () => ((await liveCommits()) >= 1 ? true : undefined), 90_000);
    await lock.query('BEGIN');
    // A refresh of our own, left uncommitted, holds the view's exclusive lock (LOCK TABLE refuses a view).
    await lock.query('REFRESH MATERIALIZED VIEW locked.hourly_stats');
    // A refresh is queued every 50 ms: one now waits on the lock (pg_stat_activity read from
    // another session: within a transaction it is a snapshot).
    await waitFor(
      async () =>
        pgc!.psql(
          "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'REFRESH MATERIALIZED VIEW CONCURRENTLY \"locked\".hourly_stats%'",
        ) !== '0'
          ? true
          : undefined,
      30_000,
    );
    const at = heightOf('locked');
    await waitFor(async () => (heightOf('locked') >= at + 3 ? true : undefined), 30_000);
  } finally {
    await lock.query('ROLLBACK').catch(() => undefined);
    await lock.end();
    s.sink.stop();
  }
  assert.equal(await s.run, 'stopped');
});
