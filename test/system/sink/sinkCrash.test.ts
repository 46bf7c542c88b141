/**
 * Exactly once across crashes of every party: a dev node (a process) under transfer traffic, the
 * sink (a process, `ombra sink postgres`) and PostgreSQL (fsync on: an immediate stop then means
 * what a power cut means) are each killed at random moments, several times, and restarted. Then
 * the mirror must equal the node's API: every block once, the transaction count and the count per
 * type, every account's balance and nonce. The last sink is stopped with SIGTERM and exits 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { missing } from '../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { OmbraClient } from '../../../client/reads.ts';
import { Wallet } from '../../../client/signer.ts';
import { keyPairFromMnemonic } from '../../../core/keys.ts';
import { type NodeProcess, startNodeProcess, waitFor } from '../../helpers/nodeProcess.ts';
import { startPostgres } from '../../helpers/postgresCluster.ts';
import { checkMirror } from '../../helpers/sinkCheck.ts';
import { DEV_KEYS, tempDir } from '../../helpers/testChain.ts';

const BIN = fileURLToPath(new URL('../../../cli/bin.js', import.meta.url));

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** A small deterministic generator (mulberry32): the same kill schedule each run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('kill -9 of the sink, the node and PostgreSQL at random moments leaves every row exactly once', {
  skip: missing('postgresql'),
}, async () => {
  const pgc = await startPostgres('sink crash', { fsync: true });
  assert.ok(pgc, 'PostgreSQL started');
  const data = tempDir('ombra-sink-crash-');
  const port = await freePort();
  const nodeArgs = ['--dev', '--data-dir', data.dir, '--block-time-ms', '200', '--http-port', String(port)];
  let node: NodeProcess = await startNodeProcess(nodeArgs, {}, 60_000);
  let sink: ChildProcess | undefined;
  let sinkLog = '';
  const startSink = () => {
    sink = spawn(process.execPath, [BIN, 'sink', 'postgres', '--url', node.url, '--db', pgc.url], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    sink.stderr!.on('data', (d: Buffer) => (sinkLog += d.toString()));
  };
  const height = () => Number(pgc.tryPsql('SELECT height FROM ombra.sink_cursor') || -1);
  let sending = true;
  let sent = 0;
  const traffic = (async () => {
    const rnd = random(7);
    const wallets = DEV_KEYS.slice(1, 5).map((k) => new Wallet(new OmbraClient(node.url), k));
    while (sending) {
      const to = keyPairFromMnemonic('test test test test test test test test test test test junk', Math.floor(rnd() * 40)).address;
      try {
        await wallets[sent % wallets.length].send('TRANSFER', { to, amount: String(1000 + Math.floor(rnd() * 1e6)), fee: '1000' });
        sent++;
      } catch {
        await sleep(100); // the node is down: try again
      }
    }
  })();
  const kills = { sink: 0, node: 0, postgres: 0 };
  try {
    startSink();
    await waitFor(async () => (height() >= 5 ? true : undefined), 90_000);
    const rnd = random(42);
    for (const party of ['sink', 'postgres', 'node', 'sink', 'sink', 'postgres', 'node', 'sink'] as const) {
      await sleep(200 + Math.floor(rnd() * 1200));
      if (party === 'sink') {
        const exited = new Promise((r) => sink!.once('exit', r));
        sink!.kill('SIGKILL');
        await exited;
        startSink();
      } else if (party === 'node') {
        node.child.kill('SIGKILL');
        await node.exited;
        node = await startNodeProcess(nodeArgs, {}, 60_000);
      } else {
        pgc.crash();
        await sleep(Math.floor(rnd() * 500));
        pgc.start();
      }
      kills[party]++;
    }
    sending = false;
    await traffic;
    const client = new OmbraClient(node.url);
    await waitFor(async () => ((await client.http.get<{ total: number }>('/api/mempool')).total === 0 ? true : undefined), 90_000);
    const head = (await client.height()).height;
    await waitFor(async () => (height() >= head ? true : undefined), 60_000);
    const check = await checkMirror(pgc.url, 'ombra', node.url);
    assert.ok(check.txs >= sent && sent > 20, `${check.txs} transactions mirrored, ${sent} sent`);
    console.log(
      `  sink crash: killed sink ${kills.sink}x, node ${kills.node}x, postgres ${kills.postgres}x; ` +
        `mirror equal at height ${check.height}: ${check.txs} transactions, ${check.types} types, ${check.accounts} accounts`,
    );
    assert.match(sinkLog, /database unreachable at 127\.0\.0\.1/);
    const exited = new Promise<number | null>((r) => sink!.once('exit', (code) => r(code)));
    sink!.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.match(sinkLog, /ombra sink: stopped\n$/);
  } catch (e) {
    if (e instanceof Error) e.message += `\nsink log:\n${sinkLog.slice(-3000)}`;
    throw e;
  } finally {
    sending = false;
    sink?.kill('SIGKILL');
    node.child.kill('SIGKILL');
    await node.exited;
    pgc.stop();
    data.cleanup();
  }
});
