// Paged lists: a page's query (`#/route/id?page=2&status=x`), the "items a–b of N" line and
// First/Previous/Next/Last links, over any API list that takes `limit` and `offset`.
import { el } from './dom.ts';
import { dataTable } from './format.ts';

/** Rows per page of every list. */
export const PAGE_SIZE = 25;

/** The id part and the query of a route argument (`oxabc?page=2` → ['oxabc', URLSearchParams]). */
export function splitArg(arg) {
  const i = arg.indexOf('?');
  const [id, q] = i < 0 ? [arg, ''] : [arg.slice(0, i), arg.slice(i + 1)];
  return [id.replace(/\/+$/, ''), new URLSearchParams(q)];
}

/** The route `base` with `query` and `name` set to `value`. */
function withParam(base, query, name, value) {
  const q = new URLSearchParams(query);
  if (value === null || value === undefined || value === '') q.delete(name);
  else q.set(name, String(value));
  const s = q.toString();
  // A route without an argument keeps its slash: the shell reads the page name up to it.
  return `#/${base}${s ? `${base.includes('/') ? '' : '/'}?${s}` : ''}`;
}

/** The 1-based page a query asks for. */
export const pageNumber = (query) => Math.max(1, Math.min(1e6, Math.floor(Number(query.get('page'))) || 1));

/** Navigation between pages; `total` null when the API gives no count (then Next while pages are full). */
export function pager(base, query, page, shown, total, size = PAGE_SIZE) {
  const last = total === null ? null : Math.max(1, Math.ceil(total / size));
  const from = (page - 1) * size;
  const link = (label, p, enabled, name) =>
    enabled
      ? el('a', { href: withParam(base, query, 'page', p === 1 ? null : p), 'aria-label': name }, label)
      : el('span', { class: 'muted', 'aria-disabled': 'true' }, label);
  const hasNext = last === null ? shown === size : page < last;
  const single = page === 1 && !hasNext;
  return el(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    el(
      'span',
      { class: 'count' },
      shown
        ? `${(from + 1).toLocaleString('en-US')}–${(from + shown).toLocaleString('en-US')}${total === null ? '' : ` of ${total.toLocaleString('en-US')}`}`
        : total === null
          ? 'none'
          : `0 of ${total.toLocaleString('en-US')}`,
    ),
    // One page: only its count.
    !single && link('« First', 1, page > 1, 'First page'),
    !single && link('‹ Previous', page - 1, page > 1, 'Previous page'),
    !single && el('span', {}, last === null ? `page ${page}` : `page ${page} of ${last}`),
    !single && link('Next ›', page + 1, hasNext, 'Next page'),
    !single && last !== null && link('Last »', last, page < last, 'Last page'),
  );
}

/**
 * A paged table: loads the page the query asks for (`load({limit, offset})` answers
 * `{items, total}`, total null when unknown) and renders its rows between two pagers.
 */
export async function pagedTable({ caption, base, query, load, head, row, empty, size = PAGE_SIZE }) {
  const page = pageNumber(query);
  const { items, total } = await load({ limit: size, offset: (page - 1) * size });
  const nav = (where) => {
    const n = pager(base, query, page, items.length, total, size);
    n.setAttribute('aria-label', `Pages (${where})`);
    return n;
  };
  return el(
    'div',
    { class: 'paged' },
    nav('top'),
    dataTable(caption, head, items.map(row), empty),
    items.length > 10 ? nav('bottom') : null,
  );
}
