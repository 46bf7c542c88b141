/**
 * Checks the browser suites run on a rendered page, each answering what it found wrong as
 * readable lines (empty: nothing): axe-core's serious and critical violations, content wider than
 * the viewport, and the path the Tab key takes through the page with each stop's focus ring.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const document: any;
declare const window: any;
declare function getComputedStyle(e: unknown): any;

/** axe-core's browser build, injected into pages through evaluate (not a script tag, which a CSP may refuse). */
const AXE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

/** Problems found on many pages, each said once: `problem (on page, page, ...)`. */
export function byProblem(found: [page: string, problem: string][]): string[] {
  const pages = new Map<string, string[]>();
  for (const [page, problem] of found) pages.set(problem, [...(pages.get(problem) ?? []), page]);
  return [...pages].map(
    ([problem, on]) => `${problem} (on ${on.length > 6 ? `${on.slice(0, 6).join(', ')} and ${on.length - 6} more` : on.join(', ')})`,
  );
}

/** The impacts that fail a page. */
const FAILING = ['serious', 'critical'];

/** axe-core's serious and critical violations on the page, one line each with the elements concerned. */
export async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations: { id: string; impact: string; help: string; targets: string[] }[] = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n: any) => n.target.join(' ')),
    }));
  });
  return violations
    .filter((v) => FAILING.includes(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.targets.slice(0, 4).join(', ')}${v.targets.length > 4 ? ', …' : ''}`);
}

/**
 * Content wider than the viewport: the document scrolls sideways, or an element reaches past the
 * right edge outside any container that scrolls or clips it (so `overflow-x: hidden` on the page
 * does not hide a cut-off side). Names the outermost such elements with their widths.
 */
export async function overflowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const out: string[] = [];
    const scrollWidth = document.scrollingElement.scrollWidth;
    if (scrollWidth > width) out.push(`the page is ${scrollWidth} px wide in a ${width} px viewport`);
    const name = (e: any) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${[...e.classList].map((c: string) => `.${c}`).join('')}`;
    const contained = (e: any) => {
      for (let p = e.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement)
        if (/auto|scroll|hidden|clip/.test(getComputedStyle(p).overflowX)) return true;
      return false;
    };
    const wide = new Set<any>();
    for (const e of document.body.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.right <= width + 0.5 || contained(e)) continue;
      wide.add(e);
      // Only the outermost: an element inside a reported one is the same problem.
      if (!wide.has(e.parentElement)) out.push(`${name(e)} reaches ${Math.round(r.right)} px (${Math.round(r.width)} px wide)`);
    }
    return out.slice(0, 8);
  });
}

/** One stop of the Tab key: the focused element, whether it is in the page's main view, and whether its focus is drawn. */
export interface FocusStop {
  element: string;
  inView: boolean;
  /** The element matches :focus-visible and draws an outline or a box shadow. */
  visible: boolean;
}

/** Presses Tab `count` times from the top of the page and describes each stop. */
export async function tabStops(page: Page, count: number): Promise<FocusStop[]> {
  await page.evaluate(() => {
    document.activeElement?.blur();
    window.scrollTo(0, 0);
  });
  const stops: FocusStop[] = [];
  for (let i = 0; i < count; i++) {
    await page.keyboard.press('Tab');
    stops.push(
      await page.evaluate(() => {
        const e = document.activeElement;
        if (!e || e === document.body) return { element: 'body', inView: false, visible: false };
        const s = getComputedStyle(e);
        const ring = (s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
        const label = (e.getAttribute('href') ?? e.getAttribute('aria-label') ?? e.textContent ?? '').trim().slice(0, 40);
        return {
          element: `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''} "${label}"`,
          inView: !!e.closest('#view, main'),
          visible: ring && e.matches(':focus-visible'),
        };
      }),
    );
  }
  return stops;
}
