/**
 * A checkpoint with forged rows and its own digest, through real node processes: a follower
 * installed from it serves nothing it says (reads and transaction posts 503
 * CHECKPOINT_UNVERIFIED, health 503 `verifying`, so a balancer drains it), offers no checkpoint of
 * its own (no third node can be started from it), and, with no peer holding the history below it,
 * ends `failed` with a reason after the bounded wait instead of `verifying` forever; with its
 * checkpoint file deleted it is `failed` at once. `--serve-unverified` serves reads (health 200,
 * `checkpoint: "verifying"`) but still offers no checkpoint. Each step's observation is printed,
 * so the same attack on a node without these rules shows what it did.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../core/txCodec.ts';
import { REPO_ROOT, runCli } from '../../helpers/cliRun.ts';
import { type NodeProcess, startNodeProcess, waitFor } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS, tempDir } from '../../helpers/testChain.ts';

const tmp = tempDir('ombra-ckpt-trust-');
const GENESIS = join(tmp.dir, 'genesis.json');
writeFileSync(
  GENESIS,
  JSON.stringify({ ...JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures', 'dev-genesis.json'), 'utf8')), blockTimeMs: 200 }),
);
const nodes: NodeProcess[] = [];
const victim = DEV_KEYS[7];
const FORGED_BALANCE = '1000000000000000000';
const forged = join(tmp.dir, 'forged.ckpt');
let digest = '';
const get = async (url: string) => {
  const r = await fetch(url);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};
/** Waits (bounded) for the node's health to say `status`; the last answer either way. */
async function healthUntil(n: NodeProcess, status: string, ms: number) {
  let last = await get(`${n.url}/api/health`);
  await waitFor(async () => ((last = await get(`${n.url}/api/health`)).body.status === status ? true : undefined), ms, 200).catch(
    () => undefined,
  );
  return last;
}
/** `ombra start` of a follower on `dataDir` from the forged file, with no peer. */
const follower = (dataDir: string, env: Record<string, string> = {}) =>
  startNodeProcess(
    ['--genesis', GENESIS, '--data-dir', dataDir, '--rate-limits', 'off', '--from-checkpoint', forged, '--checkpoint-digest', digest],
    { OMBRA_CHECKPOINT_HISTORY_WAIT_MS: '3000', ...env },
  );

before(async () => {
  const source = join(tmp.dir, 'source');
  const dev = await startNodeProcess(['--dev', '--data-dir', source, '--block-time-ms', '200']);
  nodes.push(dev);
  await waitFor(async () => (((await get(`${dev.url}/api/chain/height`)).body.height as number) >= 6 ? true : undefined), 30_000);
  // A genuine checkpoint carrying the last 2 blocks (the rest is history from peers), then one row forged.
  const genuine = join(tmp.dir, 'genuine.ckpt');
  const r = await runCli(['snapshot', 'state', '--data-dir', source, '--out', genuine, '--suffix-blocks', '2']);
  assert.equal(r.code, 0, r.stderr);
  dev.child.kill('SIGTERM');
  await dev.exited;
  const text = gunzipSync(readFileSync(genuine)).toString('utf8');
  const edited = text
    .split('\n')
    .map((l) => (l.startsWith(`p:accounts\t"a:${victim.address}"`) ? l.replace(/"b":"\d+"/, `"b":"${FORGED_BALANCE}"`) : l))
    .join('\n');
  assert.notEqual(edited, text, 'the victim row was found and forged');
  writeFileSync(forged, gzipSync(edited));
  digest = createHash('sha256').update(readFileSync(forged)).digest('hex');
});

after(async () => {
  for (const n of nodes) n.child.kill('SIGKILL');
  tmp.cleanup();
});

