/**
 * The checkpoint a node offers on its public API port is built on the node's own schedule, never
 * by a request (an anonymous GET /api/checkpoint once cost a 14.5 s build): requests read what is
 * built or answer 503 CHECKPOINT_NOT_READY; builds are single-flight, a new one only once the head
 * is far enough past it and enough time has passed, and none while the node's own state is unverified.
 */
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../api/app.ts';
import { CheckpointPublisher } from '../../checkpoint/checkpointPublisher.ts';
import { fileDigest } from '../../checkpoint/checkpointFile.ts';
import { silentLogger } from '../../node/log.ts';
import { waitFor } from '../helpers/nodeProcess.ts';
import { DEV_KEYS, openTestChain, type TestChain, testApiDeps } from '../helpers/testChain.ts';

const t = suite('checkpoint publisher: one build at a time');
let chain: TestChain;

t.before(async () => {
  chain = await openTestChain();
  for (let i = 0; i < 3; i++) {
    await chain.node.submitTx(chain.transfer(1, DEV_KEYS[5].address, 10n));
    await chain.produce();
  }
});

t.after(async () => {
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

t('anonymous GET /api/checkpoint requests never build: 503 CHECKPOINT_NOT_READY until the node built one on its schedule', async () => {
  const { p, snapshots, advance } = publisher('anonymous', { refreshBlocks: 1, minIntervalMs: 0 });
  const app = createApp(testApiDeps(chain.node, { checkpoints: p }));
  const before = await Promise.all(Array.from({ length: 20 }, () => app.request('/api/checkpoint')));
  console.log(
    `  20 anonymous requests with no checkpoint built: ${snapshots()} build(s), statuses ${[...new Set(before.map((r) => r.status))]}`,
  );
  assert.is(snapshots(), 0);
  assert.ok(before.every((r) => r.status === 503));
  assert.is(((await before[0].json()) as { code: string }).code, 'CHECKPOINT_NOT_READY');
  assert.is(before[0].headers.get('retry-after'), '60');
  // The node's own schedule builds one; requests then read it, and a moved head builds nothing more.
  const made = await p.refresh();
  assert.ok(made);
  await chain.produce(2);
  advance(60_000);
  const after = await Promise.all(Array.from({ length: 20 }, () => app.request('/api/checkpoint')));
  assert.ok(after.every((r) => r.status === 200));
  assert.is(((await after[0].json()) as { digest: string }).digest, made.digest);
  assert.is(snapshots(), 1);
});

t('concurrent refreshes share one build, and the file streams as its digest says', async () => {
  const { p, snapshots } = publisher('concurrent', { refreshBlocks: 1000, minIntervalMs: 0 });
  const app = createApp(testApiDeps(chain.node, { checkpoints: p }));
  const made = await Promise.all(Array.from({ length: 20 }, () => p.refresh()));
  assert.is(snapshots(), 1);
  assert.is(p.builds, 1);
  assert.is(new Set(made.map((m) => m?.digest)).size, 1);
  const offer = (await (await app.request('/api/checkpoint')).json()) as { digest: string; height: number; url: string };
  assert.is(offer.height, chain.node.head().index);
  // The file streams, and is what the digest says.
  const file = await app.request(offer.url);
  assert.is(file.status, 200);
  assert.is(file.headers.get('content-type'), 'application/gzip');
  const bytes = Buffer.from(await file.arrayBuffer());
  assert.is(String(bytes.length), file.headers.get('content-length'));
  const path = p.fileOf(offer.digest);
  assert.ok(path);
  assert.is(await fileDigest(path), offer.digest);
});

t('a node whose own state is not verified builds and offers nothing', async () => {
  let verified = false;
  const { p, snapshots } = publisher('unverified', { refreshBlocks: 1, minIntervalMs: 0 }, () => verified);
  const app = createApp(testApiDeps(chain.node, { checkpoints: p }));
  await p.start();
  assert.is(await p.refresh(), null);
  assert.is(snapshots(), 0);
  assert.is((await app.request('/api/checkpoint')).status, 503);
  // Once verified, the schedule builds; were it to lose that, the file would no longer be offered.
  verified = true;
  const made = await p.refresh();
  assert.ok(made);
  assert.is((await app.request('/api/checkpoint')).status, 200);
  verified = false;
  assert.is((await app.request(`/api/checkpoint/${made.digest}`)).status, 404);
  await p.stop();
});

t('start builds one in the background, once', async () => {
  const { p, snapshots } = publisher('scheduled', { refreshBlocks: 1000, minIntervalMs: 0 });
  await p.start();
  await waitFor(async () => p.offered() ?? undefined);
  await p.stop();
  assert.is(snapshots(), 1);
});

t('a cached checkpoint is kept until the head is refreshBlocks past it and minIntervalMs has passed', async () => {
  const { p, snapshots, advance } = publisher('cached', { refreshBlocks: 2, minIntervalMs: 60_000 });
  const first = (await p.refresh())!;
  await chain.produce(3);
  // Far enough in blocks, but too soon: the same one, no build.
  assert.is((await p.refresh())?.digest, first.digest);
  assert.is(snapshots(), 1);
  advance(60_000);
  const a = (await p.refresh())!;
  assert.is(snapshots(), 2);
  assert.is.not(a.digest, first.digest);
  assert.is((await p.refresh())?.digest, a.digest);
  assert.is(snapshots(), 2);
  assert.is(a.height, first.height + 3);
  // Both files stay on offer (a download of the older one may be in progress).
  assert.ok(p.fileOf(first.digest));
  assert.ok(p.fileOf(a.digest));
});

t('while a newer checkpoint is being built, the current one stays on offer', async () => {
  const { p, snapshots, advance } = publisher('refresh', { refreshBlocks: 1, minIntervalMs: 0 });
  const first = (await p.refresh())!;
  await chain.produce(1);
  advance(1);
  const building = p.refresh();
  assert.is(p.offered()?.digest, first.digest);
  const next = (await building)!;
  assert.is(snapshots(), 2);
  assert.is(next.height, first.height + 1);
  assert.is(p.offered()?.digest, next.digest);
});

t.run();
