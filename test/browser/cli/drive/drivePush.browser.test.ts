/**
 * `ombra drive push` end to end: a small website (HTML, CSS, a PNG) pushed to a real dev node,
 * opened at /web/<alias>/ in headless Chromium (its style applied, its image decoded); a changed
 * push serves the new release; activating the old release rolls back. Then `ombra replay` on the
 * stopped node rebuilds every read model, the drive's included, identical to the live ones.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { missing } from '../../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { OmbraClient, Wallet } from '../../../../client/index.ts';
import { dbDirOf } from '../../../../launch/dataDir.ts';
import { OmbraNode } from '../../../../node/node.ts';
import { ARTIFACTS, launchChromium, type Chromium } from '../../../helpers/chromium.ts';
import { runCli } from '../../../helpers/cliRun.ts';
import { startNodeProcess, waitFor, type NodeProcess } from '../../../helpers/nodeProcess.ts';
import { DEV_KEYS, tempDir } from '../../../helpers/testChain.ts';

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const document: any;
declare const getComputedStyle: any;

/** A `size`×`size` PNG of one RGB colour (zlib-compressed scanlines, CRC-checked chunks). */
function png(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const site = (dir: string, color: string) => {
  mkdirSync(join(dir, 'img'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>Drive</title><link rel="stylesheet" href="style.css"></head>' +
      '<body><h1 id="title">On-chain site</h1><img id="logo" src="img/logo.png" alt="logo"></body></html>',
  );
  writeFileSync(join(dir, 'style.css'), `h1 { color: ${color}; }\n`);
  writeFileSync(join(dir, 'img', 'logo.png'), png(16, [200, 30, 60]));
};

let node: NodeProcess;
let data: { dir: string; cleanup: () => void };
let folder: { dir: string; cleanup: () => void };
let chromium: Chromium | null = null;

before(async () => {
  data = tempDir('ombra-drive-node-');
  folder = tempDir('ombra-drive-site-');
  node = await startNodeProcess(['--dev', '--data-dir', data.dir, '--block-time-ms', '250']);
  chromium = await launchChromium('drive push test');
});

after(async () => {
  await chromium?.close();
  if (node.child.exitCode === null) {
    node.child.kill('SIGTERM');
    await node.exited;
  }
  data.cleanup();
  folder.cleanup();
});

const push = () =>
  runCli(['drive', 'push', '--site', 'demo-site', '--dir', folder.dir, '--alias', 'demo', '--url', node.url, '--json'], {
    timeoutMs: 60_000,
  });
const titleColor = async (c: Chromium) => {
  await c.page.goto(`${node.url}/web/demo/`);
  await c.page.waitForFunction(() => document.getElementById('logo')?.complete);
  return c.page.evaluate(() => getComputedStyle(document.getElementById('title')).color);
};

test('a pushed site renders in Chromium with its CSS and image; a new push serves the new release; activating the old one rolls back', {
  skip: missing('chromium'),
}, async () => {
  const client = new OmbraClient(node.url);
  // The dev authority (key 0) earns 4096 bytes a block: wait until the site fits.
  await waitFor(async () => ((await client.height()).height >= 4 ? true : undefined), 20_000);
  site(folder.dir, 'rgb(10, 120, 30)');
  const first = await push();
  assert.equal(first.code, 0, first.stderr);
  const r1 = JSON.parse(first.stdout);
  assert.deepEqual([r1.uploaded.length, r1.unchanged.length, r1.published, r1.url], [3, 0, true, `${node.url}/web/demo/`]);

  site(folder.dir, 'rgb(200, 0, 0)');
  const second = await push();
  assert.equal(second.code, 0, second.stderr);
  const r2 = JSON.parse(second.stdout);
  assert.deepEqual([r2.uploaded, r2.unchanged.length], [['/style.css'], 2], 'only the changed file is sent');
  const account = await client.account(DEV_KEYS[0].address);
  assert.ok(account.nonce > 0);

  // Pushing unchanged content publishes nothing new.
  const third = await push();
  assert.deepEqual(
    [JSON.parse(third.stdout).uploaded, JSON.parse(third.stdout).published, JSON.parse(third.stdout).activated],
    [[], false, false],
  );

  const releases = await client.webSite('demo-site');
  assert.deepEqual([releases?.activeReleaseId, releases?.releases.map((r) => r.releaseId)], [r2.releaseId, [r2.releaseId, r1.releaseId]]);
  if (chromium) {
    assert.equal(await titleColor(chromium), 'rgb(200, 0, 0)');
    assert.ok(await chromium.page.evaluate(() => document.getElementById('logo').naturalWidth === 16), 'the PNG decoded');
    await chromium.page.screenshot({ path: join(ARTIFACTS, 'drive-site.png') });
  }
  const wallet = new Wallet(client, DEV_KEYS[0]);
  const { tx } = await wallet.send('WEB_RELEASE_ACTIVATE', { siteId: 'demo-site', releaseId: r1.releaseId, fee: '0' });
  await client.waitForConfirmation(tx.hash, 20_000);
  if (chromium) {
    assert.equal(await titleColor(chromium), 'rgb(10, 120, 30)', 'the rollback is served');
    assert.deepEqual(chromium.errors, []);
  }
  const css = await fetch(`${node.url}/web/demo/style.css`);
  assert.equal(await css.text(), 'h1 { color: rgb(10, 120, 30); }\n');
});

test('ombra replay rebuilds the drive identical to the live read models', { skip: missing('chromium') }, async () => {
  node.child.kill('SIGTERM');
  await node.exited;
  const dump = async () => {
    const n = await OmbraNode.open({ dbDir: dbDirOf(data.dir) });
    try {
      return await n.runner.dump();
    } finally {
      await n.stop();
    }
  };
  const live = await dump();
  const replay = await runCli(['replay', '--data-dir', data.dir], { timeoutMs: 60_000 });
  assert.equal(replay.code, 0, replay.stderr);
  const rebuilt = await dump();
  for (const name of ['accounts', 'content', 'webDrive']) assert.deepEqual(rebuilt[name], live[name], name);
  assert.deepEqual(rebuilt, live);
});
