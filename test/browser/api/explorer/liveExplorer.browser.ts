/**
 * The explorer's live side in headless Chromium against a live node with the simulated chain
 * (what `ombra simulate` records): one stream per browser shared by many tabs (a shared worker,
 * and the leader-tab fallback), reconnect with resume after the node restarts on the same port,
 * ages that tick while no block comes, the home page's totals and charts drawn with data and
 * following the chain, and no horizontal scroll at 390 px. The reconnect time is printed, not
 * asserted (the machine is shared). Run by explorer.browser.test.ts on the shared rig, last: it
 * restarts the node.
 */
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

import { missing } from '../../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { present } from '../../../../core/errors.ts';
import { ARTIFACTS } from '../../../helpers/chromium.ts';
import type { SharedRig } from '../../../helpers/explorerRig.ts';
import type { LiveNode } from '../../../helpers/liveNode.ts';

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const document: any;
declare const window: any;
declare const SharedWorker: any;

const TABS = 10;
// Ten tabs loading at once on a shared, loaded machine can take long: the tests wait, they do not time.
const LOADED_MS = 120_000;

/** The live-side suite, in tabs of its own on the shared rig (run by the caller, last: it restarts the node). */
export function liveExplorerSuite(shared: SharedRig): void {
  describe('the live explorer in Chromium', { skip: missing('chromium') }, () => {
    let live: LiveNode;
    let browser: BrowserContext | null = null;
    let page: Page;
    let errors: string[] = [];

    before(async () => {
      const rig = await shared.get();
      assert.ok(rig, 'Chromium and the rig started');
      live = rig.live;
      browser = rig.chromium.browser;
      ({ page, errors } = await rig.chromium.tab());
    });

    // Tabs a test opened are closed after it, even when it failed (they hold connections).
    let opened: Page[] = [];
    afterEach(async () => {
      await Promise.all(opened.map((p) => p.close().catch(() => undefined)));
      opened = [];
    });

    after(async () => {
      if (browser) await page.close();
    });

    const heightOf = (p: Page) => p.evaluate(() => Number(document.getElementById('height').textContent));
    const liveAndLoaded = async (p: Page) => {
      await p.waitForSelector('#live.on', { timeout: LOADED_MS });
      await p.waitForSelector('text=Latest blocks', { timeout: LOADED_MS });
      await p.waitForFunction(() => /^\d+$/.test(document.getElementById('height').textContent ?? ''));
    };

    /** Opens `n` tabs at `path` in the shared browser context, each collecting its console errors. */
    async function openTabs(n: number, path: string): Promise<Page[]> {
      const tabs: Page[] = [];
      for (let i = 0; i < n; i++) {
        const tab = await present(browser, 'the browser').newPage();
        opened.push(tab);
        tab.on('console', (m) => {
          if (m.type() === 'error') errors.push(`tab ${i}: ${m.text()}`);
        });
        tab.on('pageerror', (e) => errors.push(`tab ${i} uncaught: ${e.message}`));
        await tab.goto(`${live.url}${path}`);
        tabs.push(tab);
      }
      return tabs;
    }

    /** Waits until every tab shows a height of at least `h`. */
    async function allReach(tabs: Page[], h: number): Promise<void> {
      await Promise.all(
        tabs.map((p) =>
          p.waitForFunction((min) => Number(document.getElementById('height').textContent) >= min, h, { timeout: LOADED_MS }),
        ),
      );
    }

    test(`${TABS} tabs of one browser share one stream (a shared worker) and all follow new blocks`, {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(browser, 'Chromium and the rig started');
      errors.length = 0;
      const tabs = await openTabs(TABS, '/');
      await Promise.all(tabs.map(liveAndLoaded));
      for (const tab of tabs) assert.equal(await tab.evaluate(() => document.documentElement.dataset.live), 'worker');
      const top = Math.max(...(await Promise.all(tabs.map(heightOf))));
      await allReach(tabs, top + 3);
      assert.deepEqual(errors, []);
    });

    test(`without a shared worker, ${TABS} tabs elect one leader that relays; when it closes another takes over`, {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(browser, 'Chromium and the rig started');
      errors.length = 0;
      const tabs = await openTabs(TABS, '/?live=leader');
      await Promise.all(tabs.map(liveAndLoaded));
      for (const tab of tabs) assert.equal(await tab.evaluate(() => document.documentElement.dataset.live), 'leader');
      const top = Math.max(...(await Promise.all(tabs.map(heightOf))));
      await allReach(tabs, top + 3);
      // The first tab took the lock: closing it hands the stream to another tab.
      await tabs[0].close();
      const rest = tabs.slice(1);
      const now = Math.max(...(await Promise.all(rest.map(heightOf))));
      await allReach(rest, now + 3);
      assert.deepEqual(errors, []);
    });

    test('after the node restarts on the same port the page is live again and has missed no block; ages tick meanwhile', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(browser, 'Chromium and the rig started');
      await page.goto(`${live.url}/`);
      await liveAndLoaded(page);
      // A second port on the same shared worker records every block the browser's one stream delivers.
      await page.evaluate(() => {
        window.seen = [];
        const w = new SharedWorker('/explorer/liveWorker.ts', { type: 'module', name: 'ombra-live' });
        w.port.onmessage = (m: any) => {
          if (m.data.kind === 'event' && m.data.e.event === 'block') window.seen.push(m.data.e.data.index);
        };
        w.port.start();
      });
      await page.waitForFunction(() => window.seen.length >= 3);
      await live.restart(async () => {
        await page.waitForSelector('#live.off', { timeout: LOADED_MS });
        // No block comes while the node is down: the latest block's age still moves on.
        const ageOf = () => page.evaluate(() => document.querySelector('main time[data-ago]')?.textContent);
        const before = await ageOf();
        await page.waitForFunction((a) => document.querySelector('main time[data-ago]')?.textContent !== a, before, { timeout: 10_000 });
      });
      const answering = Date.now();
      await page.waitForSelector('#live.on', { timeout: LOADED_MS });
      const reconnectMs = Date.now() - answering;
      const seenAtRestart = await page.evaluate(() => window.seen.length);
      const headAtRestart = live.node.node.head().index;
      await page.waitForFunction((h) => window.seen.at(-1) >= h + 3, headAtRestart, { timeout: LOADED_MS });
      const seen: number[] = await page.evaluate(() => window.seen);
      for (let i = 1; i < seen.length; i++) assert.equal(seen[i], seen[i - 1] + 1, `block ${seen[i - 1]} then ${seen[i]}`);
      assert.ok(seen.length > seenAtRestart);
      console.log(`  live again ${reconnectMs} ms after the node answered again`);
      await allReach([page], headAtRestart + 3);
    });

    test('the home page shows totals and charts drawn with the chain data, and the charts follow new blocks', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(browser, 'Chromium and the rig started');
      errors.length = 0;
      await page.goto(`${live.url}/`);
      await liveAndLoaded(page);
      await page.waitForSelector('.tiles dd');
      // The analytics charts are read once scrolled to (they cost reads of the visitor's quota).
      await page.locator('section.charts').scrollIntoViewIfNeeded();
      const tiles: Record<string, string> = await page.evaluate(() =>
        Object.fromEntries(
          [...document.querySelectorAll('.tiles > div')].map((d: any) => [
            d.querySelector('dt').textContent,
            d.querySelector('dd').textContent,
          ]),
        ),
      );
      assert.match(tiles['Circulating supply'], /^[0-9,.]+ OMBRA$/);
      for (const name of ['Transactions', 'Tasks', 'Miners', 'Agent runs'])
        assert.ok(Number(tiles[name].replace(/,/g, '')) > 0, `${name}: ${JSON.stringify(tiles)}`);
      assert.match(tiles['Storage used'], /^[0-9.,]+ (B|kB|MB)$/);
      // The analytics charts are read once scrolled to: wait until each has its data (its caption).
      await page.waitForFunction(
        () => [...document.querySelectorAll('figure.chart figcaption')].every((f: any) => f.querySelector('span')?.textContent !== ''),
        undefined,
        { timeout: LOADED_MS, polling: 250 },
      );
      // Every chart canvas has drawn something: far more painted pixels than the bare axes' lines.
      const painted: number[] = await page.evaluate(() =>
        [...document.querySelectorAll('.chart-box canvas')].map((c: any) => {
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          let n = 0;
          for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
          return n;
        }),
      );
      assert.equal(painted.length, 9);
      for (const n of painted) assert.ok(n > 500, `painted pixels ${painted}`);
      const captions: string[] = await page.evaluate(() =>
        [...document.querySelectorAll('figure.chart figcaption')].map((f: any) => f.textContent),
      );
      // The simulated chain's days show in the 30-day series: its transactions and its tasks by type.
      assert.ok(
        captions.some((c) => /Transactions per day, 30 days [1-9][0-9,]* transactions in 30 days/.test(c)),
        captions.join('\n'),
      );
      assert.ok(captions.some((c) => /Tasks by type, 30 days/.test(c)));
      assert.ok((await page.locator('.bars li').count()) >= 2, 'task types and authorities listed');
      const at = async () => Number((await page.locator('figure.chart figcaption').first().textContent())?.match(/at #(\d+)/)?.[1]);
      const first = await at();
      assert.ok(first > 0);
      await page.waitForFunction(
        (h) => Number(document.querySelector('figure.chart figcaption').textContent.match(/at #(\d+)/)?.[1]) >= h + 3,
        first,
        {
          timeout: 30_000,
        },
      );
      await page.screenshot({ path: join(ARTIFACTS, 'explorer-home-charts.png'), fullPage: true });
      assert.deepEqual(errors, []);
    });

    test('at 390 px wide neither the home page, a block, a transaction, an address nor /docs scrolls sideways', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(browser, 'Chromium and the rig started');
      errors.length = 0;
      const phone = await present(browser, 'the browser').newPage();
      opened.push(phone);
      await phone.setViewportSize({ width: 390, height: 844 });
      const tx = live.blocks.flatMap((b) => b.transactions).find((x) => x.type === 'TASK_RESPONSE');
      const pages: [string, string][] = [
        ['/', '.tiles dd'],
        ['/#/block/3', 'h1'],
        [`/#/tx/${tx?.hash}`, 'h1'],
        [`/#/address/${tx?.from}`, 'h1'],
        ['/docs', 'h1, h2'],
      ];
      for (const [path, ready] of pages) {
        await phone.goto(`${live.url}${path}`);
        await phone.waitForSelector(ready);
        await phone.waitForTimeout(300);
        const width = await phone.evaluate(() => document.documentElement.scrollWidth);
        if (path === '/') await phone.screenshot({ path: join(ARTIFACTS, 'explorer-home-390.png'), fullPage: true });
        assert.ok(width <= 390, `${path} lays out ${width} px wide at 390`);
      }
    });
  });
}
