// DOM helpers of the explorer. Chain data only ever reaches the page as text nodes and attribute
// values set through the DOM, never as HTML.
import { agoText, utcText } from './text.ts';

/** What an element may hold: nodes and text (strings, numbers); null, undefined and false hold nothing. */
export type Child = Node | string | number | bigint | boolean | null | undefined;
/** Attribute values (null, undefined and false leave one out; true sets it empty) and `on…` listeners. */
export type Attrs = Readonly<Record<string, string | number | boolean | null | undefined | EventListener>>;

/** An element with attributes and children (arrays of them are spread); strings and numbers become text. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | readonly Child[])[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== undefined && c !== null && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}

/** A link to an explorer page. */
const link = (href: string, text: string) => el('a', { href: `#/${href}` }, text);
/** A block's height as a link to its page. */
export const blockLink = (i: number) => link(`block/${i}`, `#${i}`);

/**
 * A relative age ("4 s ago", "in 2 s" for a clock a little behind the chain's) in a <time> that
 * keeps ticking (tickAges), `title` on hover (its UTC time by default).
 */
export const age = (ms: number, title = utcText(ms)) =>
  el('time', { datetime: new Date(ms).toISOString(), title, 'data-ago': ms }, agoText(ms, Date.now()));

/** Brings every ticking age on the page up to now (the explorer calls it once a second). */
export function tickAges(now = Date.now()): void {
  for (const t of document.querySelectorAll<HTMLElement>('[data-ago]')) {
    const text = agoText(Number(t.dataset.ago), now);
    if (t.textContent !== text) t.textContent = text;
  }
}

/** A table of rows (arrays of cells) under a header row, scrolling sideways inside its own box when too wide. */
export function table(head: readonly string[], rows: readonly (readonly Child[])[], empty = 'nothing yet'): HTMLElement {
  if (!rows.length) return el('p', { class: 'muted' }, empty);
  return el(
    'div',
    { class: 'scroll' },
    el(
      'table',
      // Cards on a phone, the first few only (pages.css): the home page stays short.
      { class: 'data compact' },
      el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((c, i) => el('td', { 'data-label': head[i] }, c))))),
    ),
  );
}

/** A titled card. */
export const card = (title: string, ...body: Child[]) => el('section', { class: 'card' }, el('h2', {}, title), ...body);

/**
 * Replaces the children of a part of the page that redraws itself (live tables), keeping the
 * keyboard focus in it: a focused link moves to the new link with the same address, else to the
 * focusable element at the same place (a redraw under a keyboard user must not drop the focus to
 * the top of the page).
 */
export function replaceKeepingFocus(container: Element, ...children: Child[]): void {
  const focused = document.activeElement;
  const nodes = children.flatMap((c) => (c === undefined || c === null || c === false ? [] : [c instanceof Node ? c : String(c)]));
  if (!focused || !container.contains(focused)) {
    container.replaceChildren(...nodes);
    return;
  }
  const focusable = () => [...container.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')];
  const before: Element[] = focusable();
  const place = before.indexOf(focused);
  const href = focused.getAttribute('href');
  container.replaceChildren(...nodes);
  const now = focusable();
  const target = (href !== null && now.find((e) => e.getAttribute('href') === href)) || now[Math.min(place, now.length - 1)];
  target?.focus({ preventScroll: true });
}

/** The page's element with `id`, of the type `type` (the shell's fixed parts: index.html); throws when it is missing. */
export function byId<T extends Element>(id: string, type: new () => T): T {
  const e = document.getElementById(id);
  if (!(e instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return e;
}
