/**
 * What the explorer's browser suites share (test/browser/api/explorer/explorer.browser.test.ts starts it
 * once for all of them): a live node on the recorded `ombra simulate` chain
 * (fixtures/simulated-chain.ndjson, which `npm run fixtures` records from `ombra simulate`; every
 * transaction type, still producing blocks), one headless Chromium with its DevTools port open
 * (for Lighthouse), and a sample page of every route of the explorer's route table
 * (test/helpers/explorerSamples.ts). Each suite works in its own tab. `open` loads a sample as a
 * fresh document, waits until it has rendered, and answers what went wrong on the way: console
 * errors, uncaught exceptions, failed requests and HTTP errors.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, launchChromium, type Chromium, type ChromiumOptions } from './chromium.ts';
import { explorerSamples, sampleUrl, type PageSample } from './explorerSamples.ts';
import { liveSimulatedNode, type LiveNode } from './liveNode.ts';

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const document: any;
declare const location: any;

/** Where the suites write their screenshots (gitignored with test-artifacts/). */
const SCREENSHOTS = join(ARTIFACTS, 'screenshots');
/** A phone's viewport: the width every page must fit without scrolling sideways. */
export const PHONE = { width: 390, height: 844 };

/** Options of `explorerRig`. */
export interface ExplorerRigOptions extends ChromiumOptions {
  /** Sample only these routes (and the home page); default all of the route table. */
  routes?: string[];
}

/** Runs `fn` with `page` at the phone's viewport, then gives the page its viewport back. */
export async function onPhone<T>(page: Page, fn: () => Promise<T>): Promise<T> {
  const before = page.viewportSize();
  await page.setViewportSize(PHONE);
  try {
    return await fn();
  } finally {
    if (before) await page.setViewportSize(before);
  }
}

/** A node, a browser and the explorer's sampled pages. */
export interface ExplorerRig {
  live: LiveNode;
  chromium: Chromium;
  /** The explorer's route names (its route table). */
  routes: string[];
  /** A real page of each route (several for routes whose pages differ by kind: a transaction of each type, ...). */
  samples: PageSample[];
  /** Routes for which no page could be found. */
  missing: string[];
  /**
   * Shows a sample in `page` and waits for it to render; answers the problems seen meanwhile. A
   * page already in the explorer follows the sample's #fragment as a link would; `fresh`, an
   * absolute URL or another page loads it as a new document.
   */
  open(page: Page, target: PageSample | string, fresh?: boolean): Promise<string[]>;
  /** A full-page screenshot of `page`, test-artifacts/screenshots/`name`.jpg. */
  shoot(page: Page, name: string): Promise<void>;
  stop(): Promise<void>;
}

const problemsOf = new WeakMap<Page, string[]>();

/** Starts collecting `page`'s problems (once per page). */
function watch(page: Page): Page {
  if (problemsOf.has(page)) return page;
  const problems: string[] = [];
  problemsOf.set(page, problems);
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()} @ ${m.location().url}`);
  });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => {
    // An abort is the page's own doing (a stream closed, a fetch superseded), not a failure.
    const why = r.failure()?.errorText ?? '';
    if (why !== 'net::ERR_ABORTED') problems.push(`request failed: ${r.method()} ${r.url()} (${why})`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  return page;
}

/** Waits until the explorer has rendered the page: the last one replaced, no "Loading…" left, nothing aria-busy, every image loaded. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const view = document.getElementById('view');
      if (view && (/Loading…/.test(view.textContent) || [...view.children].some((c: any) => c.staleView))) return false;
      if (document.querySelector('[aria-busy="true"]')) return false;
      return [...document.images].every((i: any) => i.complete);
    },
    undefined,
    { timeout: 20_000, polling: 100 },
  );
}

/** Starts the node and the browser and samples the explorer's pages; null when Chromium is not installed (outside CI). */
async function explorerRig(what: string, opts: ExplorerRigOptions = {}): Promise<ExplorerRig | null> {
  const live = await liveSimulatedNode();
  const chromium = await launchChromium(what, opts);
  if (!chromium) {
    await live.stop();
    return null;
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  const open = async (page: Page, target: PageSample | string, fresh = false) => {
    const problems = problemsOf.get(watch(page)) ?? [];
    const url = typeof target === 'string' ? target : sampleUrl(live.url, target);
    const inExplorer = page.url().split('#')[0] === `${live.url}/`;
    if (!fresh && typeof target !== 'string' && inExplorer && page.url() !== url) {
      // Within the explorer: follow the #fragment, as a link does; what is shown now is marked stale.
      problems.length = 0;
      await page.evaluate((hash) => {
        for (const c of document.getElementById('view')?.children ?? []) c.staleView = true;
        location.hash = hash;
      }, new URL(url).hash);
    } else {
      // A blank document first: the URL loads afresh even when only its #fragment differs.
      await page.goto('about:blank');
      problems.length = 0;
      await page.goto(url);
    }
    await settled(page);
    return [...problems];
  };
  try {
    const found = await explorerSamples(watch(chromium.page), live.url, (s) => open(chromium.page, s).then(() => undefined), opts.routes);
    // The sampling tab lets go of the explorer (its live stream), so it plays no part in what the suites' tabs do.
    await chromium.page.goto('about:blank');
    return {
      live,
      chromium,
      ...found,
      open,
      // JPEG: a full page encodes in about half the time of a PNG, and is as good for a look.
      shoot: (page, name) =>
        page.screenshot({ path: join(SCREENSHOTS, `${name}.jpg`), fullPage: true, type: 'jpeg', quality: 80 }).then(() => undefined),
      async stop() {
        await chromium.close();
        await live.stop();
      },
    };
  } catch (e) {
    await chromium.close();
    await live.stop();
    throw e;
  }
}

/** One rig for several suites: the first `get` starts it (every later one answers the same), `stop` ends it. */
export interface SharedRig {
  get(): Promise<ExplorerRig | null>;
  stop(): Promise<void>;
}

/** A rig started on first use, for suites that run one after another in one file. */
export function sharedExplorerRig(what: string, opts: ExplorerRigOptions = {}): SharedRig {
  let started: Promise<ExplorerRig | null> | undefined;
  return {
    get: () => {
      started ??= explorerRig(what, opts);
      return started;
    },
    async stop() {
      const rig = await started?.catch(() => null);
      await rig?.stop();
    },
  };
}