test('a node from a forged checkpoint serves none of it, offers none of it, and fails its verification without history', async () => {
  const dataDir = join(tmp.dir, 'b');
  const b = await follower(dataDir);
  nodes.push(b);
  const health = await get(`${b.url}/api/health`);
  const balance = await get(`${b.url}/api/wallet/balance/${victim.address}`);
  const tx = signTx(
    {
      type: 'TRANSFER',
      from: victim.address,
      to: DEV_KEYS[8].address,
      amount: '100000000000000000',
      fee: '1000',
      nonce: 0,
      timestamp: Date.now(),
    },
    victim,
  );
  const post = await fetch(`${b.url}/api/chain/tx`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(tx),
  });
  const postBody = (await post.json()) as Record<string, unknown>;
  const offer = await get(`${b.url}/api/checkpoint`);
  let third = 'not attempted';
  if (offer.status === 200) {
    const c = await startNodeProcess([
      '--genesis',
      GENESIS,
      '--data-dir',
      join(tmp.dir, 'c'),
      '--checkpoint-url',
      `${b.url}${offer.body.url as string}`,
      '--checkpoint-digest',
      offer.body.digest as string,
    ]).catch((e: Error) => e);
    third =
      c instanceof Error
        ? `refused: ${c.message.slice(0, 200)}`
        : `installed and serving (health ${(await get(`${c.url}/api/health`)).status})`;
    if (!(c instanceof Error)) nodes.push(c);
  }
  // Nor can its operator export it by mistake (the admin socket of the running node).
  const exported = await runCli(['snapshot', 'state', '--data-dir', dataDir, '--out', join(tmp.dir, 'from-b.ckpt')]);
  const later = await healthUntil(b, 'failed', 60_000);
  console.log(
    `  forged: health ${health.status} ${JSON.stringify(health.body)}; balance ${balance.status} ${JSON.stringify(balance.body)}; ` +
      `transfer of 10^17 ${post.status} ${JSON.stringify(postBody).slice(0, 120)}; GET /api/checkpoint ${offer.status} ` +
      `${JSON.stringify(offer.body).slice(0, 160)}; a third node: ${third}; snapshot state exit ${exported.code}; health later ${later.status} ${JSON.stringify(later.body).slice(0, 300)}`,
  );
  assert.equal(health.status, 503);
  assert.ok(health.body.status === 'verifying' || health.body.status === 'failed', JSON.stringify(health.body));
  assert.equal(balance.status, 503);
  assert.equal(balance.body.code, 'CHECKPOINT_UNVERIFIED');
  assert.equal(post.status, 503);
  assert.equal(postBody.code, 'CHECKPOINT_UNVERIFIED');
  assert.equal(offer.status, 503);
  assert.equal(offer.body.code, 'CHECKPOINT_UNVERIFIED');
  assert.equal(third, 'not attempted');
  assert.equal(exported.code, 1, exported.stderr);
  assert.match(exported.stderr, /started from a checkpoint that is (verifying|failed), not verified/);
  assert.equal(later.status, 503);
  assert.equal(later.body.status, 'failed');
  assert.match(String(later.body.reason), /no peer served blocks 1\.\.\d+ below the checkpoint within 3000 ms/);

  // Restarted with its checkpoint file deleted: failed at once, naming the file.
  b.child.kill('SIGTERM');
  await b.exited;
  rmSync(join(dataDir, 'checkpoint.ckpt'));
  const again = await follower(dataDir, { OMBRA_CHECKPOINT_HISTORY_WAIT_MS: '600000' });
  nodes.push(again);
  const gone = await healthUntil(again, 'failed', 30_000);
  console.log(`  file deleted: health ${gone.status} ${JSON.stringify(gone.body).slice(0, 300)}`);
  assert.equal(gone.status, 503);
  assert.equal(gone.body.status, 'failed');
  assert.match(String(gone.body.reason), /checkpoint\.ckpt is gone/);
  assert.equal((await get(`${again.url}/api/wallet/balance/${victim.address}`)).status, 503);
  again.child.kill('SIGTERM');
  await again.exited;
});

test('--serve-unverified serves reads marked verifying in health, and still offers no checkpoint', async () => {
  const n = await follower(join(tmp.dir, 'd'), { OMBRA_SERVE_UNVERIFIED: '1', OMBRA_CHECKPOINT_HISTORY_WAIT_MS: '600000' });
  nodes.push(n);
  const health = await get(`${n.url}/api/health`);
  assert.equal(health.status, 200);
  assert.equal(health.body.checkpoint, 'verifying');
  assert.equal((await get(`${n.url}/api/wallet/balance/${victim.address}`)).status, 200);
  const offer = await get(`${n.url}/api/checkpoint`);
  assert.equal(offer.status, 503);
  assert.equal(offer.body.code, 'CHECKPOINT_NOT_READY');
  n.child.kill('SIGTERM');
  await n.exited;
});
