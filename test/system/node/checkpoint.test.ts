/**
 * Checkpoints end to end on loopback: a follower installed from a checkpoint of another node's
 * chain serves at the checkpoint's height at once, follows the network, fetches the history
 * below it from its peer and verifies it, serving reads once verified; a checkpoint whose state was
 * edited (its digest valid) serves nothing, is found out by that verification, and the node keeps
 * refusing reads. Both outcomes survive a restart.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { installFromSource } from '../../../launch/checkpointStart.ts';
import { checkpointSourceOf } from '../../../cli/start/checkpointFlags.ts';
import { launch, type Launched } from '../../../launch/launch.ts';
import { ChainStore } from '../../../node/store/chainStore.ts';
import { fileDigest } from '../../../checkpoint/checkpointFile.ts';
import { checkpointRecord } from '../../../checkpoint/checkpointRecord.ts';
import { writeCheckpoint } from '../../../checkpoint/checkpointExport.ts';
import { createLogger, silentLogger } from '../../../node/log.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS, fixtureGenesis, openTestChain, tempDir } from '../../helpers/testChain.ts';

const genesis = fixtureGenesis();
const tmp = tempDir('ombra-checkpoint-');
const source = join(tmp.dir, 'source');
const file = join(tmp.dir, 'state.ckpt');
let checkpoint = { height: 0, digest: '' };
let served: Launched | null = null;
const running: Launched[] = [];

/** Launches a follower on `dataDir` dialling the source node. */
async function follower(dataDir: string, serveUnverified = false): Promise<Launched> {
  const peer = served?.p2p?.addresses()[0] ?? '';
  const n = await launch({
    dataDir,
    genesis,
    serveUnverified,
    dev: false,
    httpHost: '127.0.0.1',
    httpPort: 0,
    p2p: { host: '127.0.0.1', port: 0, peers: [peer], syncIntervalMs: 200, redialIntervalMs: 200 },
  });
  running.push(n);
  return n;
}

