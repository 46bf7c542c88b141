/**
 * The sink bench's live half (test/bench/sink.ts): a dev node under transfer traffic, the sink's
 * lag from each block's SSE event to the commit of its rows, beside a bare follower's on the same
 * node, stream and database.
 */
import pg from 'pg';
import { OmbraClient } from '../../client/reads.ts';
import { Wallet } from '../../client/signer.ts';
import { Sink } from '../../sink/sink.ts';
import { SINK_DEFAULTS } from '../../sink/sinkOptions.ts';
import { startNodeProcess } from '../helpers/nodeProcess.ts';
import { DEV_KEYS, tempDir } from '../helpers/testChain.ts';
import { addRow } from './table.ts';

/** The p-th percentile (0..1) of `xs`, nearest rank. */
function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * The baseline of the live lag: the least any sink does per block, on the same node, stream and
 * database: read the block the event names, then commit one row (autocommit) on its own
 * connection, blocks one after another. Answers the lags (s) and a stop function.
 */
async function bareFollower(url: string, db: string): Promise<{ lags: number[]; stop(): Promise<void> }> {
  const conn = new pg.Client({ connectionString: db });
  await conn.connect();
  await conn.query('CREATE TABLE IF NOT EXISTS bench_lag (height bigint, hash text)');
  const client = new OmbraClient(url);
  const lags: number[] = [];
  const ctl = new AbortController();
  let chain = Promise.resolve();
  const sub = client.subscribe({
    signal: ctl.signal,
    onEvent: (e) => {
      const index = (e.data as { index?: unknown }).index;
      if (e.event !== 'block' || typeof index !== 'number') return;
      const seen = performance.now();
      chain = chain.then(async () => {
        const [b] = (await client.blocksRange(index, index)).blocks;
        await conn.query('INSERT INTO bench_lag VALUES ($1, $2)', [index, b?.hash]);
        lags.push((performance.now() - seen) / 1000);
      });
    },
  });
  return {
    lags,
    stop: async () => {
      ctl.abort();
      await sub;
      await chain.catch(() => undefined);
      await conn.end();
    },
  };
}

/**
 * A dev node under transfer traffic for 30 s: the sink's commit lag after each block's SSE event,
 * beside a bare follower's (bareFollower) in the same run. The rollups are refreshed and the state
 * saved every 5 s meanwhile (60 s by default), so the side connection's work falls in the window.
 */
export async function liveLag(db: string): Promise<void> {
  const data = tempDir('ombra-sink-lag-');
  const node = await startNodeProcess(['--dev', '--data-dir', data.dir, '--block-time-ms', '200'], {}, 60_000);
  // Every observation, besides the histogram's buckets: the p99 itself.
  const samples: number[] = [];
  const sink = new Sink({
    ...SINK_DEFAULTS,
    url: node.url,
    db,
    schema: 'live',
    rollupRefreshMs: 5000,
    stateSaveMs: 5000,
    log: () => undefined,
    onCommitLag: (s) => samples.push(s),
  });
  const run = sink.run();
  const bare = await bareFollower(node.url, db);
  try {
    const wallets = DEV_KEYS.slice(1, 9).map((k) => new Wallet(new OmbraClient(node.url), k));
    const end = performance.now() + 30_000;
    let sent = 0;
    await Promise.all(
      wallets.map(async (w) => {
        while (performance.now() < end) {
          await w.send('TRANSFER', { to: DEV_KEYS[9].address, amount: '1000', fee: '1000' }).catch(() => undefined);
          sent++;
        }
      }),
    );
    const p99 = percentile(samples, 0.99);
    const bareP99 = percentile(bare.lags, 0.99);
    const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)) * 1000;
    const within = samples.filter((v) => v <= 0.25).length;
    console.log(
      `  live: ${samples.length} blocks (${sent} transfers sent), mean ${mean(samples).toFixed(0)} ms, p99 ${(p99 * 1000).toFixed(0)} ms, max ${(Math.max(...samples) * 1000).toFixed(0)} ms, ${within}/${samples.length} within 250 ms; bare follower: mean ${mean(bare.lags).toFixed(0)} ms, p99 ${(bareP99 * 1000).toFixed(0)} ms`,
    );
    addRow({
      measure: 'sink live lag, SSE event to commit (p99)',
      node: `${(p99 * 1000).toFixed(0)} ms over ${samples.length} blocks (mean ${mean(samples).toFixed(0)} ms)`,
      baseline: `bare follower (read the block, commit a row): p99 ${(bareP99 * 1000).toFixed(0)} ms`,
      ratio: p99 / bareP99,
      goal: 'p99 <= 250 ms',
      met: p99 <= 0.25,
    });
  } finally {
    await bare.stop();
    sink.stop();
    await run;
    node.child.kill('SIGKILL');
    await node.exited;
    data.cleanup();
  }
}
