// Values as people read them on the detail pages: OMBRA with the exact micro-units on hover,
// bytes, durations, UTC times with their age, full ids that wrap, copy buttons, and data tables
// with a header row that scroll inside their own box on narrow screens. The text itself comes
// from text.ts (pure, shared with the home page).
import { age, type Child, el } from './dom.ts';
import { bytesText, durationText, microText, ombraText, utcText } from './text.ts';

/** A row of a key/value table, or a falsy value for a row left out. */
export type Field = readonly [string, Child | readonly Child[]] | false | null | undefined;

/** An absent value. */
export const none = () => el('span', { class: 'muted' }, '—');

/** An amount: OMBRA, with the exact micro-units in its title (hover) and for screen readers. */
export function amount(micro: unknown): HTMLElement {
  if (micro === null || micro === undefined) return none();
  return el('span', { class: 'amount', title: `${microText(micro)} micro-OMBRA` }, ombraText(micro));
}

/** A count of bytes as "1.5 KiB (1,536 bytes)". */
export const bytes = (n: unknown): string => bytesText(n);

/** A duration in milliseconds as "1 h 2 min", "3.2 s" or "450 ms". */
export const duration = (ms: unknown): string => durationText(ms);

/** A UTC time with its age: "2026-11-26 11:32:59 UTC (4 s ago)". */
export function utc(ms: unknown): HTMLElement {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return none();
  return el('span', { class: 'when' }, `${utcText(ms)} (`, age(ms, new Date(ms).toISOString()), ')');
}

/** Only the age of a time, the UTC time on hover. */
export function ageCell(ms: unknown): HTMLElement {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return none();
  return age(ms);
}

/** A button that copies `text`, with its own label for screen readers. */
function copyButton(text: string, what = 'value'): HTMLButtonElement {
  const b = el('button', { type: 'button', class: 'copy', 'aria-label': `Copy ${what}`, title: `Copy ${what}` }, 'Copy');
  b.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      b.textContent = 'Copied';
    } catch {
      // Clipboard access needs a secure context or permission: select the text to copy by hand.
      const range = document.createRange();
      range.selectNodeContents(b.previousElementSibling ?? b);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      b.textContent = 'Selected';
    }
    setTimeout(() => {
      b.textContent = 'Copy';
    }, 1500);
  });
  return b;
}

/** A full id (hash, address) that wraps, optionally a link, with a copy button. */
export function fullId(text: string, href?: string | null, what = 'id'): HTMLElement {
  const v = href ? el('a', { href: `#/${href}`, class: 'mono id' }, text) : el('span', { class: 'mono id' }, text);
  return el('span', { class: 'copyable' }, v, copyButton(text, what));
}

/**
 * A shortened id link (lists), the full id in its title; a shortened one also gets a copy button
 * of the full id, shown on phones only (pages.css), where the title cannot be hovered.
 */
export function idLink(href: string, id: unknown, n = 10): HTMLElement {
  const text = String(id);
  const cut = text.length > 2 * n + 1;
  const link = el('a', { href: `#/${href}`, class: 'mono', title: text }, cut ? `${text.slice(0, n)}…${text.slice(-6)}` : text);
  if (!cut) return link;
  const copy = copyButton(text, 'full id');
  copy.classList.add('phone-only');
  return el('span', { class: 'idcell' }, link, copy);
}

/** An address link for lists. */
export const addr = (a: unknown): HTMLElement => (typeof a === 'string' && a ? idLink(`address/${a}`, a, 8) : none());

/**
 * A data table: a caption for screen readers, a header row of column headers and a body,
 * inside a box that scrolls sideways on its own when the table is wider than the screen.
 */
export function dataTable(
  caption: string,
  head: readonly string[],
  rows: readonly (readonly (Child | readonly Child[])[])[],
  empty = 'Nothing here yet.',
): HTMLElement {
  if (!rows.length) return el('p', { class: 'muted' }, empty);
  return el(
    'div',
    { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': caption },
    el(
      'table',
      { class: 'data' },
      el('caption', { class: 'sr-only' }, caption),
      el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))),
      // Each cell names its column: on a phone a row is a card of "label value" lines (pages.css).
      el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((c, i) => el('td', { 'data-label': head[i] }, c ?? none()))))),
    ),
  );
}

/** A key/value table: row headers and values (falsy rows left out). */
export function fields(caption: string, pairs: readonly Field[]): HTMLElement {
  const rows = pairs.flatMap((p) => (p ? [p] : []));
  return el(
    'div',
    { class: 'scroll' },
    el(
      'table',
      { class: 'kv' },
      el('caption', { class: 'sr-only' }, caption),
      el('tbody', {}, ...rows.map(([k, v]) => el('tr', {}, el('th', { scope: 'row' }, k), el('td', {}, v ?? none())))),
    ),
  );
}

/** A titled section of a page. */
export const section = (title: string, ...body: (Child | readonly Child[])[]) =>
  el('section', { class: 'card' }, el('h2', {}, title), ...body);

/** A page: its heading (h1) and sections. */
export const pageOf = (title: Child | readonly Child[], ...body: (Child | readonly Child[])[]) =>
  el('div', { class: 'page' }, el('h1', {}, title), ...body);

/** A status or type label. */
export const badge = (text: unknown) => el('span', { class: 'badge' }, String(text));
