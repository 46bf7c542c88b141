/**
 * Dark mode, phones and live lists in headless Chromium, on the shared rig's live node: both
 * themes (the system's dark, the toggle's dark and light) axe-clean on the pages sampled here;
 * at 390 px list rows are cards with one-line ids, the nav folds behind a menu button and the
 * home page is at most three screens tall above its charts; the blocks list offers the blocks
 * that arrive ("N new blocks - show"), `?page=N` works in both hash forms, each page with its
 * own title, and the search box offers what 2+ characters find. Screenshots: test-artifacts/screenshots/dark-*.jpg and phone-cards.jpg.
 */
import type { Page } from 'playwright-core';

import { missing } from '../../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { onPhone, PHONE, type ExplorerRig, type SharedRig } from '../../../helpers/explorerRig.ts';
import { axeProblems } from '../../../helpers/pageAudits.ts';

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const document: any;
declare const getComputedStyle: any;
declare const scrollY: number;
declare const localStorage: any;

/** The theme and phone suite, in a tab of its own on the shared rig (run by the caller). */
export function themePhoneSuite(shared: SharedRig): void {
  describe('explorer themes, phones and live lists in Chromium', { skip: missing('chromium') }, () => {
    let rig: ExplorerRig | null = null;
    let page: Page;

    before(async () => {
      rig = await shared.get();
      if (rig) ({ page } = await rig.chromium.tab());
    });

    after(async () => {
      if (rig) {
        await page.emulateMedia({ colorScheme: 'light' });
        await page.evaluate(() => localStorage.removeItem('ombra-explorer-theme')).catch(() => undefined);
        await page.close();
      }
    });

    const samples = () =>
      (rig?.samples ?? []).filter((s) => ['home', 'block-busiest', 'blocks', 'mempool'].includes(s.name) || s.name.startsWith('address'));
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

    test('dark by the system and by the toggle, light by the toggle: each axe-clean', { skip: missing('chromium') }, async () => {
      assert.ok(rig, 'Chromium and the rig started');
      const r = rig;
      await page.emulateMedia({ colorScheme: 'dark' });
      const picked = samples().slice(0, 4);
      for (const s of picked) {
        await r.open(page, s, s === picked[0]);
        assert.equal(await background(), 'rgb(18, 22, 29)', `${s.name}: dark by the system`);
        assert.deepEqual(await axeProblems(page), [], `${s.name} in the dark theme`);
      }
      await r.shoot(page, 'dark-home');
      // The toggle wins over the system, and is kept across loads.
      await page.click('#theme');
      assert.equal(await background(), 'rgb(247, 248, 250)');
      assert.equal(await page.getAttribute('#theme', 'aria-pressed'), 'false');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.reload();
      await page.click('#theme');
      await r.open(page, picked[1]);
      assert.equal(await background(), 'rgb(18, 22, 29)', 'dark by the toggle under a light system');
      assert.deepEqual(await axeProblems(page), [], 'dark by the toggle');
      await r.shoot(page, 'dark-block');
      await page.click('#theme');
      assert.deepEqual(await axeProblems(page), [], 'light by the toggle');
    });

    test('a phone: cards with one-line ids, a folded nav, a home page at most three screens above its charts', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(rig, 'Chromium and the rig started');
      const r = rig;
      const blocks = samples().find((s) => s.name === 'blocks');
      await onPhone(page, async () => {
        await r.open(page, { route: '', arg: '', name: 'home' }, true);
        const aboveCharts = await page.evaluate(() => document.querySelector('section.charts').getBoundingClientRect().top + scrollY);
        console.log(`home at 390 px: ${Math.round(aboveCharts)} px above the charts (3 screens: ${3 * PHONE.height})`);
        assert.ok(aboveCharts <= 3 * PHONE.height, `${aboveCharts} px above the charts`);
        assert.ok(await page.isHidden('nav.sections'), 'the sections fold away');
        await page.click('#menu');
        assert.ok(await page.isVisible('nav.sections'));
        assert.equal(await page.getAttribute('#menu', 'aria-expanded'), 'true');
        if (blocks) await r.open(page, blocks);
        const card = await page.evaluate(() => {
          const row = document.querySelector('table.data tbody tr');
          const id = row.querySelector('td .mono, td .id');
          return {
            display: getComputedStyle(row).display,
            label: getComputedStyle(row.querySelector('td'), '::before').content,
            idLines: id ? Math.round(id.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(id).lineHeight || '20')) : 1,
          };
        });
        assert.equal(card.display, 'block', 'a row is a card');
        assert.equal(card.label, '"height"');
        assert.ok(card.idLines <= 1, 'ids on one line');
        await r.shoot(page, 'phone-cards');
      });
    });

    test('?page=N in both hash forms, a title per page, and the blocks list offers the blocks that arrive', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(rig, 'Chromium and the rig started');
      const base = rig.live.url;
      for (const hash of ['#/blocks?page=2', '#/blocks/?page=2']) {
        await page.goto('about:blank');
        await page.goto(`${base}/${hash}`);
        await page.waitForSelector('nav.pager');
        assert.match((await page.textContent('nav.pager .count')) ?? '', /^26–50 of/, hash);
        assert.equal(await page.title(), 'Blocks · Ombra explorer');
      }
      // Typeahead from 2 characters: the first hex of an address (no ox) offers it.
      const address = (rig.samples.find((x) => x.route === 'address')?.arg ?? '').toLowerCase();
      await page.fill('#q', address.slice(2, 6));
      await page.waitForFunction((a) => [...document.querySelectorAll('#q-hints option')].some((o: any) => o.value === a), address, {
        timeout: 20_000,
      });
      await page.goto(`${base}/#/blocks`);
      await page.waitForSelector('button.new-bar:not([hidden])', { timeout: 30_000 });
      assert.match((await page.textContent('button.new-bar')) ?? '', /^\d+ new blocks? - show$/);
      const before = await page.textContent('table.data tbody tr td');
      await page.click('button.new-bar');
      await page.waitForFunction((b) => document.querySelector('table.data tbody tr td')?.textContent !== b, before);
    });

    test('the stats page: a range picker, charts with legends that show the values under the pointer, axe-clean', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(rig, 'Chromium and the rig started');
      await page.goto('about:blank');
      await page.goto(`${rig.live.url}/#/stats`);
      await page.waitForSelector('.charts figure.chart .u-legend');
      assert.equal(await page.title(), 'Stats · Ombra explorer');
      assert.equal(await page.locator('.charts figure.chart').count(), 6);
      assert.match((await page.locator('figure.chart figcaption').first().textContent()) ?? '', /7 days/);
      // Hovering the first chart fills its legend with the values at the pointer.
      const over = page.locator('.charts .u-over').first();
      const box = await over.boundingBox();
      if (box) await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
      await page.waitForFunction(() => /#|\d{4}-\d{2}-\d{2}/.test(document.querySelector('.charts .u-legend .u-value')?.textContent ?? ''));
      assert.deepEqual(await axeProblems(page), []);
      await page.click('nav.tabs a:has-text("24 hours")');
      await page.waitForFunction(() => /24 hours/.test(document.querySelector('figure.chart figcaption')?.textContent ?? ''));
    });

    test('/docs: status codes on one line, a curl example and an example answer per route, and "Try it" against this node', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(rig, 'Chromium and the rig started');
      await page.goto(`${rig.live.url}/docs`);
      await page.waitForSelector('#getApiChainBlockIndex');
      await page.click('#getApiChainBlockIndex > summary');
      const op = page.locator('#getApiChainBlockIndex');
      assert.equal(await op.locator('pre.curl').textContent(), `curl -s '${rig.live.url}/api/chain/block/1'`);
      // An example answer of the block's shape, built from the document (api/docs/sample.js).
      const example = JSON.parse((await op.locator('pre.example').textContent()) ?? '{}');
      for (const k of ['index', 'hash', 'previousHash', 'transactions']) assert.ok(k in example, `example answer has ${k}`);
      assert.match((await op.locator('h4', { hasText: 'Example answer' }).textContent()) ?? '', /\(200\)/);
      await op.locator('input[name="index"]').fill('2');
      assert.equal(await op.locator('pre.curl').textContent(), `curl -s '${rig.live.url}/api/chain/block/2'`);
      await op.locator('button', { hasText: 'Try it' }).click();
      await op.locator('.answer pre').waitFor();
      assert.match((await op.locator('.answer p').textContent()) ?? '', /^200 /);
      assert.equal(JSON.parse((await op.locator('.answer pre').textContent()) ?? '{}').index, 2);
      const statusLines = await page.evaluate(() =>
        [...document.querySelectorAll('#getApiChainBlockIndex td.status code')].map((c: any) => c.getClientRects().length),
      );
      assert.ok(statusLines.length >= 3 && statusLines.every((n: number) => n === 1), `${statusLines}`);
      // A write shows its curl with the example body, and no "Try it".
      await page.click('#postApiChainTx > summary');
      assert.match(
        (await page.locator('#postApiChainTx pre.curl').textContent()) ?? '',
        /^curl -s -X POST -H 'Content-Type: application\/json' --data '\{/,
      );
      assert.equal(await page.locator('#postApiChainTx button', { hasText: 'Try it' }).count(), 0);
      assert.deepEqual(await axeProblems(page), []);
    });
  });
}
