/**
 * The explorer on a node with default settings (rate limits on, the anonymous quota 60 requests
 * a minute, not --dev), in headless Chromium: a visitor clicking through 20 pages within a minute
 * stays well inside the quota (the static files are not counted, reads are shared and kept by
 * the worker's cache), and once the quota is spent the page says what happened and when it tries
 * again (Retry-After, counting down), never raw JSON.
 */
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { missing } from '../../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { launch, type Launched } from '../../../../launch/launch.ts';
import type { Block } from '../../../../core/block.ts';
import { ARTIFACTS, launchChromium, type Chromium } from '../../../helpers/chromium.ts';
import { settled } from '../../../helpers/explorerRig.ts';
import { seedSimulatedChain } from '../../../helpers/liveNode.ts';
import { DEV_KEYS, tempDir } from '../../../helpers/testChain.ts';

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const document: any;
declare const location: any;

const tmp = tempDir('ombra-limited-');
let node: Launched;
let chromium: Chromium | null = null;
let blocks: Block[] = [];
/** Requests charged to this address's quota, measured by one more read (which costs one itself). */
let charged: () => Promise<number>;

before(async () => {
  const seeded = await seedSimulatedChain(tmp.dir);
  blocks = seeded.blocks;
  const genesis = seeded.genesis;
  // As `ombra start` without --dev: the rate limits at their defaults.
  node = await launch({ dataDir: tmp.dir, genesis, key: DEV_KEYS[0], dev: false, httpHost: '127.0.0.1', httpPort: 0, rateLimits: {} });
  charged = async () => {
    const r = await fetch(`${node.url}/api/health`);
    const limit = Number(r.headers.get('X-RateLimit-Limit'));
    assert.equal(limit, 60, 'the default anonymous quota');
    return limit - Number(r.headers.get('X-RateLimit-Remaining')) - 1;
  };
  chromium = await launchChromium('the rate-limited explorer');
});

after(async () => {
  await chromium?.close();
  await node?.stop();
  tmp.cleanup();
});

test('a 20-page visit within a minute costs well under the anonymous quota', { skip: missing('chromium') }, async () => {
  assert.ok(chromium, 'Chromium and the rig started');
  const withTxs = blocks.filter((b) => b.transactions.length > 0);
  const txs = withTxs.flatMap((b) => b.transactions).slice(-40);
  const head = blocks.length - 1;
  const hashes = [
    '#/blocks',
    `#/block/${head}`,
    `#/block/${head - 1}`,
    `#/tx/${txs.at(-1)?.hash}`,
    `#/address/${txs.at(-1)?.from}`,
    '#/blocks?page=2',
    `#/block/${withTxs.at(-2)?.index}`,
    `#/tx/${txs.at(-5)?.hash}`,
    '#/mempool',
    '#/tasks',
    `#/tx/${txs.at(-9)?.hash}`,
    '#/accounts',
    '#/miners',
    `#/address/${txs.at(-9)?.from}`,
    '#/blocks',
    `#/block/${head}`,
    '#/feed',
    `#/tx/${txs.at(-1)?.hash}`,
    '#/',
  ];
  const before = await charged();
  const page = chromium.page;
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 429) refused.push(r.url());
  });
  const started = Date.now();
  await page.goto(`${node.url}/`);
  await settled(page);
  for (const hash of hashes) {
    await page.evaluate((h) => {
      for (const c of document.getElementById('view')?.children ?? []) c.staleView = true;
      location.hash = h;
    }, hash);
    await settled(page);
    assert.equal(await page.locator('.refused').count(), 0, `${hash} was not refused`);
  }
  const seconds = (Date.now() - started) / 1000;
  const cost = (await charged()) - before - 1;
  console.log(`rate-limited explorer: 20 pages in ${seconds.toFixed(1)} s cost ${cost} of the 60 requests a minute`);
  assert.deepEqual(refused, []);
  // Comfortably: room for a second tab or a reload on top.
  assert.ok(cost <= 40, `20 pages cost ${cost} requests`);
});

test('a refused read shows what happened and when the page tries again, and it does', { skip: missing('chromium') }, async () => {
  assert.ok(chromium, 'Chromium and the rig started');
  const page = chromium.page;
  // Spend what is left of the quota from this address, as another tab or program would.
  let retryAfter = 0;
  for (let i = 0; i < 80 && retryAfter === 0; i++) {
    const r = await fetch(`${node.url}/api/chain/stats`);
    if (r.status === 429) retryAfter = Number(r.headers.get('Retry-After'));
  }
  assert.ok(retryAfter > 0, 'the quota ran out');
  // A page whose reads are not in the cache: a fresh document, so the static files load again too.
  await page.goto('about:blank');
  await page.goto(`${node.url}/#/block/3`);
  await page.waitForSelector('.refused', { timeout: 20_000 });
  const text = (await page.locator('.refused').textContent()) ?? '';
  assert.match(text, /Too many requests/);
  assert.match(text, /60 requests per minute/);
  assert.match(text, /tries again by itself in \d+ s/);
  assert.doesNotMatch(text, /"code"|RATE_LIMITED/);
  assert.equal(await page.title(), 'Too many requests · Ombra explorer');
  await page.screenshot({ path: join(ARTIFACTS, 'screenshots', 'explorer-429.jpg'), type: 'jpeg', quality: 80 });
  // The count goes down by itself (the page then reads again; waiting out the minute is left out).
  const left = () =>
    page
      .locator('.refused strong')
      .textContent()
      .then((s) => Number.parseInt(s ?? '', 10));
  const first = await left();
  await page.waitForFunction((n) => Number.parseInt(document.querySelector('.refused strong')?.textContent ?? '', 10) < n, first);
});
