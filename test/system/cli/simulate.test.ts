import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGenesis } from '../../../core/genesis.ts';
import { sumBalances } from '../../../core/state.ts';
import { TX_HANDLERS } from '../../../core/tx/registry.ts';
import { devGenesis } from '../../../cli/start/genesisFile.ts';
import { launch } from '../../../launch/launch.ts';
import { SimClient } from '../../../simulator/simClient.ts';
import { Simulator } from '../../../simulator/simulator.ts';
import { OmbraNode } from '../../../node/node.ts';
import { DEV_KEYS, tempDir } from '../../helpers/testChain.ts';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { startNodeProcess, waitFor } from '../../helpers/nodeProcess.ts';
import { REPO_ROOT } from '../../helpers/cliRun.ts';

const FIXTURE = new URL('../../../fixtures/simulated-chain.ndjson', import.meta.url);
/** What brings the fixture up to date (cli/fixtures.ts). */
const RECORD = 're-record it with `npm run fixtures`';

test('the recorded simulated chain imports block by block and its read models equal a full rebuild', async () => {
  const lines = readFileSync(FIXTURE, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const genesis = parseGenesis(lines[0].genesis);
  const blocks = lines.slice(1);
  const types = new Set(blocks.flatMap((b: { transactions: { type: string }[] }) => b.transactions.map((x) => x.type)));
  const executed = [...TX_HANDLERS.values()]
    .filter((h) => h.schema.type !== 'BURN' && h.schema.type !== 'STORAGE_TRANSFER')
    .map((h) => h.schema.type);
  assert.deepEqual(
    executed.filter((x) => !types.has(x)),
    [],
    `the fixture exercises every type the simulator sends: a type is missing, so the fixture is stale; ${RECORD}`,
  );
  const tmp = tempDir();
  const node = await OmbraNode.open({ dbDir: join(tmp.dir, 'db'), genesis });
  try {
    assert.equal(node.head().hash, blocks[0].hash);
    for (const b of blocks.slice(1))
      await node.importBlock(b).catch((e: Error) => {
        throw new Error(`block ${b.index} of the fixture no longer imports (${e.message}): the fixture is stale; ${RECORD}`);
      });
    assert.equal(node.head().hash, blocks.at(-1).hash);
    const s = node.state();
    assert.equal(sumBalances(s) + s.supply.escrow + s.supply.burned, s.supply.emitted);
    const incremental = await node.runner.dump();
    await node.runner.resetAll();
    await node.catchUp(undefined, { verifySignatures: true });
    assert.deepEqual(await node.runner.dump(), incremental);
  } finally {
    await node.stop();
    tmp.cleanup();
  }
});

test('a short simulation drives a live dev node through every pipeline without a refusal', async () => {
  const tmp = tempDir();
  const node = await launch({
    dataDir: tmp.dir,
    genesis: devGenesis(200),
    key: DEV_KEYS[0],
    dev: true,
    httpHost: '127.0.0.1',
    httpPort: 0,
  });
  try {
    const client = new SimClient(node.url, DEV_KEYS);
    const sim = new Simulator(client, 1);
    const pipelines = [
      'MINER_REGISTER',
      'TRANSFER',
      'TASK_SUBMIT',
      'TASK_RESPONSE',
      'TASK_VALIDATE',
      'CHAT_TURN',
      'AGENT_REQUEST',
      'SOCIAL_POST_CREATE',
      'WEB_SITE_REGISTER',
      'WEB_FILE_CHUNK',
      'WEB_RELEASE_ACTIVATE',
      'STORAGE_TRANSFER',
    ];
    const unsent = () => pipelines.filter((type) => !client.counts.sent[type]);
    // Until every pipeline got that far (a loaded machine takes longer), with a bound for a stuck one.
    await sim.run(Date.now() + 90_000, 100, () => unsent().length === 0);
    assert.deepEqual(
      unsent(),
      [],
      `every pipeline reached (refused: ${JSON.stringify(client.counts.refused)}; log: ${sim.log.slice(-5).join('; ')})`,
    );
    assert.deepEqual(client.counts.refused, {});
    const s = node.node.state();
    assert.equal(sumBalances(s) + s.supply.escrow + s.supply.burned, s.supply.emitted);
    assert.ok(s.records.tasks.size > 0 && s.records.runs.size > 0);
  } finally {
    await node.stop();
    tmp.cleanup();
  }
});

/** A loopback TCP port free right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Transactions the simulator's transfer wallets have sent and the node knows of (mined or pending). */
async function sentSoFar(url: string): Promise<number> {
  let n = 0;
  for (const i of [1, 7, 8, 9]) {
    const res = await fetch(`${url}/api/chain/account/${DEV_KEYS[i].address}`);
    n += ((await res.json()) as { nextNonce: number }).nextNonce;
  }
  return n;
}

test('`ombra simulate` waits for a node that goes away, says so on stderr, and goes on when it is back', async () => {
  const tmp = tempDir();
  const port = await freePort();
  const args = ['--dev', '--data-dir', tmp.dir, '--http-port', String(port), '--block-time-ms', '300'];
  let node = await startNodeProcess(args);
  const sim = spawn(process.execPath, ['cli/bin.js', 'simulate', '--url', node.url, '--seconds', '60', '--json'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  sim.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  sim.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<number | null>((resolve) => sim.once('close', (code) => resolve(code)));
  let simCode: number | null | undefined;
  void exited.then((c) => (simCode = c));
  try {
    await waitFor(async () => ((await sentSoFar(node.url)) > 0 ? true : undefined), 30_000, 200);
    node.child.kill('SIGTERM');
    await node.exited;
    // The simulator notices, and is still running.
    await waitFor(async () => (/waiting for it/.test(err) || simCode !== undefined ? true : undefined), 20_000, 100);
    assert.equal(simCode, undefined, `the simulator is still running after the node went away:\n${err}`);
    assert.match(err, /ombra simulate: cannot reach the node at .*; waiting for it/);
    node = await startNodeProcess(args);
    const before = await sentSoFar(node.url);
    await waitFor(async () => (/answers again after/.test(err) ? true : undefined), 30_000, 100);
    // It goes on sending to the node that came back.
    await waitFor(async () => ((await sentSoFar(node.url)) > before ? true : undefined), 30_000, 200);
    const code = await exited;
    assert.equal(code, 0, err);
    const summary = JSON.parse(out) as { outages: { count: number; ms: number } };
    assert.ok(summary.outages.count >= 1, JSON.stringify(summary.outages));
  } finally {
    if (simCode === undefined) sim.kill('SIGKILL');
    node.child.kill('SIGTERM');
    await node.exited;
    tmp.cleanup();
  }
});
