/**
 * `ombra sink postgres`: a PostgreSQL mirror of a node's chain (sink/), kept current from the
 * node's public API, each block's rows exactly once and only of the node's current branch.
 * docs/sink.md has the schema, example queries and operation.
 */
import { SINK_DEFAULTS } from '../sink/sinkOptions.ts';
import { Sink } from '../sink/sink.ts';
import { dbWhere, SinkError } from '../sink/sinkError.ts';
import { serveMetrics } from '../sink/sinkMetrics.ts';
import { flagSpecs, API_KEY_FLAG, apiKeyFlag, helpText, intFlag, parseFlags, URL_FLAG, UsageError } from './args.ts';
import { type Progress, progress } from './progress.ts';

/** Flags of `ombra sink postgres`. */
const SINK_FLAGS = flagSpecs({
  url: URL_FLAG,
  'api-key': API_KEY_FLAG,
  db: { type: 'string', env: 'OMBRA_SINK_DB', help: 'the PostgreSQL connection string, postgres://user:password@host:port/database' },
  schema: { type: 'string', env: 'OMBRA_SINK_SCHEMA', default: SINK_DEFAULTS.schema, help: 'the schema that holds the mirror' },
  'from-height': {
    type: 'string',
    env: 'OMBRA_SINK_FROM_HEIGHT',
    help: 'start an empty mirror at this height instead of genesis (accounts still hold every balance)',
  },
  'metrics-addr': {
    type: 'string',
    env: 'OMBRA_SINK_METRICS_ADDR',
    help: "serve the sink's Prometheus metrics (ombra_sink_*) on HOST:PORT at /metrics",
  },
  'batch-txs': {
    type: 'string',
    env: 'OMBRA_SINK_BATCH_TXS',
    default: String(SINK_DEFAULTS.batchTxs),
    help: 'most transactions in a backfill transaction (batches start at 5000 and double up to it; at most 2000 blocks)',
  },
});

const USAGE =
  'ombra sink postgres --db POSTGRES_URL [--url NODE_URL] [--api-key KEY] [--schema NAME] [--from-height H] [--metrics-addr HOST:PORT]';
const SUMMARY =
  'Mirrors the chain into PostgreSQL: backfill by range reads, then the live stream. Each block is\n' +
  'committed with the cursor in one transaction (exactly once across crashes); reorganisations are\n' +
  'undone in the database. Runs until SIGTERM or SIGINT (the transaction in progress finishes).\n' +
  'docs/sink.md: schema, example queries, operation.';

/** Help for `ombra sink`. */
export const sinkHelp = () => helpText(USAGE, SUMMARY, SINK_FLAGS);

/** HOST:PORT of --metrics-addr. */
function metricsAddr(v: string): { host: string; port: number } {
  const m = /^(.*):([0-9]{1,5})$/.exec(v);
  if (!m || Number(m[2]) > 65535) throw new UsageError('--metrics-addr must be HOST:PORT (e.g. 127.0.0.1:9465)');
  return { host: m[1].replace(/^\[|\]$/g, '') || '0.0.0.0', port: Number(m[2]) };
}

/** A progress bar per phase (fold, backfill), replaced when a phase starts again. */
function phaseBars(): { report(phase: 'fold' | 'backfill', done: number, total: number): void; stop(): void } {
  let bar: Progress | undefined;
  let current = '';
  return {
    report(phase, done, total) {
      if (phase !== current || !bar) {
        bar?.stop();
        bar = progress(phase === 'fold' ? 'sink: rebuilding state' : 'sink: backfill', total, { unit: 'blocks' });
        current = phase;
      }
      bar.update(done, total);
      if (done >= total) {
        bar.stop();
        bar = undefined;
      }
    },
    stop: () => bar?.stop(),
  };
}

/** Runs `ombra sink postgres` until SIGTERM/SIGINT (exit 0) or an error no retry fixes (exit 1). */
export async function sinkCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, SINK_FLAGS);
  const [target, ...rest] = positionals;
  if (target !== 'postgres')
    throw new UsageError(target ? `unknown sink ${target}; sinks: postgres` : 'name the sink: ombra sink postgres');
  if (rest.length) throw new UsageError(`unexpected argument ${rest[0]}`);
  const db = flags.db;
  if (typeof db !== 'string' || !/^postgres(ql)?:\/\//.test(db)) throw new UsageError('--db must be a postgres:// URL');
  const url = String(flags.url);
  if (!/^https?:\/\//.test(url)) throw new UsageError('--url must be an http(s) URL');
  const schema = String(flags.schema);
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new UsageError('--schema must be a lower-case SQL name: [a-z_][a-z0-9_]*');
  const bars = phaseBars();
  const log = (line: string) => process.stderr.write(`ombra sink: ${line}\n`);
  const sink = new Sink({
    ...SINK_DEFAULTS,
    url,
    apiKey: apiKeyFlag(flags),
    db,
    schema,
    fromHeight: intFlag(flags, 'from-height', 0, Number.MAX_SAFE_INTEGER),
    batchTxs: intFlag(flags, 'batch-txs', 100, 1_000_000) ?? SINK_DEFAULTS.batchTxs,
    log,
    onProgress: bars.report,
  });
  const addr = typeof flags['metrics-addr'] === 'string' ? metricsAddr(flags['metrics-addr']) : undefined;
  const metrics = addr ? await serveMetrics(sink.metrics, addr.host, addr.port) : undefined;
  if (metrics) log(`metrics on http://${addr?.host}:${metrics.port}/metrics`);
  const onSignal = () => sink.stop();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  log(`following ${url} into ${dbWhere(db)} schema ${schema}`);
  try {
    await sink.run();
    log('stopped');
    return 0;
  } catch (e) {
    if (!(e instanceof SinkError)) throw e;
    log(e.message);
    return 1;
  } finally {
    bars.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    metrics?.server.close();
  }
}