const get = (n: Launched, path: string) => fetch(`${n.url}${path}`);
/** The answer to a WebSocket upgrade at `path` that was refused (an opened socket fails the test). */
function upgradeRefusal(n: Launched, path: string): Promise<{ status: number; code: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${n.url.replace(/^http/, 'ws')}${path}`);
    ws.once('open', () => {
      ws.close();
      reject(new Error(`the WebSocket at ${path} was opened`));
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, code: (JSON.parse(body) as { code: string }).code }));
    });
    ws.once('error', reject);
  });
}

const health = async (n: Launched) => (await get(n, '/api/health')).json() as Promise<Record<string, unknown>>;

before(async () => {
  // 30 blocks of transfers, a checkpoint of them carrying the last 5, then 5 blocks more.
  const c = await openTestChain({ dir: source, clock: Date.now() - 3_600_000 });
  for (let i = 0; i < 30; i++) {
    await c.node.submitTx(c.transfer(1 + (i % 5), DEV_KEYS[6 + (i % 3)].address, 1000n + BigInt(i)));
    await c.produce();
  }
  await c.close();
  const store = await ChainStore.open(join(source, 'db'));
  checkpoint = await writeCheckpoint(store, store.db.snapshot(), file, { suffixBlocks: 5 });
  await store.close();
  const more = await openTestChain({ dir: source, clock: Date.now() - 1_800_000 });
  for (let i = 0; i < 5; i++) {
    await more.node.submitTx(more.transfer(2, DEV_KEYS[7].address, 7n));
    await more.produce();
  }
  await more.close();
  served = await launch({ dataDir: source, genesis, dev: false, httpHost: '127.0.0.1', httpPort: 0, p2p: { host: '127.0.0.1', port: 0 } });
});

after(async () => {
  for (const n of running) await n.stop().catch(() => undefined);
  await served?.stop();
  tmp.cleanup();
});

test('the checkpoint file carries the height and a digest of its own bytes', async () => {
  assert.equal(checkpoint.height, 30);
  assert.equal(await fileDigest(file), checkpoint.digest);
});

test('a follower from the checkpoint serves at its height at once, follows, then verifies it', async () => {
  const dir = join(tmp.dir, 'follower');
  const src = checkpointSourceOf({ 'from-checkpoint': file, 'checkpoint-digest': checkpoint.digest.toUpperCase() });
  assert.ok(src);
  await installFromSource(src, dir, genesis, silentLogger);
  const n = await follower(dir);
  assert.ok(n.node.head().index >= 30);
  const first = await health(n);
  assert.ok(first.checkpoint === 'verifying' || first.checkpoint === 'verified', JSON.stringify(first));
  await waitFor(async () => (n.node.head().index >= 35 ? true : undefined), 20_000);
  await waitFor(async () => ((await health(n)).checkpoint === 'verified' ? true : undefined), 180_000, 200);
  // Reads are served once it is verified (until then they answer 503 CHECKPOINT_UNVERIFIED).
  assert.equal((await get(n, `/api/wallet/balance/${DEV_KEYS[6].address}`)).status, 200);
  assert.equal((await get(n, '/api/health')).status, 200);
  // The history below the checkpoint was fetched from the peer and is served now.
  const old = await get(n, '/api/chain/block/3');
  assert.equal(old.status, 200);
  assert.equal(((await old.json()) as { index: number }).index, 3);
  const metrics = await (await get(n, '/metrics')).text();
  assert.match(metrics, /ombra_checkpoint_status\{status="verified"\} 1/);
  // Verified stays verified across a restart (no replay runs again).
  await n.stop();
  const again = await follower(dir);
  assert.equal((await health(again)).checkpoint, 'verified');
});

test('without a peer holding history, blocks below the checkpoint answer a clear 404 and those in it are served (--serve-unverified)', async () => {
  const dir = join(tmp.dir, 'alone');
  await installFromSource({ file, digest: checkpoint.digest }, dir, genesis, silentLogger);
  const n = await launch({
    dataDir: dir,
    genesis,
    serveUnverified: true,
    dev: false,
    httpHost: '127.0.0.1',
    httpPort: 0,
    p2p: { host: '127.0.0.1', port: 0 },
  });
  running.push(n);
  assert.equal((await health(n)).checkpoint, 'verifying');
  const below = await get(n, '/api/chain/block/3');
  assert.equal(below.status, 404);
  const body = (await below.json()) as { error: string; code: string };
  assert.equal(body.code, 'NOT_FOUND');
  assert.match(body.error, /block 3 is below this node's checkpoint: it holds blocks from 26 on/);
  assert.equal((await get(n, '/api/chain/block/27')).status, 200);
  assert.equal((await get(n, '/api/chain/block/0')).status, 200);
  await n.stop();
});

test('a node asking a checkpoint-started peer for blocks below its checkpoint is refused, strikes no one and syncs from another', async () => {
  const dir = join(tmp.dir, 'refusing');
  await installFromSource({ file, digest: checkpoint.digest }, dir, genesis, silentLogger);
  const a = await launch({ dataDir: dir, genesis, dev: false, httpHost: '127.0.0.1', httpPort: 0, p2p: { host: '127.0.0.1', port: 0 } });
  running.push(a);
  const lines: string[] = [];
  const b = await launch({
    dataDir: join(tmp.dir, 'asker'),
    genesis,
    dev: false,
    httpHost: '127.0.0.1',
    httpPort: 0,
    log: createLogger('debug', (l) => lines.push(l), 'json'),
    p2p: { host: '127.0.0.1', port: 0, peers: [a.p2p?.addresses()[0] ?? ''], syncIntervalMs: 200, redialIntervalMs: 200 },
  });
  running.push(b);
  const said = (text: string) => lines.some((l) => l.includes(text));
  // B (at genesis) asks A, whose log starts at the checkpoint's suffix (block 26).
  await waitFor(async () => (said('peer holds no blocks this low') || said('peer struck') ? true : undefined), 30_000, 100);
  assert.ok(!said('peer struck'), 'the refusing peer was struck');
  assert.ok(!said('peer banned'), 'the refusing peer was banned');
  assert.ok(a.p2p?.peerId() && b.p2p?.peers().some((p) => p.peerId === a.p2p?.peerId()), 'still connected to the refusing peer');
  // Given a peer holding the whole chain, B syncs from it.
  b.p2p?.connect(served?.p2p?.addresses()[0] ?? '');
  await waitFor(async () => (b.node.head().index >= 35 ? true : undefined), 30_000);
  assert.ok(!said('peer struck'));
  assert.ok(!said('peer banned'));
  await b.stop();
  await a.stop();
});

test('a checkpoint whose state was edited is found out: health 503 mismatch, reads stop, and it stays so', async () => {
  // Another balance for one account, the file re-compressed: its (new) digest is valid.
  const text = gunzipSync(readFileSync(file)).toString('utf8');
  const victim = DEV_KEYS[6].address;
  const edited = text
    .split('\n')
    .map((l) => (l.startsWith(`p:accounts\t"a:${victim}"`) ? l.replace(/"b":"\d+"/, '"b":"999999999999999"') : l))
    .join('\n');
  assert.notEqual(edited, text, 'the account row was found and edited');
  const forged = join(tmp.dir, 'forged.ckpt');
  writeFileSync(forged, gzipSync(edited));
  const dir = join(tmp.dir, 'forged-follower');
  await installFromSource({ file: forged, digest: await fileDigest(forged) }, dir, genesis, silentLogger);
  const n = await follower(dir);
  // Nothing it says is served before it is verified, and it is found out.
  const forgedBalance = await get(n, `/api/wallet/balance/${victim}`);
  assert.equal(forgedBalance.status, 503);
  assert.ok(['CHECKPOINT_UNVERIFIED', 'CHECKPOINT_MISMATCH'].includes(((await forgedBalance.json()) as { code: string }).code));
  await waitFor(async () => ((await health(n)).checkpoint === 'mismatch' ? true : undefined), 180_000, 200);
  const h = await get(n, '/api/health');
  assert.equal(h.status, 503);
  const read = await get(n, `/api/wallet/balance/${victim}`);
  assert.equal(read.status, 503);
  assert.equal(((await read.json()) as { code: string }).code, 'CHECKPOINT_MISMATCH');
  // WebSocket upgrades never reach the app: they are refused the same way.
  assert.deepEqual(await upgradeRefusal(n, '/api/ws'), { status: 503, code: 'CHECKPOINT_MISMATCH' });
  assert.deepEqual(await upgradeRefusal(n, '/ws'), { status: 503, code: 'CHECKPOINT_MISMATCH' });
  assert.match(await (await get(n, '/metrics')).text(), /ombra_checkpoint_status\{status="mismatch"\} 1/);
  await n.stop();
  const store = await ChainStore.open(join(dir, 'db'));
  const record = await checkpointRecord(store);
  await store.close();
  // Found by the digests: the consensus state's, and the holders model that reads the same balance.
  assert.match(record?.reason ?? '', /read model accounts: the checkpoint's digest/);
  assert.doesNotMatch(record?.reason ?? '', /block 30/);
  const again = await follower(dir);
  assert.equal((await get(again, '/api/chain/height')).status, 503);
});
