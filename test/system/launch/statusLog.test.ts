/**
 * The info-level log of a running node: block lines batched per source (at most one a second),
 * a periodic status line, peers and sync start/end; and a dev node's JSON log carries them.
 */
import { Subject } from 'rxjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusLog } from '../../../launch/statusLog.ts';
import type { Logger } from '../../../node/log.ts';
import type { ChainEvent } from '../../../projections/events.ts';
import { startNodeProcess, waitFor } from '../../helpers/nodeProcess.ts';
import { tempDir } from '../../helpers/testChain.ts';

/** A logger that keeps its info lines. */
function recorder(): Logger & { lines: { msg: string; fields: Record<string, unknown> }[] } {
  const lines: { msg: string; fields: Record<string, unknown> }[] = [];
  const keep = (msg: string, fields: Record<string, unknown> = {}) => lines.push({ msg, fields });
  return { lines, info: keep, warn: keep, error: keep, debug: () => undefined };
}

/** A block event of `source` at `index` with `txs` transactions. */
const block = (index: number, txs: number, source: 'local' | 'peer' | 'replay' = 'peer'): ChainEvent =>
  ({ type: 'block', block: { index, transactions: new Array(txs) }, replay: source === 'replay', source }) as unknown as ChainEvent;

function rig(statusIntervalMs = 0) {
  const events$ = new Subject<ChainEvent>();
  let now = 1_000_000;
  const log = recorder();
  const ports = { feed: { events$ }, chain: { head: () => ({ index: 42 }) }, mempool: { size: 7 }, network: { peerCount: () => 3 } };
  const status = new StatusLog(ports, log, { statusIntervalMs, blockLineMs: 1000, clock: () => now });
  return { events$, log, status, tick: (ms: number) => (now += ms) };
}

test('a fast catch-up is a few batch lines with height, transactions and rates, not one line per block', async () => {
  const { events$, log, status, tick } = rig();
  await status.start();
  // 300 blocks of 10 transactions in 3 s: 100 blocks a second.
  for (let i = 1; i <= 300; i++) {
    events$.next(block(i, 10));
    tick(10);
  }
  await status.stop();
  const lines = log.lines.filter((l) => l.msg.startsWith('imported'));
  assert.ok(lines.length >= 3 && lines.length <= 5, `${lines.length} lines`);
  assert.equal(
    lines.reduce((n, l) => n + (l.fields.blocks as number), 0),
    300,
    'every block counted once',
  );
  assert.equal(lines.at(-1)!.fields.height, 300);
  const batch = lines.find((l) => (l.fields.blocks as number) > 50)!;
  assert.equal(batch.msg, 'imported blocks');
  assert.equal(batch.fields.txs, (batch.fields.blocks as number) * 10);
  assert.ok(Math.abs((batch.fields.blocksPerSecond as number) - 100) <= 2, String(batch.fields.blocksPerSecond));
});

test('produced and imported blocks are separate lines; replayed blocks are not logged', async () => {
  const { events$, log, status } = rig();
  await status.start();
  events$.next(block(1, 2, 'local'));
  events$.next(block(2, 0, 'peer'));
  events$.next(block(3, 0, 'replay'));
  await status.stop();
  assert.deepEqual(
    log.lines.map((l) => [l.msg, l.fields.height, l.fields.txs]),
    [
      ['produced block', 1, 2],
      ['imported block', 2, 0],
    ],
  );
});

test('the status line carries height, peers, mempool and rates over its interval', async () => {
  const { events$, log, status, tick } = rig(50);
  await status.start();
  events$.next(block(1, 4, 'local'));
  tick(2000);
  // The first status line, however late a loaded machine runs the 50 ms timer (a fixed 120 ms wait missed it).
  const line = await waitFor(async () => log.lines.find((l) => l.msg === 'status'));
  await status.stop();
  assert.deepEqual(line.fields, { height: 42, peers: 3, mempool: 7, blocksPerSecond: 0.5, txPerSecond: 2 });
});

test('peers joining and leaving, and a sync, are logged with their reason and extent', () => {
  const { log, status } = rig();
  status.peerChanged({ peer: 'p1', event: 'connect' });
  status.peerChanged({ peer: 'p1', event: 'disconnect', reason: 'banned' });
  status.syncProgress(10, 500);
  status.syncProgress(250, 500);
  status.syncProgress(500, 500);
  assert.deepEqual(
    log.lines.map((l) => l.msg),
    ['peer connected', 'peer disconnected', 'sync started', 'sync finished'],
  );
  assert.equal(log.lines[1].fields.reason, 'banned');
  assert.deepEqual(log.lines[3].fields, { height: 500, blocks: 490 });
});

test('a dev node logs its produced blocks and a status line in its JSON log at info, and no Node warning when the explorer is opened', async () => {
  const tmp = tempDir();
  const p = await startNodeProcess(['--dev', '--data-dir', tmp.dir, '--block-time-ms', '200', '--status-interval-ms', '300'], {
    OMBRA_LOG_FORMAT: 'json',
    OMBRA_LOG_LEVEL: 'info',
  });
  try {
    const records = () =>
      p
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const status = await waitFor(async () => records().find((r) => r.msg === 'status' && (r.height as number) > 0));
    for (const k of ['height', 'peers', 'mempool', 'blocksPerSecond', 'txPerSecond']) assert.equal(typeof status[k], 'number', k);
    const produced = await waitFor(async () => records().find((r) => r.msg === 'produced block'));
    assert.equal(typeof produced.height, 'number');
    assert.equal(typeof produced.txs, 'number');
    // Opening the explorer loads the browser client, whose types Node strips: no warning from Node.
    for (const path of ['/', '/explorer/app.ts', '/explorer/client/browser.ts', '/explorer/client/types.ts'])
      assert.equal((await fetch(`${p.url}${path}`)).status, 200, path);
    await new Promise((r) => setTimeout(r, 200));
    assert.doesNotMatch(p.stderr(), /Warning/);
  } finally {
    p.child.kill('SIGTERM');
    await p.exited;
    tmp.cleanup();
  }
});
