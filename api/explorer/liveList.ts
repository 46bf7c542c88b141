// List pages that follow the chain while they are shown (the header says "live"): the shell
// hands every block and mempool event to the page on screen (app.ts calls `onLiveBlock` and
// `onLiveTx` of the page's element). A list whose first page would change shows a bar, "3 new
// blocks - show", that reloads it; the mempool also drops the transactions a block mined, at
// once and without a read.
import { el } from './dom.ts';
import { pageNumber, splitArg } from './paging.ts';

/** A bar that counts what is new (`what(n)` names it) and reloads the page when pressed. */
function newBar(what) {
  let n = 0;
  const button = el('button', { type: 'button', class: 'new-bar' });
  button.hidden = true;
  button.addEventListener('click', () => dispatchEvent(new CustomEvent('explorer:reload')));
  const wrap = el('div', { class: 'new-bar-wrap', role: 'status', 'aria-live': 'polite' }, button);
  return {
    element: wrap,
    add(k) {
      if (k <= 0) return;
      n += k;
      button.hidden = false;
      button.textContent = `${what(n)} - show`;
    },
  };
}

const plural = (n, one, many = `${one}s`) => `${n.toLocaleString('en-US')} new ${n === 1 ? one : many}`;

/**
 * Makes `page` (a list page's element) live: `count(block)` says how many rows a block adds to
 * its first page (the bar shows only there: `arg` is the route's argument, with its ?page).
 */
export function liveList(page, arg, count, one, many) {
  const [, query] = splitArg(arg);
  if (pageNumber(query) !== 1) return page;
  const bar = newBar((n) => plural(n, one, many));
  page.querySelector('h1')?.after(bar.element);
  page.onLiveBlock = (b) => bar.add(count(b));
  return page;
}

/** The mempool page: mined transactions leave its rows at once; new pending ones are counted in the bar. */
export function liveMempool(page) {
  const bar = newBar((n) => plural(n, 'pending transaction'));
  page.querySelector('h1')?.after(bar.element);
  page.onLiveBlock = (b) => {
    const mined = new Set(b.transactions.map((t) => t.hash));
    for (const a of page.querySelectorAll('tbody a[href^="#/tx/"]')) {
      if (mined.has(a.getAttribute('href').slice('#/tx/'.length))) a.closest('tr')?.remove();
    }
  };
  page.onLiveTx = () => bar.add(1);
  return page;
}

/** Transactions of `type` in a block. */
export const txsOfType = (type) => (b) => b.transactions.filter((t) => t.type === type).length;
