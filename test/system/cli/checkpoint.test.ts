/**
 * Checkpoints through the real CLI and real processes: `ombra snapshot state` of a running node
 * (admin socket) and of a stopped one, a follower started from another node's /api/checkpoint
 * with `--checkpoint-url`, and the refusals: a wrong digest, a non-empty data dir, bad flags.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { REPO_ROOT, runCli } from '../../helpers/cliRun.ts';
import { type NodeProcess, startNodeProcess, waitFor } from '../../helpers/nodeProcess.ts';
import { tempDir } from '../../helpers/testChain.ts';

const tmp = tempDir('ombra-cli-checkpoint-');
// The dev chain below runs 200 ms slots: its genesis, as a follower must be given it.
const GENESIS = join(tmp.dir, 'genesis.json');
writeFileSync(
  GENESIS,
  JSON.stringify({ ...JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures', 'dev-genesis.json'), 'utf8')), blockTimeMs: 200 }),
);
const source = join(tmp.dir, 'source');
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const json = async (url: string) => (await fetch(url)).json() as Promise<Record<string, unknown>>;
const nodes: NodeProcess[] = [];
/** `ombra start` on `dataDir` from the online checkpoint file with `digest`. */
const startFrom = (dataDir: string, digest: string) =>
  runCli([
    'start',
    '--genesis',
    GENESIS,
    '--data-dir',
    dataDir,
    '--http-port',
    '0',
    '--p2p-port',
    '0',
    '--from-checkpoint',
    online.file,
    '--checkpoint-digest',
    digest,
  ]);
let dev: NodeProcess;
let online = { file: join(tmp.dir, 'online.ckpt'), height: 0, digest: '' };

before(async () => {
  dev = await startNodeProcess(['--dev', '--data-dir', source, '--block-time-ms', '200']);
  nodes.push(dev);
  await waitFor(async () => (((await json(`${dev.url}/api/chain/height`)).height as number) >= 5 ? true : undefined), 20_000);
});

after(async () => {
  for (const n of nodes) n.child.kill('SIGKILL');
  tmp.cleanup();
});

test('snapshot state of a running node streams a checkpoint through its admin socket and prints height and digest', async () => {
  const r = await runCli(['snapshot', 'state', '--data-dir', source, '--out', online.file, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const printed = JSON.parse(r.stdout) as { height: number; digest: string; bytes: number };
  assert.ok(printed.height >= 5);
  assert.equal(printed.digest, sha256(online.file));
  assert.equal(printed.bytes, readFileSync(online.file).length);
  assert.ok(!existsSync(`${online.file}.tmp`));
  online = { ...online, height: printed.height, digest: printed.digest };
});

test('start refuses a checkpoint whose digest differs, naming both, and writes nothing', async () => {
  const dataDir = join(tmp.dir, 'refused');
  const wrong = 'ab'.repeat(32);
  const r = await startFrom(dataDir, wrong);
  assert.equal(r.code, 1, r.stderr);
  const line = r.stderr
    .trim()
    .split('\n')
    .filter((l) => /digest/.test(l));
  assert.equal(line.length, 1, r.stderr);
  assert.match(line[0], literal(wrong));
  assert.match(line[0], literal(online.digest));
  assert.equal(line[0], `ombra start: checkpoint digest mismatch: expected ${wrong}, the file's is ${online.digest}`);
  assert.ok(!existsSync(join(dataDir, 'db')));
});

test('start refuses to install a checkpoint into a data dir that is not empty', async () => {
  const dataDir = join(tmp.dir, 'busy');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'notes.txt'), 'mine');
  const r = await startFrom(dataDir, online.digest);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /is not empty: a checkpoint is installed only into an empty data dir/);
  assert.deepEqual(readdirSync(dataDir), ['notes.txt']);
});

test('bad checkpoint flags are usage errors', async () => {
  const base = ['start', '--genesis', GENESIS, '--data-dir', join(tmp.dir, 'flags')];
  const cases: [string[], RegExp][] = [
    [['--from-checkpoint', online.file], /needs --checkpoint-digest/],
    [['--checkpoint-digest', online.digest], /goes with --from-checkpoint/],
    [['--from-checkpoint', online.file, '--checkpoint-digest', 'xyz'], /64 hex digits/],
    [['--from-checkpoint', online.file, '--checkpoint-url', 'http://127.0.0.1:1/x', '--checkpoint-digest', online.digest], /exclusive/],
    [['--checkpoint-url', 'ftp://host/x', '--checkpoint-digest', online.digest], /http:\/\/ or https:\/\//],
  ];
  for (const [flags, message] of cases) {
    const r = await runCli([...base, ...flags]);
    assert.equal(r.code, 2, `${flags.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, literal(message));
  }
  const state = await runCli(['snapshot', 'state', '--data-dir', source]);
  assert.equal(state.code, 2);
  assert.match(state.stderr, /--out is required/);
});

test("a follower started from another node's /api/checkpoint serves at its height, follows and verifies it", async () => {
  // Built by the node in the background after it started, never by the request.
  const offer = await waitFor(async () => {
    const r = await fetch(`${dev.url}/api/checkpoint`);
    return r.status === 200 ? ((await r.json()) as Record<string, unknown>) : undefined;
  });
  assert.equal(typeof offer.digest, 'string');
  const peers = JSON.parse((await runCli(['peers', '--data-dir', source, '--json'])).stdout) as { addresses: string[]; peerId: string };
  const addr = peers.addresses.find((a) => a.includes('/tcp/')) ?? '';
  const peer = addr.includes('/p2p/') ? addr : `${addr}/p2p/${peers.peerId}`;
  const dataDir = join(tmp.dir, 'follower');
  const f = await startNodeProcess([
    '--genesis',
    GENESIS,
    '--data-dir',
    dataDir,
    '--rate-limits',
    'off',
    '--peer',
    peer,
    '--checkpoint-url',
    `${dev.url}${offer.url as string}`,
    '--checkpoint-digest',
    offer.digest as string,
  ]);
  nodes.push(f);
  assert.match(f.stderr(), /checkpoint installed/);
  // Until verified it answers health 503 `verifying` (a balancer drains it) and serves no reads.
  const first = await fetch(`${f.url}/api/health`);
  const firstBody = (await first.json()) as Record<string, unknown>;
  assert.ok((firstBody.height as number) >= (offer.height as number), JSON.stringify(firstBody));
  if (firstBody.checkpoint === 'verifying') assert.equal(first.status, 503);
  await waitFor(async () => ((await json(`${f.url}/api/health`)).checkpoint === 'verified' ? true : undefined), 180_000, 250);
  const devHeight = (await json(`${dev.url}/api/chain/height`)).height as number;
  await waitFor(async () => (((await json(`${f.url}/api/chain/height`)).height as number) >= devHeight ? true : undefined), 20_000);
});

test('snapshot state of a stopped data dir writes the same kind of checkpoint', async () => {
  dev.child.kill('SIGTERM');
  await dev.exited;
  const out = join(tmp.dir, 'offline.ckpt');
  const r = await runCli(['snapshot', 'state', '--data-dir', source, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, literal(new RegExp(`digest ${sha256(out)}`)));
});
