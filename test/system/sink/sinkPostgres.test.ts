/**
 * The PostgreSQL sink against a real cluster and a live node holding the simulated chain (every
 * transaction type): backfill then live, equal to the node's API; a restart resumes without a
 * duplicate; another chain's database, a newer schema and an unreachable database are each said in
 * one line.
 */
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import { missing } from '../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { OmbraClient } from '../../../client/reads.ts';
import { errorCode, errorMessage } from '../../../core/errors.ts';
import { migrate, SCHEMA_VERSION } from '../../../sink/migrations.ts';
import { Sink } from '../../../sink/sink.ts';
import { SinkDb } from '../../../sink/sinkDb.ts';
import { serveMetrics } from '../../../sink/sinkMetrics.ts';
import { SINK_DEFAULTS, type SinkOptions } from '../../../sink/sinkOptions.ts';
import { runCli } from '../../helpers/cliRun.ts';
import { type LiveNode, liveSimulatedNode } from '../../helpers/liveNode.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { type PgCluster, startPostgres } from '../../helpers/postgresCluster.ts';
import { checkMirror } from '../../helpers/sinkCheck.ts';

let pgc: PgCluster | null = null;
let live: LiveNode;

before(async () => {
  pgc = await startPostgres('sink postgres');
  if (pgc) live = await liveSimulatedNode();
});
after(async () => {
  await live?.stop();
  pgc?.stop();
});

/** A sink on `schema`, its log lines and the blocks it folded without writing (rebuilding its state) collected. */
function sinkOn(
  schema: string,
  extra: Partial<SinkOptions> = {},
): { sink: Sink; lines: string[]; folded: number[]; run: Promise<unknown> } {
  const lines: string[] = [];
  const folded: number[] = [];
  const sink = new Sink({
    ...SINK_DEFAULTS,
    url: live.url,
    db: pgc!.url,
    schema,
    log: (l) => lines.push(l),
    onProgress: (phase, done) => void (phase === 'fold' && folded.push(done)),
    retryMinMs: 50,
    ...extra,
  });
  const run = sink.run().then(
    () => 'stopped',
    (e: Error) => e,
  );
  return { sink, lines, folded, run };
}

/** The mirror's cursor height, -1 before its schema or first commit exists. */
function heightOf(schema: string): number {
  return Number(pgc!.tryPsql(`SELECT coalesce((SELECT height FROM ${schema}.sink_cursor), -1)`) ?? -1);
}

test('backfills the simulated chain and follows it live, equal to the node; a restart adds no row twice', {
  skip: missing('postgresql'),
}, async () => {
  assert.ok(pgc, 'PostgreSQL started');
  const first = sinkOn('mirror', { rollupRefreshMs: 100 });
  // Blocks committed from the stream (only those observe the SSE-to-commit lag), and rollups
  // refreshed by the sink while it follows (every 100 ms here) over every transaction.
  const liveCommits = async () => {
    const h = (await first.sink.metrics.commitLag.get()).values;
    return h.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
  };
  await waitFor(async () => ((await liveCommits()) >= 3 ? true : undefined), 90_000);
  const txsNow = () => pgc!.psql('SELECT count(*) FROM mirror.transactions');
  await waitFor(
    async () => (pgc!.psql('SELECT coalesce(sum(tx_count), 0) FROM mirror.daily_stats') === txsNow() ? true : undefined),
    90_000,
  );
  first.sink.stop();
  assert.equal(await first.run, 'stopped');
  assert.ok(first.lines.some((l) => /applied migration 1/.test(l)));
  const check = await checkMirror(pgc.url, 'mirror', live.url);
  assert.ok(check.txs > 500 && check.types >= 30, `the simulated chain's ${check.txs} transactions of ${check.types} types`);
  const rows = pgc.psql("SELECT (SELECT count(*) FROM mirror.transactions) || '/' || (SELECT count(*) FROM mirror.balance_changes)");
  // Typed views and rollups over the same rows.
  assert.equal(
    Number(pgc.psql('SELECT count(*) FROM mirror.tasks')),
    Number(pgc.psql("SELECT count(*) FROM mirror.transactions WHERE type = 'TASK_SUBMIT'")),
  );
  assert.equal(Number(pgc.psql('SELECT sum(tx_count) FROM mirror.daily_stats')), check.txs);
  assert.equal(Number(pgc.psql('SELECT sum(tx_count) FROM mirror.hourly_stats')), check.txs);
  assert.equal(pgc.psql('SELECT to_address FROM mirror.transfers LIMIT 1').startsWith('ox'), true);

  // The backfill into the empty mirror loaded without the secondary indexes and built them at its
  // end: the mirror has every index a migrated schema has.
  assert.ok(first.lines.some((l) => /^secondary indexes dropped for the backfill/.test(l)));
  assert.ok(first.lines.some((l) => /^secondary indexes built at height \d+/.test(l)));
  const db = await SinkDb.connect(pgc.url, 'pristine', () => undefined);
  await migrate(db.raw, 'pristine').finally(() => db.close());
  const indexes = (schema: string) =>
    pgc!.psql(
      `SELECT string_agg(replace(indexdef, '${schema}.', 'S.'), E'\\n' ORDER BY indexname) FROM pg_indexes WHERE schemaname = '${schema}'`,
    );
  assert.equal(indexes('mirror'), indexes('pristine'));
  assert.equal(pgc.psql('SELECT count(*) FROM mirror.sink_deferred_indexes'), '0');

  // The state the first run saved as it stopped: the second folds no block before going on.
  const saved = Number(pgc.psql('SELECT height FROM mirror.sink_state_head'));
  const second = sinkOn('mirror');
  const resumed = heightOf('mirror');
  assert.equal(saved, resumed);
  await waitFor(async () => (heightOf('mirror') >= resumed + 3 ? true : undefined), 90_000);
  second.sink.stop();
  assert.equal(await second.run, 'stopped');
  assert.ok(!second.lines.some((l) => /applied migration/.test(l)), 'nothing to migrate the second time');
  assert.ok(second.lines.includes(`state loaded as saved at height ${saved}`), second.lines.join('\n'));
  assert.deepEqual(second.folded, [], 'no block refolded from genesis');
  const again = await checkMirror(pgc.url, 'mirror', live.url);
  assert.equal(again.txs, check.txs);
  assert.equal(pgc.psql("SELECT (SELECT count(*) FROM mirror.transactions) || '/' || (SELECT count(*) FROM mirror.balance_changes)"), rows);
});

