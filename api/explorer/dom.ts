// DOM and formatting helpers of the explorer. Chain data only ever reaches the page as text
// nodes and attribute values set through the DOM, never as HTML.

/** An element with attributes and children; strings and numbers become text. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== undefined && c !== null && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}

/** A link to an explorer page. */
const link = (href, text) => el('a', { href: `#/${href}` }, text);
/** The first and last characters of a long id. */
export const short = (s, n = 10) => (typeof s === 'string' && s.length > 2 * n + 1 ? `${s.slice(0, n)}…${s.slice(-6)}` : String(s));
export const blockLink = (i) => link(`block/${i}`, `#${i}`);

/** Micro-units (a decimal string) as OMBRA with up to 6 decimals. */
export function ombra(micro) {
  if (typeof micro !== 'string' || !/^[0-9]+$/.test(micro)) return String(micro ?? '');
  const v = BigInt(micro);
  const whole = v / 1000000n;
  const frac = (v % 1000000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${whole.toLocaleString('en-US')}${frac ? `.${frac}` : ''} OMBRA`;
}

/** "4 s ago", "3 min ago", ... */
function ago(ms, now = Date.now()) {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

/** A time as UTC text ("2026-11-26 11:32:58 UTC"). */
const utc = (ms) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

/** A relative age ("4 s ago") that keeps ticking (see tickAges), its UTC time on hover. */
export const age = (ms) => el('time', { datetime: new Date(ms).toISOString(), title: utc(ms), 'data-ago': ms }, ago(ms));

/** Brings every ticking age on the page up to now (the explorer calls it once a second). */
export function tickAges(now = Date.now()) {
  for (const t of document.querySelectorAll('[data-ago]')) {
    const text = ago(Number(t.dataset.ago), now);
    if (t.textContent !== text) t.textContent = text;
  }
}

/** A table of rows (arrays of cells) under a header row, scrolling sideways inside its own box when too wide. */
export function table(head, rows, empty = 'nothing yet') {
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
export const card = (title, ...body) => el('section', { class: 'card' }, el('h2', {}, title), ...body);

/**
 * Replaces the children of a part of the page that redraws itself (live tables), keeping the
 * keyboard focus in it: a focused link moves to the new link with the same address, else to the
 * focusable element at the same place (a redraw under a keyboard user must not drop the focus to
 * the top of the page).
 */
export function replaceKeepingFocus(container, ...children) {
  const focused = document.activeElement;
  if (!focused || !container.contains(focused)) {
    container.replaceChildren(...children);
    return;
  }
  const focusable = () => [...container.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')];
  const place = focusable().indexOf(focused);
  const href = focused.getAttribute('href');
  container.replaceChildren(...children);
  const now = focusable();
  const target = (href !== null && now.find((e) => e.getAttribute('href') === href)) || now[Math.min(place, now.length - 1)];
  target?.focus({ preventScroll: true });
}
