/**
 * The explorer in headless Chromium (Debian's chromium; .ci/run installs it, and under CI its
 * absence is a failure) against a live node with chain data: no console errors, the height
 * updates without a reload, search reaches a transaction page, and block, address, task and
 * NFT pages render (an art NFT's SVG loads, an image NFT's file decodes at its size, an audio
 * NFT's file loads its duration; an unknown image NFT says so). Screenshots go to
 * test-artifacts/ (gitignored). Run by explorer.browser.test.ts on the shared rig, in a tab of its own.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { suite, type Test } from 'uvu';
import * as assert from 'uvu/assert';
import { ARTIFACTS } from '../../helpers/chromium.ts';
import type { SharedRig } from '../../helpers/explorerRig.ts';
import type { LiveNode } from '../../helpers/liveNode.ts';
import { completeState } from '../../helpers/completeState.ts';

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const document: any;

/** The explorer's home and main pages, in a tab of its own on the shared rig (run by the caller). */
export function explorerHomeSuite(shared: SharedRig): Test {
  const t = suite('the explorer in Chromium');
  let live: LiveNode;
  let page: Page;
  // False where Chromium is not installed (outside CI): the tests then pass without a browser.
  let inBrowser = false;
  let errors: string[] = [];

  t.before(async () => {
    const rig = await shared.get();
    if (!rig) return;
    live = rig.live;
    ({ page, errors } = await rig.chromium.tab());
    inBrowser = true;
  });

  t.after(async () => {
    if (inBrowser) await page.close();
  });

  const height = () => page.evaluate(() => Number(document.getElementById('height')!.textContent));

  t('the home page loads with no console errors and its height follows the chain without a reload', async () => {
    if (!inBrowser) return;
    await page.goto(`${live.url}/`);
    await page.waitForFunction(() => /^\d+$/.test(document.getElementById('height')!.textContent ?? ''));
    await page.waitForSelector('text=Latest blocks');
    await page.waitForSelector('#live.on');
    const first = await height();
    const navigations: string[] = [];
    page.on('framenavigated', (f) => navigations.push(f.url()));
    await page.waitForFunction((h) => Number(document.getElementById('height')!.textContent) >= h + 3, first, { timeout: 20_000 });
    // The latest-blocks table takes the new blocks from the stream (redrawn at most once a second).
    await page.waitForFunction(
      (h) => Number(document.querySelector('section.card table tbody tr td a')?.textContent?.replace('#', '')) > h,
      first,
      { timeout: 20_000 },
    );
    assert.equal(navigations, [], 'no reload');
    for (const title of ['Latest transactions', 'Mempool', 'Tasks', 'Agent runs'])
      assert.ok(await page.isVisible(`h2:has-text("${title}")`), title);
    await page.screenshot({ path: join(ARTIFACTS, 'explorer-home.png'), fullPage: true });
    assert.equal(errors, []);
  });

  t('search by a transaction hash reaches its page', async () => {
    if (!inBrowser) return;
    const tx = live.blocks.flatMap((b) => b.transactions).find((x) => x.type === 'TASK_RESPONSE')!;
    await page.fill('#q', tx.hash);
    await page.press('#q', 'Enter');
    await page.waitForSelector('h1:has-text("Transaction")');
    assert.ok(await page.isVisible(`h1:has-text("${tx.hash}")`));
    assert.ok(await page.isVisible('text=TASK_RESPONSE'));
    assert.match(page.url(), new RegExp(`#/tx/${tx.hash}$`));
    await page.screenshot({ path: join(ARTIFACTS, 'explorer-tx.png'), fullPage: true });
    assert.equal(errors, []);
  });

  t('block, address, task and art NFT pages render; the NFT SVG loads', async () => {
    if (!inBrowser) return;
    const s = (await completeState(live.node.node)).records;
    const [tokenId, nft] = [...s.nfts.entries()][0];
    const taskId = [...s.tasks.keys()][0];
    for (const [hash, heading] of [
      ['#/block/3', 'Block #3'],
      [`#/address/${nft.owner}`, 'Address'],
      [`#/task/${taskId}`, `Task ${taskId}`],
      [`#/nft/${tokenId}`, 'Art NFT'],
    ]) {
      await page.goto(`${live.url}/${hash}`);
      await page.waitForSelector(`h1:has-text("${heading}")`);
    }
    await page.waitForFunction(() => document.querySelector('.media img')?.naturalWidth > 0);
    await page.screenshot({ path: join(ARTIFACTS, 'explorer-nft.png'), fullPage: true });
    assert.equal(errors, []);
  });

  t('image and audio NFT pages show the minted file: the image decodes, the audio loads its metadata', async () => {
    if (!inBrowser) return;
    errors.length = 0;
    const s = (await completeState(live.node.node)).records;
    const [imageId, image] = [...s.imageNfts.entries()][0];
    const [audioId, audio] = [...s.audioNfts.entries()][0];
    await page.goto(`${live.url}/#/image/${imageId}`);
    await page.waitForSelector('h1:has-text("Image NFT")');
    await page.waitForFunction(() => document.querySelector('.media img')?.naturalWidth > 0);
    const size = await page.evaluate(() => [
      document.querySelector('.media img').naturalWidth,
      document.querySelector('.media img').naturalHeight,
    ]);
    assert.equal(size, [image.width, image.height]);
    await page.screenshot({ path: join(ARTIFACTS, 'explorer-image.png'), fullPage: true });
    await page.goto(`${live.url}/#/audio/${audioId}`);
    await page.waitForSelector('h1:has-text("Audio NFT")');
    await page.waitForFunction(() => document.querySelector('.media audio')?.readyState >= 1);
    const seconds = await page.evaluate(() => document.querySelector('.media audio').duration);
    assert.ok(Math.abs(seconds * 1000 - audio.durationMs) <= 50, `the browser reads ${seconds} s, the NFT says ${audio.durationMs} ms`);
    await page.goto(`${live.url}/#/task/${image.taskId}`);
    await page.waitForSelector(`a[href="#/image/${imageId}"]`);
    assert.equal(errors, []);
  });

  t('an image NFT the node does not know is reported on the page, not as a script error', async () => {
    if (!inBrowser) return;
    errors.length = 0;
    await page.goto(`${live.url}/#/image/${'ab'.repeat(32)}`);
    await page.waitForSelector('h1:has-text("Not found")');
    // The browser itself logs the 404 of the lookup; nothing else may be on the console.
    assert.equal(
      errors.filter((e) => !/Failed to load resource: the server responded with a status of 404/.test(e)),
      [],
    );
  });

  return t;
}
