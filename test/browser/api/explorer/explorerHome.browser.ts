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

import { literal } from '../../../helpers/literal.ts';
import { missing } from '../../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS } from '../../../helpers/chromium.ts';
import type { SharedRig } from '../../../helpers/explorerRig.ts';
import type { LiveNode } from '../../../helpers/liveNode.ts';
import { completeState } from '../../../helpers/completeState.ts';

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const document: any;

/** The explorer's home and main pages, in a tab of its own on the shared rig (run by the caller). */
export function explorerHomeSuite(shared: SharedRig): void {
  describe('the explorer in Chromium', { skip: missing('chromium') }, () => {
    let live: LiveNode;
    let page: Page;
    // False where Chromium is not installed (outside CI): the tests then pass without a browser.
    let inBrowser = false;
    let errors: string[] = [];

    before(async () => {
      const rig = await shared.get();
      assert.ok(rig, 'Chromium and the rig started');
      live = rig.live;
      ({ page, errors } = await rig.chromium.tab());
      inBrowser = true;
    });

    after(async () => {
      if (inBrowser) await page.close();
    });

    const height = () => page.evaluate(() => Number(document.getElementById('height')!.textContent));

    test('the home page loads with no console errors and its height follows the chain without a reload', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(inBrowser, 'Chromium and the rig started');
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
      assert.deepEqual(navigations, [], 'no reload');
      for (const title of ['Latest transactions', 'Mempool', 'Tasks', 'Agent runs'])
        assert.ok(await page.isVisible(`h2:has-text("${title}")`), title);
      await page.screenshot({ path: join(ARTIFACTS, 'explorer-home.png'), fullPage: true });
      assert.deepEqual(errors, []);
    });

    test('search by a transaction hash reaches its page', { skip: missing('chromium') }, async () => {
      assert.ok(inBrowser, 'Chromium and the rig started');
      const tx = live.blocks.flatMap((b) => b.transactions).find((x) => x.type === 'TASK_RESPONSE')!;
      await page.fill('#q', tx.hash);
      await page.press('#q', 'Enter');
      await page.waitForSelector('h1:has-text("Transaction")');
      assert.ok(await page.isVisible(`h1:has-text("${tx.hash}")`));
      assert.ok(await page.isVisible('text=TASK_RESPONSE'));
      assert.match(page.url(), literal(new RegExp(`#/tx/${tx.hash}$`)));
      await page.screenshot({ path: join(ARTIFACTS, 'explorer-tx.png'), fullPage: true });
      assert.deepEqual(errors, []);
    });

    test('block, address, task and art NFT pages render; the NFT SVG loads', { skip: missing('chromium') }, async () => {
      assert.ok(inBrowser, 'Chromium and the rig started');
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
      assert.deepEqual(errors, []);
    });

    test('image and audio NFT pages show the minted file: the image decodes, the audio loads its metadata', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(inBrowser, 'Chromium and the rig started');
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
      assert.deepEqual(size, [image.width, image.height]);
      await page.screenshot({ path: join(ARTIFACTS, 'explorer-image.png'), fullPage: true });
      await page.goto(`${live.url}/#/audio/${audioId}`);
      await page.waitForSelector('h1:has-text("Audio NFT")');
      await page.waitForFunction(() => document.querySelector('.media audio')?.readyState >= 1);
      const seconds = await page.evaluate(() => document.querySelector('.media audio').duration);
      assert.ok(Math.abs(seconds * 1000 - audio.durationMs) <= 50, `the browser reads ${seconds} s, the NFT says ${audio.durationMs} ms`);
      await page.goto(`${live.url}/#/task/${image.taskId}`);
      await page.waitForSelector(`a[href="#/image/${imageId}"]`);
      assert.deepEqual(errors, []);
    });

    test('an image NFT the node does not know is reported on the page, not as a script error', { skip: missing('chromium') }, async () => {
      assert.ok(inBrowser, 'Chromium and the rig started');
      errors.length = 0;
      await page.goto(`${live.url}/#/image/${'ab'.repeat(32)}`);
      await page.waitForSelector('h1:has-text("Not found")');
      // The browser itself logs the 404 of the lookup; nothing else may be on the console.
      assert.deepEqual(
        errors.filter((e) => !/Failed to load resource: the server responded with a status of 404/.test(e)),
        [],
      );
    });
  });
}
