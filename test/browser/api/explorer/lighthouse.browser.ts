/**
 * Lighthouse (12.2.3, its Node API) on the explorer's home, block, transaction and address pages,
 * in the headless Chromium the other browser suites use (over its DevTools port), on a node
 * holding the recorded `ombra simulate` chain: accessibility and best practices each score at
 * least 90 (Lighthouse's default mobile emulation; only those two categories are run). The
 * reports go to test-artifacts/lighthouse/ for review. Run by explorer.browser.test.ts on the
 * rig it shares with the other browser suites (Lighthouse opens its own tab in that browser).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';

import { missing } from '../../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ARTIFACTS } from '../../../helpers/chromium.ts';
import type { ExplorerRig, SharedRig } from '../../../helpers/explorerRig.ts';
import { sampleUrl } from '../../../helpers/explorerSamples.ts';

const CATEGORIES = ['accessibility', 'best-practices'];
const MIN_SCORE = 0.9;
const REPORTS = join(ARTIFACTS, 'lighthouse');
/** The pages scored: the ones visitors land on most. */
const PAGES = { home: 'home', block: 'block-busiest', transaction: 'tx-TRANSFER', address: 'address-sender' };

/** The Lighthouse suite on the shared rig, whose browser has its DevTools port open (run by the caller). */
export function lighthouseSuite(shared: SharedRig): void {
  describe('Lighthouse on the explorer', { skip: missing('chromium') }, () => {
    let rig: ExplorerRig | null = null;

    before(async () => {
      rig = await shared.get();
      assert.ok(!rig || rig.chromium.port, 'Lighthouse needs the browser started with its DevTools port (devtools: true)');
      mkdirSync(REPORTS, { recursive: true });
    });

    for (const [page, sample] of Object.entries(PAGES))
      test(`the ${page} page scores at least ${MIN_SCORE * 100} for accessibility and best practices`, {
        skip: missing('chromium'),
      }, async () => {
        assert.ok(rig, 'Chromium and the rig started');
        const s = rig.samples.find((x) => x.name === sample);
        assert.ok(s, `no ${sample} among the samples`);
        const result = await lighthouse(sampleUrl(rig.live.url, s), {
          port: rig.chromium.port ?? undefined,
          onlyCategories: CATEGORIES,
          output: 'html',
          logLevel: 'error',
          // The default throttling ('simulate') only models speed afterwards, for performance, which is not run;
          // it also keeps Lighthouse's waits for a quiet network and CPU at 1 s ('provided' stretches them to 5.25 s).
          // The page renders in well under a second; a page that never lets the network rest fails below rather than costing 45 s.
          maxWaitForLoad: 15_000,
        });
        assert.ok(result, 'Lighthouse answered nothing');
        writeFileSync(join(REPORTS, `${page}.html`), String(result.report));
        const { lhr } = result;
        assert.equal(lhr.runtimeError, undefined, `Lighthouse could not run: ${lhr.runtimeError?.message}`);
        // "The page loaded too slowly to finish within the time limit" and the like: the scores would not count.
        assert.deepEqual(lhr.runWarnings, [], `${page} page`);
        for (const id of CATEGORIES) {
          const category = lhr.categories[id];
          // What cost points: the audits that count and did not pass.
          const failed = category.auditRefs
            .filter((r) => r.weight > 0 && lhr.audits[r.id].score !== null && (lhr.audits[r.id].score ?? 0) < 1)
            .map((r) => `${r.id} (${lhr.audits[r.id].title})`);
          assert.ok((category.score ?? 0) >= MIN_SCORE, `${page} page: ${id} scores ${category.score}; failed: ${failed.join('; ')}`);
        }
      });
  });
}
