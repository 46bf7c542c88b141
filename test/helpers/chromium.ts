/**
 * Headless Chromium for browser tests (Debian's chromium at /usr/bin/chromium; .ci/run installs
 * it, and under CI its absence is a failure): a persistent context on a temporary profile with
 * the console errors and uncaught page errors collected. Screenshots go to test-artifacts/.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import assert from 'node:assert/strict';
import { REPO_ROOT } from './cliRun.ts';
import { tempDir } from './testChain.ts';

const CHROMIUM = '/usr/bin/chromium';
/** Where browser tests put screenshots (gitignored). */
export const ARTIFACTS = join(REPO_ROOT, 'test-artifacts');

/** A tab with the console errors and uncaught exceptions seen in it so far (`text @ url`). */
export interface Tab {
  page: Page;
  errors: string[];
}

/** A running browser with one page. */
export interface Chromium {
  browser: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen so far (`text @ url`). */
  errors: string[];
  /** The DevTools port (with `{ devtools: true }`), for tools that drive the browser over CDP, such as Lighthouse. */
  port: number | null;
  /** Opens a new tab (in the same profile: same cache, storage and shared workers), collecting its errors. */
  tab(): Promise<Tab>;
  close(): Promise<void>;
}

/** Collects `page`'s console errors and uncaught exceptions. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} @ ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  return errors;
}

/** Options of `launchChromium`. */
export interface ChromiumOptions {
  /** Open a DevTools port on loopback (the browser picks it) and answer it as `port`. */
  devtools?: boolean;
}

/**
 * Launches headless Chromium, or answers null (with a warning) when it is not installed outside
 * CI; `what` names the test in that warning.
 */
export async function launchChromium(what: string, opts: ChromiumOptions = {}): Promise<Chromium | null> {
  if (!existsSync(CHROMIUM)) {
    assert.ok(!process.env.CI, "chromium is missing: .ci/run installs Debian's chromium package");
    console.warn(`${what}: /usr/bin/chromium not installed here; run \`apt-get install -y chromium\` to run it`);
    return null;
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = tempDir('ombra-chromium-');
  const browser = await chromium.launchPersistentContext(profile.dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(opts.devtools ? ['--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0'] : []),
    ],
    viewport: { width: 1280, height: 900 },
  });
  // With port 0 the browser writes the port it took on the first line of this file.
  const port = opts.devtools ? Number(readFileSync(join(profile.dir, 'DevToolsActivePort'), 'utf8').split('\n')[0]) : null;
  const page = browser.pages()[0] ?? (await browser.newPage());
  return {
    browser,
    page,
    errors: errorsOf(page),
    port,
    async tab() {
      const tab = await browser.newPage();
      return { page: tab, errors: errorsOf(tab) };
    },
    async close() {
      await browser.close();
      profile.cleanup();
    },
  };
}
