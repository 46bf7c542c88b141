// Values as people read them on the detail pages: OMBRA with the exact micro-units on hover,
// bytes, durations, UTC times with their age, full ids that wrap, copy buttons, and data tables
// with a header row that scroll inside their own box on narrow screens.
import { el } from './dom.ts';

const MICRO = 1000000n;

/** Micro-units (a decimal string or integer) as OMBRA text with up to 6 decimals. */
function ombraText(micro) {
  const s = typeof micro === 'number' && Number.isSafeInteger(micro) ? String(micro) : micro;
  if (typeof s !== 'string' || !/^[0-9]+$/.test(s)) return String(micro ?? '');
  const v = BigInt(s);
  const frac = (v % MICRO).toString().padStart(6, '0').replace(/0+$/, '');
  return `${(v / MICRO).toLocaleString('en-US')}${frac ? `.${frac}` : ''} OMBRA`;
}

/** An amount: OMBRA, with the exact micro-units in its title (hover) and for screen readers. */
export function amount(micro) {
  if (micro === null || micro === undefined) return none();
  const s = String(micro);
  const exact = /^[0-9]+$/.test(s) ? BigInt(s).toLocaleString('en-US') : s;
  return el('span', { class: 'amount', title: `${exact} micro-OMBRA` }, ombraText(micro));
}

/** A count of bytes as "1.5 KiB (1,536 bytes)". */
export function bytes(n) {
  const v = Number(n);
  if (!Number.isFinite(v)) return String(n ?? '');
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let x = v;
  let u = -1;
  while (x >= 1024 && u < units.length - 1) {
    x /= 1024;
    u++;
  }
  const exact = `${v.toLocaleString('en-US')} ${v === 1 ? 'byte' : 'bytes'}`;
  return u < 0 ? exact : `${x.toFixed(x < 10 ? 2 : 1)} ${units[u]} (${exact})`;
}

/** A duration in milliseconds as "1 h 2 min", "3.2 s" or "450 ms". */
export function duration(ms) {
  const v = Number(ms);
  if (!Number.isFinite(v)) return String(ms ?? '');
  if (v < 1000) return `${v} ms`;
  if (v < 60000) return `${Number((v / 1000).toFixed(1))} s`;
  const parts = [];
  let s = Math.round(v / 1000);
  for (const [unit, size] of [
    ['d', 86400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ]) {
    if (s >= size) {
      parts.push(`${Math.floor(s / size)} ${unit}`);
      s %= size;
    }
  }
  return parts.slice(0, 2).join(' ');
}

/** How long ago (or how far ahead) a time is: "4 s ago", "in 3 h". */
function age(ms, now = Date.now()) {
  const d = Math.round((now - ms) / 1000);
  const s = Math.abs(d);
  const text =
    s < 60 ? `${s} s` : s < 3600 ? `${Math.floor(s / 60)} min` : s < 86400 ? `${Math.floor(s / 3600)} h` : `${Math.floor(s / 86400)} d`;
  return d >= 0 ? `${text} ago` : `in ${text}`;
}

/**
 * A relative age in a <time>; a past one carries `data-ago`, which the shell's clock (dom.ts
 * tickAges) keeps current.
 */
function ageTime(ms, title) {
  const iso = new Date(ms).toISOString();
  return el('time', { datetime: iso, title, 'data-ago': ms <= Date.now() ? ms : undefined }, age(ms));
}

/** UTC text of a time: "2026-11-26 11:32:59 UTC". */
const utcText = (ms) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

/** A UTC time with its age: "2026-11-26 11:32:59 UTC (4 s ago)". */
export function utc(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return none();
  return el('span', { class: 'when' }, `${utcText(ms)} (`, ageTime(ms, new Date(ms).toISOString()), ')');
}

/** Only the age of a time, the UTC time on hover. */
export function ageCell(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return none();
  return ageTime(ms, utcText(ms));
}

/** An absent value. */
export const none = () => el('span', { class: 'muted' }, '—');

/** A button that copies `text`, with its own label for screen readers. */
function copyButton(text, what = 'value') {
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
export function fullId(text, href, what = 'id') {
  const v = href ? el('a', { href: `#/${href}`, class: 'mono id' }, text) : el('span', { class: 'mono id' }, text);
  return el('span', { class: 'copyable' }, v, copyButton(text, what));
}

/**
 * A shortened id link (lists), the full id in its title; a shortened one also gets a copy button
 * of the full id, shown on phones only (pages.css), where the title cannot be hovered.
 */
export function idLink(href, id, n = 10) {
  const cut = typeof id === 'string' && id.length > 2 * n + 1;
  const link = el('a', { href: `#/${href}`, class: 'mono', title: id }, cut ? `${id.slice(0, n)}…${id.slice(-6)}` : String(id));
  if (!cut) return link;
  const copy = copyButton(id, 'full id');
  copy.classList.add('phone-only');
  return el('span', { class: 'idcell' }, link, copy);
}

/** An address link for lists. */
export const addr = (a) => (a ? idLink(`address/${a}`, a, 8) : none());

/**
 * A data table: a caption for screen readers, a header row of column headers and a body,
 * inside a box that scrolls sideways on its own when the table is wider than the screen.
 */
export function dataTable(caption, head, rows, empty = 'Nothing here yet.') {
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

/** A key/value table: row headers and values. */
export function fields(caption, pairs) {
  return el(
    'div',
    { class: 'scroll' },
    el(
      'table',
      { class: 'kv' },
      el('caption', { class: 'sr-only' }, caption),
      el('tbody', {}, ...pairs.filter(Boolean).map(([k, v]) => el('tr', {}, el('th', { scope: 'row' }, k), el('td', {}, v ?? none())))),
    ),
  );
}

/** A titled section of a page. */
export const section = (title, ...body) => el('section', { class: 'card' }, el('h2', {}, title), ...body);

/** A page: its heading (h1) and sections. */
export const pageOf = (title, ...body) => el('div', { class: 'page' }, el('h1', {}, ...[title].flat()), ...body);

/** A status or type label. */
export const badge = (text) => el('span', { class: 'badge' }, text);
