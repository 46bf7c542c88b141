/**
 * The explorer's accessibility in headless Chromium, on a node holding the recorded `ombra
 * simulate` chain: the keyboard alone reaches the search box and the page's links, each with a
 * visible focus ring, and follows a link with Enter; axe-core fails a page with an unlabelled
 * button or an image without alt text. (axe runs over every page type in pageTypes.browser.ts,
 * in the same pass that loads them.) Run by explorer.browser.test.ts on the shared rig.
 */
import type { Page } from 'playwright-core';

import { missing } from '../../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { settled, type ExplorerRig, type SharedRig } from '../../../helpers/explorerRig.ts';
import { axeProblems, tabStops } from '../../../helpers/pageAudits.ts';

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const document: any;
declare const location: any;

/** The accessibility suite, in a tab of its own on the shared rig (run by the caller). */
export function a11ySuite(shared: SharedRig): void {
  describe('explorer accessibility in Chromium', { skip: missing('chromium') }, () => {
    let rig: ExplorerRig | null = null;
    let page: Page;

    before(async () => {
      rig = await shared.get();
      if (rig) ({ page } = await rig.chromium.tab());
    });

    after(async () => {
      if (rig) await page.close();
    });

    test('Tab reaches the search box and the links of the home and block pages, each focus drawn, and Enter follows a link', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(rig, 'Chromium and the rig started');
      for (const s of rig.samples.filter((x) => x.name === 'home' || x.name === 'block-busiest')) {
        await rig.open(page, s, true);
        const stops = await tabStops(page, 30);
        const trail = stops.map((x) => x.element).join(' → ');
        assert.ok(
          stops.some((x) => x.element.startsWith('input#q')),
          `${s.name}: the search box is never focused: ${trail}`,
        );
        assert.ok(
          stops.some((x) => x.inView && x.element.startsWith('a ')),
          `${s.name}: no link of the page is focused: ${trail}`,
        );
        assert.deepEqual(
          stops.filter((x) => !x.visible).map((x) => x.element),
          [],
          `${s.name}: focus not drawn on these stops`,
        );
      }
      // From the top of the block page, Tab to its first link to a page in the view (not a CSV download) and press Enter.
      await page.evaluate(() => document.activeElement?.blur());
      const before = await page.evaluate(() => location.hash);
      let target: string | null = null;
      for (let i = 0; i < 30 && !target; i++) {
        await page.keyboard.press('Tab');
        target = await page.evaluate(() => document.activeElement.closest('#view') && document.activeElement.getAttribute('href'));
        if (target && !target.startsWith('#/')) target = null;
      }
      assert.ok(target?.startsWith('#/') && target !== before, `focused: ${target}`);
      await page.evaluate(() => {
        for (const c of document.getElementById('view').children) c.staleView = true;
      });
      await page.keyboard.press('Enter');
      await settled(page);
      assert.equal(await page.evaluate(() => location.hash), target);
    });

    test('a link focused on the home page keeps the focus while new blocks arrive', { skip: missing('chromium') }, async () => {
      assert.ok(rig, 'Chromium and the rig started');
      await rig.open(page, rig.samples[0], true);
      let focused: string | null = null;
      for (let i = 0; i < 40 && !focused; i++) {
        await page.keyboard.press('Tab');
        focused = await page.evaluate(() => (document.activeElement.closest('#view') ? document.activeElement.getAttribute('href') : null));
      }
      assert.ok(focused, 'Tab never reached a link of the home page');
      // The highest block linked now; then wait until two newer ones are shown.
      const newest = () =>
        page.evaluate(() =>
          Math.max(
            -1,
            ...[...document.querySelectorAll('#view a[href^="#/block/"]')].map((a: any) => Number(a.getAttribute('href').slice(8)) || -1),
          ),
        );
      const before = await newest();
      await page.waitForFunction((h) => {
        const shown = [...document.querySelectorAll('#view a[href^="#/block/"]')].map((a: any) => Number(a.getAttribute('href').slice(8)));
        return shown.some((n) => n >= h + 2);
      }, before);
      const now = await page.evaluate(() => ({
        inView: !!document.activeElement.closest('#view'),
        element: `${document.activeElement.tagName} ${document.activeElement.getAttribute('href') ?? ''}`,
      }));
      assert.ok(now.inView, `focus was on ${focused} before; now on ${now.element}`);
    });

    test('axe-core fails a page with an unlabelled button or an image without alt text', { skip: missing('chromium') }, async () => {
      assert.ok(rig, 'Chromium and the rig started');
      await rig.open(page, rig.samples[0], true);
      const before = await axeProblems(page);
      await page.evaluate(() => {
        const view = document.getElementById('view');
        view.append(document.createElement('button'));
        const img = document.createElement('img');
        img.src = '/explorer/favicon.svg';
        view.append(img);
      });
      const found = (await axeProblems(page)).filter((p) => !before.includes(p));
      assert.ok(
        found.some((p) => p.startsWith('button-name (critical)')),
        `${found}`,
      );
      assert.ok(
        found.some((p) => p.startsWith('image-alt (critical)')),
        `${found}`,
      );
    });
  });
}
