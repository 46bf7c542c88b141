/**
 * sink: `ombra sink postgres`'s backfill of a 200k-transfer chain (test/bench/scaleChain.ts) from
 * a node process into a fresh PostgreSQL cluster, in transactions a second, beside the same run's
 * baseline: psql `\copy` of the very rows the sink wrote (exported to files first) into an empty
 * copy of the schema, in one transaction. Then a restart at the head, from the state the sink
 * saved and (the baseline) with it removed. Then the live lag: a dev node under transfer traffic,
 * from each block's SSE event to the commit of its rows, beside a bare follower's (p99 of every
 * observation).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sink } from '../../sink/sink.ts';
import { SINK_DEFAULTS } from '../../sink/sinkOptions.ts';
import { type PgCluster, postgresBin, startPostgres } from '../helpers/postgresCluster.ts';
import { scaleChain } from './scaleChain.ts';
import { liveLag } from './sinkLive.ts';
import { addRow } from './table.ts';

const TABLES = ['blocks', 'transactions', 'transfers', 'balance_changes', 'accounts'];

/** CPU seconds of process `pid` so far (Linux /proc; clock ticks of 1/100 s). */
function procCpu(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(stat[11]) + Number(stat[12])) / 100;
}

/** bash `times` output `0m1.234s` as seconds. */
function minutes(m: string): number {
  const r = /^([0-9]+)m([0-9.]+)s$/.exec(m);
  return r ? Number(r[1]) * 60 + Number(r[2]) : 0;
}

/**
 * Resolves once process `pid` used under 20 ms of CPU in each of two 250 ms windows: a node that
 * serves may still be writing its read models of the chain (seconds of CPU on both cores), work
 * that is not the sink's and that a node in service has long finished.
 */
