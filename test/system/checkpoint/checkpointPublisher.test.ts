/**
 * The checkpoint a node offers on its public API port is built on the node's own schedule, never
 * by a request (an anonymous GET /api/checkpoint once cost a 14.5 s build): requests read what is
 * built or answer 503 CHECKPOINT_NOT_READY; builds are single-flight, a new one only once the head
 * is far enough past it and enough time has passed, and none while the node's own state is unverified.
 */
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.ts';
import { CheckpointPublisher } from '../../../checkpoint/checkpointPublisher.ts';
import { fileDigest } from '../../../checkpoint/checkpointFile.ts';
import { silentLogger } from '../../../node/log.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS, openTestChain, type TestChain, testApiDeps } from '../../helpers/testChain.ts';

let chain: TestChain;

before(async () => {
  chain = await openTestChain();
  for (let i = 0; i < 3; i++) {
    await chain.node.submitTx(chain.transfer(1, DEV_KEYS[5].address, 10n));
    await chain.produce();
  }
});

after(async () => {
  await chain.destroy();
});

/** A publisher over the test chain counting the snapshots (builds) it takes, with a clock of its own. */
function publisher(dir: string, opts: { refreshBlocks: number; minIntervalMs: number }, verified = () => true) {
  let clock = 0;
  let snapshots = 0;
  const p = new CheckpointPublisher(
    {
      store: chain.node.store,
      consistentSnapshot: () => {
        snapshots++;
        return chain.node.consistentSnapshot();
      },
      height: () => chain.node.head().index,
      dir: join(chain.dir, dir),
      verified,
      log: silentLogger,
    },
    { ...opts, now: () => clock },
  );
  return { p, snapshots: () => snapshots, advance: (ms: number) => (clock += ms) };
}

test('anonymous GET /api/checkpoint requests never build: 503 CHECKPOINT_NOT_READY until the node built one on its schedule', async () => {
  const { p, snapshots, advance } = publisher('anonymous', { refreshBlocks: 1, minIntervalMs: 0 });
  const app = createApp(testApiDeps(chain.node, { checkpoints: p }));
  const before = await Promise.all(Array.from({ length: 20 }, () => app.request('/api/checkpoint')));
  console.log(
    `  20 anonymous requests with no checkpoint built: ${snapshots()} build(s), statuses ${[...new Set(before.map((r) => r.status))]}`,
  );
  assert.equal(snapshots(), 0);
  assert.ok(before.every((r) => r.status === 503));
  assert.equal(((await before[0].json()) as { code: string }).code, 'CHECKPOINT_NOT_READY');
  assert.equal(before[0].headers.get('retry-after'), '60');
  // The node's own schedule builds one; requests then read it, and a moved head builds nothing more.
  const made = await p.refresh();
  assert.ok(made);
  await chain.produce(2);
  advance(60_000);
  const after = await Promise.all(Array.from({ length: 20 }, () => app.request('/api/checkpoint')));
  assert.ok(after.every((r) => r.status === 200));
  assert.equal(((await after[0].json()) as { digest: string }).digest, made.digest);
  assert.equal(snapshots(), 1);
});

test('concurrent refreshes share one build, and the file streams as its digest says', async () => {
  const { p, snapshots } = publisher('concurrent', { refreshBlocks: 1000, minIntervalMs: 0 });
  const app = createApp(testApiDeps(chain.node, { checkpoints: p }));
  const made = await Promise.all(Array.from({ length: 20 }, () => p.refresh()));
  assert.equal(snapshots(), 1);
  assert.equal(p.builds, 1);
  assert.equal(new Set(made.map((m) => m?.digest)).size, 1);
  const offer = (await (await app.request('/api/checkpoint')).json()) as { digest: string; height: number; url: string };
  assert.equal(offer.height, chain.node.head().index);
  // The file streams, and is what the digest says.
  const file = await app.request(offer.url);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get('content-type'), 'application/gzip');
  const bytes = Buffer.from(await file.arrayBuffer());
  assert.equal(String(bytes.length), file.headers.get('content-length'));
  const path = p.fileOf(offer.digest);
  assert.ok(path);
  assert.equal(await fileDigest(path), offer.digest);
});

test('a node whose own state is not verified builds and offers nothing', async () => {
  let verified = false;
  const { p, snapshots } = publisher('unverified', { refreshBlocks: 1, minIntervalMs: 0 }, () => verified);
  const app = createApp(testApiDeps(chain.node, { checkpoints: p }));
  await p.start();
  assert.equal(await p.refresh(), null);
  assert.equal(snapshots(), 0);
  assert.equal((await app.request('/api/checkpoint')).status, 503);
  // Once verified, the schedule builds; were it to lose that, the file would no longer be offered.
  verified = true;
  const made = await p.refresh();
  assert.ok(made);
  assert.equal((await app.request('/api/checkpoint')).status, 200);
  verified = false;
  assert.equal((await app.request(`/api/checkpoint/${made.digest}`)).status, 404);
  await p.stop();
});

test('start builds one in the background, once', async () => {
  const { p, snapshots } = publisher('scheduled', { refreshBlocks: 1000, minIntervalMs: 0 });
  await p.start();
  await waitFor(async () => p.offered() ?? undefined);
  await p.stop();
  assert.equal(snapshots(), 1);
});

test('a cached checkpoint is kept until the head is refreshBlocks past it and minIntervalMs has passed', async () => {
  const { p, snapshots, advance } = publisher('cached', { refreshBlocks: 2, minIntervalMs: 60_000 });
  const first = (await p.refresh())!;
  await chain.produce(3);
  // Far enough in blocks, but too soon: the same one, no build.
  assert.equal((await p.refresh())?.digest, first.digest);
  assert.equal(snapshots(), 1);
  advance(60_000);
  const a = (await p.refresh())!;
  assert.equal(snapshots(), 2);
  assert.notEqual(a.digest, first.digest);
  assert.equal((await p.refresh())?.digest, a.digest);
  assert.equal(snapshots(), 2);
  assert.equal(a.height, first.height + 3);
  // Both files stay on offer (a download of the older one may be in progress).
  assert.ok(p.fileOf(first.digest));
  assert.ok(p.fileOf(a.digest));
});

test('while a newer checkpoint is being built, the current one stays on offer', async () => {
  const { p, snapshots, advance } = publisher('refresh', { refreshBlocks: 1, minIntervalMs: 0 });
  const first = (await p.refresh())!;
  await chain.produce(1);
  advance(1);
  const building = p.refresh();
  assert.equal(p.offered()?.digest, first.digest);
  const next = (await building)!;
  assert.equal(snapshots(), 2);
  assert.equal(next.height, first.height + 1);
  assert.equal(p.offered()?.digest, next.digest);
});
