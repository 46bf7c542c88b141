// List pages that follow the chain while they are shown (the header says "live"): the shell
// hands every block and mempool event to the page on screen (app.ts calls `onLiveBlock` and
// `onLiveTx` of the page's element). A list whose first page would change shows a bar, "3 new
// blocks - show", that reloads it; the mempool also drops the transactions a block mined, at
// once and without a read.
import type { LiveBlock, PendingTx } from './chainEvents.ts';
import { el } from './dom.ts';
import { pageNumber, splitArg } from './paging.ts';
import { plural } from './text.ts';

/** What a page on screen does with the live events the shell hands it. */
export interface LiveHandlers {
  block?(b: LiveBlock): void;
  tx?(t: PendingTx): void;
}

const handlers = new WeakMap<Element, LiveHandlers>();

/** The live handlers of a page's element (the shell calls them for the page on screen). */
export const liveHandlersOf = (page: Element | null): LiveHandlers | undefined => (page ? handlers.get(page) : undefined);

/** A bar that counts what is new (`what(n)` names it) and reloads the page when pressed. */
function newBar(what: (n: number) => string) {
  let n = 0;
  const button = el('button', { type: 'button', class: 'new-bar' });
  button.hidden = true;
  button.addEventListener('click', () => dispatchEvent(new CustomEvent('explorer:reload')));
  const wrap = el('div', { class: 'new-bar-wrap', role: 'status', 'aria-live': 'polite' }, button);
  return {
    element: wrap,
    add(k: number) {
      if (k <= 0) return;
      n += k;
      button.hidden = false;
      button.textContent = `${what(n)} - show`;
    },
  };
}

/**
 * Makes `page` (a list page's element) live: `count(block)` says how many rows a block adds to
 * its first page (the bar shows only there: `arg` is the route's argument, with its ?page).
 */
export function liveList(page: HTMLElement, arg: string, count: (b: LiveBlock) => number, one: string, many?: string): HTMLElement {
  const [, query] = splitArg(arg);
  if (pageNumber(query) !== 1) return page;
  const bar = newBar((n) => plural(n, `new ${one}`, many && `new ${many}`));
  page.querySelector('h1')?.after(bar.element);
  handlers.set(page, { block: (b) => bar.add(count(b)) });
  return page;
}

/** The mempool page: mined transactions leave its rows at once; new pending ones are counted in the bar. */
export function liveMempool(page: HTMLElement): HTMLElement {
  const bar = newBar((n) => plural(n, 'new pending transaction'));
  page.querySelector('h1')?.after(bar.element);
  handlers.set(page, {
    block: (b) => {
      const mined = new Set(b.transactions.map((t) => t.hash));
      for (const a of page.querySelectorAll('tbody a[href^="#/tx/"]')) {
        if (mined.has((a.getAttribute('href') ?? '').slice('#/tx/'.length))) a.closest('tr')?.remove();
      }
    },
    tx: () => bar.add(1),
  });
  return page;
}

/** Transactions of `type` in a block. */
export const txsOfType = (type: string) => (b: LiveBlock) => b.transactions.filter((t) => t.type === type).length;
