/**
 * sink: `ombra sink postgres`'s backfill of a 200k-transfer chain (test/bench/scaleChain.ts) from
 * a node process into a fresh PostgreSQL cluster, in transactions a second, beside the same run's
 * baseline: psql `\copy` of the very rows the sink wrote (exported to files first) into an empty
 * copy of the schema, in one transaction. Then the live lag: a dev node under transfer traffic,
 * from each block's SSE event to the commit of its rows (p99 as the histogram bucket it falls in).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OmbraClient } from '../../client/reads.ts';
import { Wallet } from '../../client/signer.ts';
import { Sink } from '../../sink/sink.ts';
import { SINK_DEFAULTS } from '../../sink/sinkOptions.ts';
import { startNodeProcess } from '../helpers/nodeProcess.ts';
import { postgresBin, startPostgres } from '../helpers/postgresCluster.ts';
import { DEV_KEYS, tempDir } from '../helpers/testChain.ts';
import { scaleChain } from './scaleChain.ts';
import { addRow } from './table.ts';

const TABLES = ['blocks', 'transactions', 'transfers', 'balance_changes', 'accounts'];

/** Starts sinkNode.ts on `dir`; resolves with its URL once it serves. */
function serveChain(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [new URL('./sinkNode.ts', import.meta.url).pathname, dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, url: (JSON.parse(line) as { url: string }).url });
    });
    child.once('exit', (code) => reject(new Error(`the bench node exited (${code})`)));
  });
}

/** The backfill rate and its baseline; the live lag. */
export async function sinkBench(txs: number): Promise<void> {
  console.log(`sink: backfill of ${txs.toLocaleString('en')} transfers into PostgreSQL, then the live lag`);
  const pgc = await startPostgres('sink bench');
  if (!pgc) throw new Error('the sink bench needs PostgreSQL (apt-get install -y postgresql)');
  const work = mkdtempSync(join(tmpdir(), 'ombra-sink-bench-'));
  let node: { child: ChildProcess; url: string } | undefined;
  try {
    const { dir, built } = await scaleChain(txs);
    cpSync(dir, join(work, 'chain'), { recursive: true });
    node = await serveChain(join(work, 'chain'));
    console.log(`  node serving ${built.head} blocks at ${node.url}`);
    const lines: string[] = [];
    const sink = new Sink({ ...SINK_DEFAULTS, url: node.url, db: pgc.url, schema: 'ombra', log: (l) => lines.push(l) });
    const t0 = performance.now();
    const run = sink.run();
    for (;;) {
      const h = Number(pgc.tryPsql('SELECT height FROM ombra.sink_cursor') ?? -1);
      if (h >= built.head) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const sinkSeconds = (performance.now() - t0) / 1000;
    sink.stop();
    await run;
    // The baseline: the same rows, from files, by psql's \copy in one transaction.
    const bin = postgresBin() as string;
    for (const t of TABLES)
      execFileSync(join(bin, 'psql'), ['-X', '-q', '-d', pgc.url, '-c', `\\copy ombra.${t} TO '${join(work, `${t}.copy`)}'`]);
    pgc.psql('CREATE SCHEMA baseline');
    for (const t of TABLES) pgc.psql(`CREATE TABLE baseline.${t} (LIKE ombra.${t} INCLUDING ALL)`);
    const script = ['BEGIN;', ...TABLES.map((t) => `\\copy baseline.${t} FROM '${join(work, `${t}.copy`)}'`), 'COMMIT;'].join('\n');
    const b0 = performance.now();
    execFileSync(join(bin, 'psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', pgc.url], { input: script });
    const baseSeconds = (performance.now() - b0) / 1000;
    const rows = pgc.psql(`SELECT ${TABLES.map((t) => `(SELECT count(*) FROM ombra.${t})`).join(' + ')}`);
    const rate = txs / sinkSeconds;
    const baseRate = txs / baseSeconds;
    console.log(
      `  sink backfill: ${sinkSeconds.toFixed(1)} s (${Math.round(rate)} tx/s, ${rows} rows); psql \\copy of the same rows: ${baseSeconds.toFixed(1)} s`,
    );
    addRow({
      measure: `sink backfill, ${txs / 1000}k transfers into PostgreSQL`,
      node: `${Math.round(rate).toLocaleString('en')} tx/s (goal >= 20,000)`,
      baseline: `psql \\copy of the same ${rows} rows: ${Math.round(baseRate).toLocaleString('en')} tx/s`,
      ratio: rate / baseRate,
      goal: '>= 20,000 tx/s',
      met: rate >= 20_000,
    });
    node.child.kill('SIGTERM');
    node = undefined;
    await liveLag(pgc.url);
  } finally {
    node?.child.kill('SIGKILL');
    pgc.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** A dev node under transfer traffic for a while: the sink's commit lag after each block's SSE event. */
async function liveLag(db: string): Promise<void> {
  const data = tempDir('ombra-sink-lag-');
  const node = await startNodeProcess(['--dev', '--data-dir', data.dir, '--block-time-ms', '200'], {}, 60_000);
  const sink = new Sink({ ...SINK_DEFAULTS, url: node.url, db, schema: 'live', log: () => undefined });
  const run = sink.run();
  try {
    const wallets = DEV_KEYS.slice(1, 9).map((k) => new Wallet(new OmbraClient(node.url), k));
    const end = performance.now() + 15_000;
    let sent = 0;
    await Promise.all(
      wallets.map(async (w) => {
        while (performance.now() < end) {
          await w.send('TRANSFER', { to: DEV_KEYS[9].address, amount: '1000', fee: '1000' }).catch(() => undefined);
          sent++;
        }
      }),
    );
    const h = (await sink.metrics.commitLag.get()).values;
    const count = h.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
    const buckets = h.filter((v) => v.metricName?.endsWith('_bucket') && v.labels.le !== '+Inf');
    const p99 = buckets.find((b) => b.value >= 0.99 * count)?.labels.le;
    const sum = h.find((v) => v.metricName?.endsWith('_sum'))?.value ?? 0;
    const within = buckets.find((b) => b.labels.le === 0.25)?.value ?? 0;
    console.log(
      `  live: ${count} blocks (${sent} transfers sent), mean ${((sum / Math.max(1, count)) * 1000).toFixed(0)} ms, p99 <= ${p99} s, ${within}/${count} within 250 ms`,
    );
    addRow({
      measure: 'sink live lag, SSE event to commit (p99)',
      node: `<= ${Number(p99) * 1000} ms over ${count} blocks (mean ${((sum / Math.max(1, count)) * 1000).toFixed(0)} ms)`,
      baseline: '-',
      ratio: null,
      goal: 'p99 <= 250 ms',
      met: p99 !== undefined && Number(p99) <= 0.25,
    });
  } finally {
    sink.stop();
    await run;
    node.child.kill('SIGKILL');
    await node.exited;
    data.cleanup();
  }
}
