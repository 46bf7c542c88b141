/**
 * Every page type of the explorer in headless Chromium, on a node holding the recorded `ombra
 * simulate` chain: the route names come from the explorer's route table and the ids from the API
 * (test/helpers/explorerSamples.ts), so a new page is tried as soon as it is routed. Each page loads
 * with no console error, uncaught exception or failed request, both as a new document and followed
 * from another page, with no serious or critical axe-core violation, and fits a 390 px phone (the
 * API docs too); test/browser/api/explorer/a11y.browser.ts shows the axe check fails a bad page. One
 * screenshot per page type and viewport goes to test-artifacts/screenshots/. Run by
 * explorer.browser.test.ts on the rig it shares with the other browser suites.
 */
import type { Page } from 'playwright-core';

import { missing } from '../../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { onPhone, PHONE, type ExplorerRig, type SharedRig } from '../../../helpers/explorerRig.ts';
import type { PageSample } from '../../../helpers/explorerSamples.ts';
import { axeProblems, byProblem, overflowProblems } from '../../../helpers/pageAudits.ts';

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const document: any;

/** Whether the sample is the first of its route (the one photographed). */
const firstOfRoute = (s: PageSample, all: PageSample[]) => all.find((x) => x.route === s.route) === s;

/** The page-type suite, in a tab of its own on the shared rig (run by the caller). */
export function pageTypesSuite(shared: SharedRig): void {
  describe('every explorer page type in Chromium', { skip: missing('chromium') }, () => {
    let rig: ExplorerRig | null = null;
    let page: Page;

    before(async () => {
      rig = await shared.get();
      if (rig) ({ page } = await rig.chromium.tab());
    });

    after(async () => {
      if (rig) await page.close();
    });

    test("every route of the explorer's route table has a real page to try", { skip: missing('chromium') }, () => {
      assert.ok(rig, 'Chromium and the rig started');
      for (const route of ['block', 'tx', 'address']) assert.ok(rig.routes.includes(route), `the route table read: ${rig.routes}`);
      assert.deepEqual(rig.missing, [], 'give these routes a source in test/helpers/explorerSamples.ts, or link to them from a page');
    });

    test('every page type loads with no console errors or failed requests, and axe-core finds no serious or critical violation', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(rig, 'Chromium and the rig started');
      const found: [string, string][] = [];
      const axe: [string, string][] = [];
      for (const s of rig.samples) {
        // The first page of each type is loaded as a new document (a link from outside); the others are followed within.
        for (const p of await rig.open(page, s, firstOfRoute(s, rig.samples))) found.push([`${s.name} ${s.arg}`, p]);
        // axe on the page just loaded: one pass over the samples serves both checks (the suite's time is CI's).
        for (const p of await axeProblems(page)) axe.push([s.name, p]);
        if (firstOfRoute(s, rig.samples)) await rig.shoot(page, s.name);
      }
      await rig.open(page, `${rig.live.url}/docs`);
      for (const p of await axeProblems(page)) axe.push(['docs', p]);
      assert.deepEqual(byProblem(found), []);
      assert.deepEqual(byProblem(axe), [], 'axe-core: serious or critical violations');
    });

    test('no page is wider than a 390 px phone, the API docs included', { skip: missing('chromium') }, async () => {
      assert.ok(rig, 'Chromium and the rig started');
      const r = rig;
      const found: [string, string][] = [];
      await onPhone(page, async () => {
        for (const s of [...r.samples, { route: 'docs', arg: '', name: 'docs' }]) {
          await r.open(page, s.route === 'docs' ? `${r.live.url}/docs` : s, s === r.samples[0]);
          for (const p of await overflowProblems(page)) found.push([s.name, p]);
          if (firstOfRoute(s, r.samples) || s.route === 'docs') await r.shoot(page, `${s.name}-${PHONE.width}`);
        }
      });
      assert.deepEqual(byProblem(found), []);
    });

    test('the checks fail a page that logs an error and fails a request, or that is wider than the phone even under overflow-x: hidden', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(rig, 'Chromium and the rig started');
      // An image NFT the node does not know: the lookup answers 404, which the page logs (the
      // read itself is made by the shared worker, out of the tab's sight: api/explorer/apiCache.ts).
      const problems = await rig.open(page, { route: 'image', arg: 'ab'.repeat(32), name: 'unknown image' });
      assert.ok(
        problems.some((p) => p.startsWith('console: Failed to load resource')),
        `${problems}`,
      );
      const r = rig;
      await onPhone(page, async () => {
        await r.open(page, r.samples[1]);
        assert.deepEqual(await overflowProblems(page), []);
        await page.evaluate(() => {
          const wide = document.createElement('div');
          wide.className = 'injected';
          wide.style.width = '600px';
          wide.textContent = 'a 600 px wide element';
          document.getElementById('view').append(wide);
          document.documentElement.style.overflowX = 'hidden';
          document.body.style.overflowX = 'hidden';
        });
        const found = await overflowProblems(page);
        assert.ok(
          found.some((p) => p.startsWith('div.injected reaches')),
          `${found}`,
        );
      });
    });
  });
}
