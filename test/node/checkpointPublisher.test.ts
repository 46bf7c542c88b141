/**
 * The checkpoint a node offers on its public API port cannot be made to build again and again:
 * concurrent GET /api/checkpoint requests share one build, later ones get the cached file, and a
 * new one is built only once the head is far enough past it and enough time has passed.
 */
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../api/app.ts';
import { CheckpointPublisher } from '../../node/checkpointPublisher.ts';
import { fileDigest } from '../../node/checkpointFile.ts';
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
function publisher(dir: string, opts: { refreshBlocks: number; minIntervalMs: number }) {
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
    },
    { ...opts, now: () => clock },
  );
  return { p, snapshots: () => snapshots, advance: (ms: number) => (clock += ms) };
}

t('twenty concurrent GET /api/checkpoint requests share one build and all answer its digest', async () => {
  const { p, snapshots } = publisher('concurrent', { refreshBlocks: 1000, minIntervalMs: 0 });
  const app = createApp(testApiDeps(chain.node, { checkpoints: p }));
  const answers = await Promise.all(Array.from({ length: 20 }, () => app.request('/api/checkpoint')));
  const bodies = await Promise.all(answers.map((r) => r.json() as Promise<{ digest: string; height: number; url: string }>));
  assert.ok(answers.every((r) => r.status === 200));
  assert.is(snapshots(), 1);
  assert.is(p.builds, 1);
  assert.is(new Set(bodies.map((b) => b.digest)).size, 1);
  assert.is(bodies[0].height, chain.node.head().index);
  // The file streams, and is what the digest says.
  const file = await app.request(bodies[0].url);
  assert.is(file.status, 200);
  assert.is(file.headers.get('content-type'), 'application/gzip');
  const bytes = Buffer.from(await file.arrayBuffer());
  assert.is(String(bytes.length), file.headers.get('content-length'));
  const path = p.fileOf(bodies[0].digest);
  assert.ok(path);
  assert.is(await fileDigest(path), bodies[0].digest);
});

t('a cached checkpoint is served until the head is refreshBlocks past it and minIntervalMs has passed', async () => {
  const { p, snapshots, advance } = publisher('cached', { refreshBlocks: 2, minIntervalMs: 60_000 });
  const first = await p.latest();
  await chain.produce(3);
  // Far enough in blocks, but too soon: the same one, no build.
  assert.is((await p.latest()).digest, first.digest);
  assert.is(snapshots(), 1);
  advance(60_000);
  const a = await p.latest();
  assert.is(snapshots(), 2);
  assert.is.not(a.digest, first.digest);
  assert.is((await p.latest()).digest, a.digest);
  assert.is(snapshots(), 2);
  assert.is(a.height, first.height + 3);
  // Both files stay on offer (a download of the older one may be in progress).
  assert.ok(p.fileOf(first.digest));
  assert.ok(p.fileOf(a.digest));
});

t('while a newer checkpoint is being built, requests get the current one without waiting or building again', async () => {
  const { p, snapshots, advance } = publisher('refresh', { refreshBlocks: 1, minIntervalMs: 0 });
  const first = await p.latest();
  await chain.produce(1);
  advance(1);
  const building = p.latest();
  const during = await Promise.all([p.latest(), p.latest()]);
  assert.equal(
    during.map((d) => d.digest),
    [first.digest, first.digest],
  );
  const next = await building;
  assert.is(snapshots(), 2);
  assert.is(next.height, first.height + 1);
});

t.run();