async function quiet(pid: number): Promise<void> {
  let calm = 0;
  while (calm < 2) {
    const c = procCpu(pid);
    await new Promise((r) => setTimeout(r, 250));
    calm = procCpu(pid) - c < 0.02 ? calm + 1 : 0;
  }
}

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
    await quiet(node.child.pid as number);
    console.log(`  node serving ${built.head} blocks at ${node.url} (idle)`);
    const lines: string[] = [];
    const sink = new Sink({ ...SINK_DEFAULTS, url: node.url, db: pgc.url, schema: 'ombra', log: (l) => lines.push(l) });
    const cpu0 = { sink: process.cpuUsage(), node: procCpu(node.child.pid as number), pg: pgc.cpuSeconds() };
    const t0 = performance.now();
    const run = sink.run();
    // Polled from the sink's own gauge: a psql poll would add its connections to the server's CPU.
    while ((await sink.metrics.height.get()).values[0]?.value !== built.head) await new Promise((r) => setTimeout(r, 10));
    const sinkSeconds = (performance.now() - t0) / 1000;
    const used = process.cpuUsage(cpu0.sink);
    const sinkCpu = {
      sink: (used.user + used.system) / 1e6,
      node: procCpu(node.child.pid as number) - cpu0.node,
      pg: pgc.cpuSeconds() - cpu0.pg,
    };
    // The folded state is saved on the side connection once the backfill is done: a restart starts from it.
    while ((await sink.metrics.stateHeight.get()).values[0]?.value !== built.head) await new Promise((r) => setTimeout(r, 10));
    const savedSeconds = (performance.now() - t0) / 1000 - sinkSeconds;
    sink.stop();
    await run;
    const restart = await restarts(node.url, pgc, built.head);
    console.log(
      `  state saved ${savedSeconds.toFixed(1)} s after the backfill; restart to the cursor: ${restart.saved.toFixed(2)} s from the saved state, ${restart.genesis.toFixed(2)} s refolding from genesis`,
    );
    addRow({
      measure: `sink restart at the head of ${txs / 1000}k transfers, to following again`,
      node: `${restart.saved.toFixed(2)} s (from the state saved at the cursor)`,
      baseline: `the same restart refolding from genesis: ${restart.genesis.toFixed(2)} s`,
      ratio: restart.saved / restart.genesis,
      goal: '-',
    });
    // The baseline: the same rows, from files, by psql's \copy in one transaction.
    const bin = postgresBin() as string;
    for (const t of TABLES)
      execFileSync(join(bin, 'psql'), ['-X', '-q', '-d', pgc.url, '-c', `\\copy ombra.${t} TO '${join(work, `${t}.copy`)}'`]);
    pgc.psql('CREATE SCHEMA baseline');
    for (const t of TABLES) pgc.psql(`CREATE TABLE baseline.${t} (LIKE ombra.${t} INCLUDING ALL)`);
    const script = ['BEGIN;', ...TABLES.map((t) => `\\copy baseline.${t} FROM '${join(work, `${t}.copy`)}'`), 'COMMIT;'].join('\n');
    writeFileSync(join(work, 'baseline.sql'), script);
    const pg0 = pgc.cpuSeconds();
    const b0 = performance.now();
    // bash's `times` prints its children's CPU (psql's) on its second line.
    const times = execFileSync(
      'bash',
      ['-c', `${join(bin, 'psql')} -X -q -v ON_ERROR_STOP=1 -d '${pgc.url}' -f '${join(work, 'baseline.sql')}' && times`],
      {
        encoding: 'utf8',
      },
    );
    const baseSeconds = (performance.now() - b0) / 1000;
    const psqlCpu = (times.trim().split('\n').pop() ?? '').split(/\s+/).reduce((a, m) => a + minutes(m), 0);
    const baseCpu = pgc.cpuSeconds() - pg0 + psqlCpu;
    const rows = pgc.psql(`SELECT ${TABLES.map((t) => `(SELECT count(*) FROM ombra.${t})`).join(' + ')}`);
    const rate = txs / sinkSeconds;
    const baseRate = txs / baseSeconds;
    const totalCpu = sinkCpu.sink + sinkCpu.node + sinkCpu.pg;
    console.log(
      `  sink backfill: ${sinkSeconds.toFixed(1)} s wall (${Math.round(rate)} tx/s, ${rows} rows); CPU s: sink ${sinkCpu.sink.toFixed(1)}, node ${sinkCpu.node.toFixed(1)}, PostgreSQL ${sinkCpu.pg.toFixed(1)}`,
    );
    console.log(
      `  psql \\copy of the same rows: ${baseSeconds.toFixed(1)} s wall (${Math.round(baseRate)} tx/s); CPU s: psql + PostgreSQL ${baseCpu.toFixed(1)}`,
    );
    addRow({
      measure: `sink backfill, ${txs / 1000}k transfers into PostgreSQL (wall)`,
      node: `${Math.round(rate).toLocaleString('en')} tx/s`,
      baseline: `psql \\copy of the same ${rows} rows: ${Math.round(baseRate).toLocaleString('en')} tx/s`,
      ratio: rate / baseRate,
      goal: '>= 20,000 tx/s',
      met: rate >= 20_000,
    });
    addRow({
      measure: 'sink backfill, transactions per CPU second (sink + node + PostgreSQL)',
      node: `${Math.round(txs / totalCpu).toLocaleString('en')} tx/CPU s (${totalCpu.toFixed(1)} CPU s)`,
      baseline: `psql \\copy: ${Math.round(txs / baseCpu).toLocaleString('en')} tx/CPU s (${baseCpu.toFixed(1)} CPU s)`,
      ratio: baseCpu / totalCpu,
      goal: '-',
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

/**
 * Seconds from a sink's start on a mirror at the node's head to its resume there: first with the
 * state the last run saved, then with that state removed (the sink refolds the chain from genesis).
 */
async function restarts(url: string, pgc: PgCluster, head: number): Promise<{ saved: number; genesis: number }> {
  const once = async () => {
    const lines: string[] = [];
    const sink = new Sink({ ...SINK_DEFAULTS, url, db: pgc.url, schema: 'ombra', log: (l) => lines.push(l) });
    const t0 = performance.now();
    const run = sink.run();
    while ((await sink.metrics.height.get()).values[0]?.value !== head) await new Promise((r) => setTimeout(r, 5));
    const seconds = (performance.now() - t0) / 1000;
    sink.stop();
    await run;
    return { seconds, loaded: lines.some((l) => /^state loaded as saved at height/.test(l)) };
  };
  const saved = await once();
  if (!saved.loaded) throw new Error('the restart did not load the saved state');
  pgc.psql('TRUNCATE ombra.sink_state_head');
  const genesis = await once();
  if (genesis.loaded) throw new Error('the restart without a saved state loaded one');
  return { saved: saved.seconds, genesis: genesis.seconds };
}
