// Paged lists: a page's query (`#/route/id?page=2&status=x`), the "items a–b of N" line and
// First/Previous/Next/Last links, over any API list that takes `limit` and `offset`.
import { type Child, el } from './dom.ts';
import { dataTable } from './format.ts';

/** Rows per page of every list. */
export const PAGE_SIZE = 25;

/** The page's name and argument from a hash: `#/blocks?page=2` and `#/blocks/?page=2` alike. */
export function parseHash(hash: string): [name: string, arg: string] {
  const [first, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const q = first.indexOf('?');
  const [name, query] = q < 0 ? [first, ''] : [first.slice(0, q), first.slice(q)];
  return [name, query + decodeURIComponent(rest.join('/'))];
}

/** The id part and the query of a route argument (`oxabc?page=2` → ['oxabc', URLSearchParams]). */
export function splitArg(arg: string): [string, URLSearchParams] {
  const i = arg.indexOf('?');
  const [id, q] = i < 0 ? [arg, ''] : [arg.slice(0, i), arg.slice(i + 1)];
  return [id.replace(/\/+$/, ''), new URLSearchParams(q)];
}

/** The route `base` with `query` and `name` set to `value` (null, undefined or '' removes it). */
export function withParam(base: string, query: URLSearchParams, name: string, value: string | number | null | undefined): string {
  const q = new URLSearchParams(query);
  if (value === null || value === undefined || value === '') q.delete(name);
  else q.set(name, String(value));
  const s = q.toString();
  // A route without an argument keeps its slash: the shell reads the page name up to it.
  return `#/${base}${s ? `${base.includes('/') ? '' : '/'}?${s}` : ''}`;
}

/** The 1-based page a query asks for. */
export const pageNumber = (query: URLSearchParams): number => Math.max(1, Math.min(1e6, Math.floor(Number(query.get('page'))) || 1));

/** "26–50 of 1,234", "none", "0 of 0": the count line of page `page` showing `shown` rows of `total` (null: unknown). */
export function countLine(page: number, shown: number, total: number | null, size = PAGE_SIZE): string {
  const from = (page - 1) * size;
  if (shown)
    return `${(from + 1).toLocaleString('en-US')}–${(from + shown).toLocaleString('en-US')}${total === null ? '' : ` of ${total.toLocaleString('en-US')}`}`;
  return total === null ? 'none' : `0 of ${total.toLocaleString('en-US')}`;
}

/** The last page of `total` rows (null when the count is unknown). */
export const lastPage = (total: number | null, size = PAGE_SIZE): number | null =>
  total === null ? null : Math.max(1, Math.ceil(total / size));

/** Navigation between pages; `total` null when the API gives no count (then Next while pages are full). */
export function pager(
  base: string,
  query: URLSearchParams,
  page: number,
  shown: number,
  total: number | null,
  size = PAGE_SIZE,
): HTMLElement {
  const last = lastPage(total, size);
  const link = (label: string, p: number, enabled: boolean, name: string) =>
    enabled
      ? el('a', { href: withParam(base, query, 'page', p === 1 ? null : p), 'aria-label': name }, label)
      : el('span', { class: 'muted', 'aria-disabled': 'true' }, label);
  const hasNext = last === null ? shown === size : page < last;
  const single = page === 1 && !hasNext;
  return el(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    el('span', { class: 'count' }, countLine(page, shown, total, size)),
    // One page: only its count.
    !single && link('« First', 1, page > 1, 'First page'),
    !single && link('‹ Previous', page - 1, page > 1, 'Previous page'),
    !single && el('span', {}, last === null ? `page ${page}` : `page ${page} of ${last}`),
    !single && link('Next ›', page + 1, hasNext, 'Next page'),
    !single && last !== null && link('Last »', last, page < last, 'Last page'),
  );
}

/** A page of a list: its items and the list's size (null when the API gives none). */
interface Loaded<T> {
  items: readonly T[];
  total: number | null;
}

/** What `pagedTable` shows. */
export interface PagedTable<T> {
  /** The table's caption, for screen readers. */
  caption: string;
  /** The route the pager links to (`blocks`, `address/ox…`). */
  base: string;
  query: URLSearchParams;
  load(page: { limit: number; offset: number }): Promise<Loaded<T>>;
  head: readonly string[];
  row(item: T): readonly (Child | readonly Child[])[];
  empty?: string;
  size?: number;
}

/**
 * A paged table: loads the page the query asks for (`load({limit, offset})` answers
 * `{items, total}`, total null when unknown) and renders its rows between two pagers.
 */
export async function pagedTable<T>({
  caption,
  base,
  query,
  load,
  head,
  row,
  empty,
  size = PAGE_SIZE,
}: PagedTable<T>): Promise<HTMLElement> {
  const page = pageNumber(query);
  const { items, total } = await load({ limit: size, offset: (page - 1) * size });
  const nav = (where: string) => {
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