test('refuses a database holding another chain, and a schema newer than it knows, in one line', {
  skip: missing('postgresql'),
}, async () => {
  assert.ok(pgc, 'PostgreSQL started');
  const a = sinkOn('other');
  await waitFor(async () => (heightOf('other') >= 0 ? true : undefined), 90_000);
  a.sink.stop();
  await a.run;
  pgc.psql(`UPDATE other.sink_cursor SET genesis_hash = '${'ab'.repeat(32)}', chain_id = 'elsewhere'`);
  const b = sinkOn('other');
  const err = await b.run;
  assert.equal(errorCode(err), 'OTHER_CHAIN');
  assert.match(errorMessage(err), /mirrors another chain \(elsewhere/);
  assert.doesNotMatch(errorMessage(err), /\n/);

  pgc.psql(`INSERT INTO other.schema_version (version) VALUES (${SCHEMA_VERSION + 1})`);
  const c = sinkOn('other');
  const newer = await c.run;
  assert.equal(errorCode(newer), 'SCHEMA_TOO_NEW');
  assert.match(
    errorMessage(newer),
    literal(new RegExp(`version ${SCHEMA_VERSION + 1}, newer than this sink knows \\(${SCHEMA_VERSION}\\)`)),
  );
});

test('migrations: applied once, in one transaction', { skip: missing('postgresql') }, async () => {
  assert.ok(pgc, 'PostgreSQL started');
  const db = await SinkDb.connect(pgc.url, 'fresh', () => undefined);
  try {
    assert.deepEqual(await migrate(db.raw, 'fresh'), [1, 2]);
    assert.deepEqual(await migrate(db.raw, 'fresh'), []);
    assert.equal(pgc.psql('SELECT count(*) FROM fresh.schema_version'), '2');
    assert.equal(
      pgc.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'fresh' AND table_type = 'BASE TABLE'"),
      '11',
    );
  } finally {
    await db.close();
  }
});

test('an unreachable database is retried with backoff and said so', { skip: missing('postgresql') }, async () => {
  assert.ok(pgc, 'PostgreSQL started');
  const s = sinkOn('unreachable', { db: 'postgres://postgres@127.0.0.1:1/postgres', retryMinMs: 20, retryMaxMs: 40 });
  await waitFor(async () => (s.lines.filter((l) => /retrying/.test(l)).length >= 3 ? true : undefined));
  s.sink.stop();
  assert.equal(await s.run, 'stopped');
  assert.match(s.lines[0], /^database unreachable at 127\.0\.0\.1:1\/postgres \(.*ECONNREFUSED.*\); retrying in 0\.02 s$/);
  assert.match(s.lines[1], /retrying in 0\.04 s$/);
});

test('a wrong password and an unreachable node are each one line; the first ends the run, the second is retried', {
  skip: missing('postgresql'),
}, async () => {
  assert.ok(pgc, 'PostgreSQL started');
  pgc.passwordUser('sinkpw', 'right');
  const wrong = sinkOn('pw', { db: pgc.url.replace('postgres@', 'sinkpw:wrong@') });
  const err = await wrong.run;
  assert.equal(errorCode(err), 'DB_AUTH');
  assert.match(errorMessage(err), /^database at 127\.0\.0\.1:\d+\/postgres: wrong password \(/);
  const right = sinkOn('pw', { db: pgc.url.replace('postgres@', 'sinkpw:right@') });
  await waitFor(async () => (heightOf('pw') >= 0 ? true : undefined), 90_000);
  right.sink.stop();
  assert.equal(await right.run, 'stopped');

  // A port nothing listens on (fetch refuses port 1 and other well-known ones before connecting).
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const closed = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  const away = sinkOn('away', { url: `http://127.0.0.1:${closed}`, retryMinMs: 20, retryMaxMs: 20 });
  await waitFor(async () => (away.lines.length >= 2 ? true : undefined));
  away.sink.stop();
  assert.equal(await away.run, 'stopped');
  assert.match(
    away.lines[0],
    literal(
      new RegExp(`^node unreachable \\(cannot reach the node at http://127\\.0\\.0\\.1:${closed}: ECONNREFUSED\\); retrying in 0\\.02 s$`),
    ),
  );
});

test('its /metrics names ombra_sink_* series, the height among them', { skip: missing('postgresql') }, async () => {
  assert.ok(pgc, 'PostgreSQL started');
  const s = sinkOn('metrics');
  const { server, port } = await serveMetrics(s.sink.metrics, '127.0.0.1', 0);
  try {
    await waitFor(async () => (heightOf('metrics') >= 10 ? true : undefined), 90_000);
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    for (const name of ['height', 'node_height', 'lag_blocks', 'lag_seconds', 'rows_written_total', 'reorgs_total', 'commit_lag_seconds'])
      assert.match(text, literal(new RegExp(`^# TYPE ombra_sink_${name} `, 'm')), name);
    assert.ok(Number(/^ombra_sink_height (\d+)$/m.exec(text)?.[1]) >= 10);
    assert.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
  } finally {
    server.close();
    s.sink.stop();
    await s.run;
  }
});

test('the command refuses bad input with a usage line (exit 2)', { skip: missing('postgresql') }, async () => {
  for (const [args, why] of [
    [['sink'], /name the sink: ombra sink postgres/],
    [['sink', 'mysql', '--db', 'postgres://x@h/d'], /unknown sink mysql/],
    [['sink', 'postgres'], /--db must be a postgres:\/\/ URL/],
    [['sink', 'postgres', '--db', 'postgres://x@h/d', '--schema', 'Bad-Name'], /--schema must be/],
    [['sink', 'postgres', '--db', 'postgres://x@h/d', '--metrics-addr', 'nope'], /--metrics-addr must be HOST:PORT/],
  ] as const) {
    const r = await runCli([...args]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, literal(why));
  }
});

test('--from-height starts an empty mirror at that height with every balance', { skip: missing('postgresql') }, async () => {
  assert.ok(pgc, 'PostgreSQL started');
  const s = sinkOn('late', { fromHeight: 50 });
  await waitFor(async () => (heightOf('late') >= 60 ? true : undefined), 90_000);
  s.sink.stop();
  await s.run;
  assert.equal(pgc.psql('SELECT min(height) FROM late.blocks'), '50');
  const mirror = Number(pgc.psql("SELECT balance FROM mirror.accounts WHERE address = 'oxa8771d443751bbb4d5adcd88ec3bdb605920fb7b'"));
  const late = Number(pgc.psql("SELECT balance FROM late.accounts WHERE address = 'oxa8771d443751bbb4d5adcd88ec3bdb605920fb7b'"));
  assert.equal(late, mirror);
});

test('a node behind the mirror on the same chain is waited for, its rows kept', { skip: missing('postgresql') }, async () => {
  assert.ok(pgc, 'PostgreSQL started');
  // Last in this file: the node stops producing, so its head stays where the mirror has it.
  await live.node.producer?.stop();
  const head = (await new OmbraClient(live.url).height()).height;
  const a = sinkOn('behind');
  await waitFor(async () => (heightOf('behind') >= head ? true : undefined), 90_000);
  a.sink.stop();
  await a.run;
  // As if it had mirrored a node further ahead (a failover to a follower that is catching up).
  pgc.psql(`UPDATE behind.sink_cursor SET height = height + 100, hash = '${'cd'.repeat(32)}'`);
  const before = pgc.psql('SELECT count(*) FROM behind.blocks');
  const b = sinkOn('behind', { retryMinMs: 20, retryMaxMs: 20 });
  await waitFor(async () => (b.lines.filter((l) => /is behind/.test(l)).length >= 2 ? true : undefined));
  b.sink.stop();
  assert.equal(await b.run, 'stopped');
  assert.match(
    b.lines.find((l) => /is behind/.test(l)) ?? '',
    literal(new RegExp(`^the node's head ${head} is behind the mirror's ${head + 100}: waiting for it; retrying in 0\\.02 s$`)),
  );
  assert.equal(pgc.psql('SELECT count(*) FROM behind.blocks'), before);
});
