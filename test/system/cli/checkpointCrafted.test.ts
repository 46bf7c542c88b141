/**
 * Crafted checkpoint files through `ombra start --from-checkpoint` (real processes), each with a
 * digest of its own (the operator trusts it; the file must still not hurt the node): one endless
 * line (a 256 MiB line compressed to ~260 KB) is refused at the line cap instead of gathered whole;
 * a row that is not JSON, or an account row of the wrong shape, is refused while installing and
 * leaves nothing; and a `kill -9` in the middle of an install leaves a data dir the same command
 * installs into.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { ChainStore } from '../../../node/store/chainStore.ts';
import { writeCheckpoint } from '../../../checkpoint/checkpointExport.ts';
import { runCli } from '../../helpers/cliRun.ts';
import { startNodeProcess, waitFor } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS, openTestChain, tempDir } from '../../helpers/testChain.ts';
import { spawn } from 'node:child_process';
import { REPO_ROOT } from '../../helpers/cliRun.ts';

const tmp = tempDir('ombra-ckpt-crafted-');
const GENESIS = join(tmp.dir, 'genesis.json');
let genuine = '';
const digestOf = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
/** Writes the checkpoint `lines` (gzip) to `name` and gives its path and digest. */
function craft(name: string, text: string): { file: string; digest: string } {
  const file = join(tmp.dir, name);
  writeFileSync(file, gzipSync(text));
  return { file, digest: digestOf(file) };
}
const startArgs = (dataDir: string, c: { file: string; digest: string }) => [
  'start',
  '--genesis',
  GENESIS,
  '--data-dir',
  dataDir,
  '--http-port',
  '0',
  '--p2p-port',
  '0',
  '--metrics-addr',
  '127.0.0.1:0',
  '--from-checkpoint',
  c.file,
  '--checkpoint-digest',
  c.digest,
];

before(async () => {
  const c = await openTestChain({ dir: join(tmp.dir, 'source'), clock: Date.now() - 3_600_000 });
  for (let i = 0; i < 4; i++) {
    await c.node.submitTx(c.transfer(1, DEV_KEYS[6].address, 1000n));
    await c.produce();
  }
  writeFileSync(GENESIS, JSON.stringify(c.genesis));
  await c.close();
  const store = await ChainStore.open(join(tmp.dir, 'source', 'db'));
  const file = join(tmp.dir, 'genuine.ckpt');
  await writeCheckpoint(store, store.db.snapshot(), file);
  await store.close();
  genuine = gunzipSync(readFileSync(file)).toString('utf8');
});

after(() => tmp.cleanup());

test('one endless line is refused at the line cap, quickly, and leaves nothing', async () => {
  const bomb = craft('bomb.ckpt', `{"ombraCheckpoint":2,"pad":"${'A'.repeat(256 * 2 ** 20)}"}\n`);
  const dataDir = join(tmp.dir, 'bomb');
  const started = Date.now();
  const r = await runCli(startArgs(dataDir, bomb), { timeoutMs: 300_000 });
  console.log(
    `  a ${readFileSync(bomb.file).length} byte file of one 256 MiB line: exit ${r.code} after ${(Date.now() - started) / 1000} s`,
  );
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /a line of the checkpoint is longer than 67108864 bytes/);
  assert.deepEqual(readdirSync(dataDir), []);
});

test('a row that is not JSON, or an account row of the wrong shape, is refused while installing and leaves nothing', async () => {
  const victim = `p:accounts\t"a:${DEV_KEYS[6].address}"\t`;
  assert.ok(genuine.includes(victim));
  const cases: [string, string, RegExp][] = [
    ['not-json', '{"b":"1",', /\(p:accounts a:ox[0-9a-f]+\) is not JSON/],
    ['bad-shape', '{"b":"lots","n":0,"c":"0","u":"0"}', /\(p:accounts a:ox[0-9a-f]+\) is malformed: an amount is not a decimal string/],
  ];
  for (const [name, value, message] of cases) {
    const text = genuine
      .split('\n')
      .map((l) => (l.startsWith(victim) ? victim + value : l))
      .join('\n');
    const dataDir = join(tmp.dir, name);
    const r = await runCli(startArgs(dataDir, craft(`${name}.ckpt`, text)), { timeoutMs: 120_000 });
    assert.equal(r.code, 1, `${name}: ${r.stderr}`);
    assert.match(r.stderr, literal(message));
    assert.doesNotMatch(r.stderr, /node serving/);
    assert.deepEqual(readdirSync(dataDir), [], name);
  }
});

test('a kill -9 in the middle of an install leaves a data dir the same command installs into', async () => {
  // The genuine rows and 400,000 more model rows: an install that takes long enough to be cut.
  const lines = genuine.trimEnd().split('\n');
  const end = lines.pop() ?? '';
  const rows = Number((JSON.parse(end) as { end: number }).end);
  const pad = Array.from({ length: 400_000 }, (_, i) => `p:chat\t"zz:${String(i).padStart(8, '0')}"\t{}`);
  const big = craft('big.ckpt', `${[...lines, ...pad, JSON.stringify({ end: rows + pad.length })].join('\n')}\n`);
  const dataDir = join(tmp.dir, 'killed');
  const child = spawn(process.execPath, ['cli/bin.js', ...startArgs(dataDir, big)], { cwd: REPO_ROOT, stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  // As soon as the install has written something, the process dies without a chance to clean up.
  await waitFor(async () => (existsSync(join(dataDir, 'db')) || existsSync(join(dataDir, 'db.installing')) ? true : undefined), 60_000, 5);
  child.kill('SIGKILL');
  await exited;
  console.log(`  killed mid-install, the data dir holds ${JSON.stringify(readdirSync(dataDir))}`);
  const again = await startNodeProcess(startArgs(dataDir, big).slice(1), {}, 120_000);
  again.child.kill('SIGTERM');
  await again.exited;
  assert.match(again.stderr(), /checkpoint installed/);
});
