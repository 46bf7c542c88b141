// The explorer: a hash router over the pages, the head's height and age in the header, and the
// node's live event stream (one per browser, shared by its tabs: see live.ts; it resumes with
// Last-Event-ID after a drop) feeding the home page without reloads. Every relative age on the
// page ticks once a second, whether or not blocks arrive.
import { OmbraApiError, OmbraClient, OmbraUnreachable } from '../../client/browser.ts';
import { cachedFetch } from './apiCache.ts';
import { blockOf, pendingOf, reorgFrom } from './chainEvents.ts';
import { byId, el, tickAges } from './dom.ts';
import { Home } from './home.ts';
import { apiGet, onLiveEvent, openLive } from './live.ts';
import { liveHandlersOf } from './liveList.ts';
import { explorerPages, hitTarget } from './pages.ts';
import { parseHash } from './paging.ts';

// Every read goes through the cache the tabs share (apiCache.ts): the anonymous quota is small.
const client = new OmbraClient({ url: location.origin, fetch: cachedFetch(apiGet) });
const view = byId('view', HTMLElement);
const head: { index: number | null; timestamp: number | null } = { index: null, timestamp: null };
let home: Home | null = null;

function showHead(): void {
  byId('height', HTMLElement).textContent = head.index === null ? '…' : String(head.index);
  byId('age', HTMLElement).textContent =
    head.timestamp === null ? '…' : `${Math.max(0, Math.round((Date.now() - head.timestamp) / 1000))} s`;
}

function setLive(on: boolean): void {
  const badge = byId('live', HTMLElement);
  const text = on ? 'live' : 'reconnecting';
  if (badge.textContent !== text) badge.textContent = text;
  badge.className = `live ${on ? 'on' : 'off'}`;
}

/** Opens an explorer page (`replace` keeps the search out of the history). */
function go(path: string, replace = false): void {
  const url = `#/${path}`;
  if (replace) {
    history.replaceState(null, '', url);
    void route();
  } else if (location.hash === url) void route();
  else location.hash = url; // hashchange routes
}

/** The route table: `#/name/arg` opens PAGES[name](arg) (the browser tests read its names). */
export const PAGES = explorerPages(client, go);

/** The tab's title: the page's heading, then the explorer's name. */
function titleFrom(page: HTMLElement): void {
  const h1 = page.querySelector('h1')?.textContent?.trim();
  document.title = h1 && !page.querySelector('h1.visually-hidden') ? `${h1.slice(0, 80)} · Ombra explorer` : 'Ombra explorer';
}

/** What a refused read (429) shows: what happened and when the page tries again by itself. */
function refusedPage(e: OmbraApiError, retry: () => void): HTMLElement {
  const wait = Math.max(1, e.retryAfterS ?? 10);
  const until = Date.now() + wait * 1000;
  const left = el('strong', {}, `${wait} s`);
  const timer = setInterval(() => {
    if (!left.isConnected) return clearInterval(timer);
    const s = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    left.textContent = `${s} s`;
    if (s === 0) {
      clearInterval(timer);
      retry();
    }
  }, 1000);
  return el(
    'section',
    { class: 'card refused', role: 'alert' },
    el('h1', {}, 'Too many requests'),
    el(
      'p',
      {},
      `This node limits how often one address may read from it without an API key, and this browser has reached the limit (${e.message}).`,
    ),
    el('p', {}, 'The page tries again by itself in ', left, '. Nothing is lost: you can also go back or reload then.'),
    el(
      'p',
      { class: 'muted' },
      'Running a program against this node? Ask its operator for an API key (sent as X-API-Key) for a larger quota.',
    ),
  );
}

// Dark or light: the system's choice until the toggle makes one (kept in this browser).
const THEME_KEY = 'ombra-explorer-theme';
const themeButton = byId('theme', HTMLButtonElement);
function applyTheme(theme: string | null): void {
  if (theme) document.documentElement.dataset.theme = theme;
  const dark = theme ? theme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  themeButton.setAttribute('aria-pressed', String(dark));
  themeButton.textContent = 'Dark';
  themeButton.title = dark ? 'Dark theme on: press for light' : 'Dark theme off: press for dark';
}
applyTheme(localStorage.getItem(THEME_KEY));
themeButton.addEventListener('click', () => {
  const next = themeButton.getAttribute('aria-pressed') === 'true' ? 'light' : 'dark';
  localStorage.setItem(THEME_KEY, next);
  applyTheme(next);
});
// Phones: the sections fold behind a menu button.
const menu = byId('menu', HTMLButtonElement);
const header = document.querySelector('body > header');
menu.addEventListener('click', () => {
  const open = menu.getAttribute('aria-expanded') !== 'true';
  menu.setAttribute('aria-expanded', String(open));
  header?.classList.toggle('open', open);
});
window.addEventListener('hashchange', () => {
  menu.setAttribute('aria-expanded', 'false');
  header?.classList.remove('open');
});

let routing = 0;
async function route(): Promise<void> {
  // Only `#/...` is a page; other fragments (the skip link's) are not routes.
  if (location.hash && !location.hash.startsWith('#/')) return;
  const mine = ++routing;
  const [name, arg] = parseHash(location.hash);
  try {
    let page: HTMLElement | null;
    if (!name) {
      home = new Home(client);
      page = await home.render();
    } else {
      home = null;
      const render = Object.hasOwn(PAGES, name) ? PAGES[name] : undefined;
      page = render ? await render(arg) : el('p', {}, 'No such page.');
      if (page === null && name !== 'search')
        page = el('div', {}, el('h1', {}, 'Not found'), el('p', { class: 'muted' }, `This node knows no ${name} ${arg}.`));
    }
    if (page && mine === routing) {
      view.replaceChildren(page);
      titleFrom(page);
    }
  } catch (e) {
    if (mine !== routing) return;
    if (e instanceof OmbraApiError && e.status === 429) {
      view.replaceChildren(refusedPage(e, () => mine === routing && void route()));
      document.title = 'Too many requests · Ombra explorer';
      return;
    }
    // The node down or too busy to answer in time: try again while the page is still wanted.
    const transient = e instanceof OmbraUnreachable;
    const message = e instanceof Error ? e.message : String(e);
    view.replaceChildren(
      el('p', { class: 'error', role: 'alert' }, `Could not load this page: ${message}${transient ? ' (retrying)' : ''}`),
    );
    if (transient) setTimeout(() => mine === routing && void route(), 3000);
  }
}

const search = byId('q', HTMLInputElement);
byId('search', HTMLFormElement).addEventListener('submit', (e) => {
  e.preventDefault();
  const q = search.value.trim();
  if (q) go(`search/${encodeURIComponent(q)}`);
});
// Typeahead: from 2 characters on, what the search would find (debounced; reads go through the cache).
const hints = byId('q-hints', HTMLDataListElement);
let hintTimer: ReturnType<typeof setTimeout> | undefined;
search.addEventListener('input', () => {
  clearTimeout(hintTimer);
  const q = search.value.trim();
  if (q.length < 2) return hints.replaceChildren();
  hintTimer = setTimeout(async () => {
    const hits = await client.search(q).catch(() => []);
    if (search.value.trim() !== q) return;
    hints.replaceChildren(
      ...hits.flatMap((h) => {
        const t = hitTarget(h);
        if (!t) return [];
        const [href, label] = t;
        return [el('option', { value: decodeURIComponent(href.split('/').slice(1).join('/')), label: label.trim() })];
      }),
    );
  }, 350);
});
document.querySelector('.skip')?.addEventListener('click', (e) => {
  e.preventDefault();
  view.focus();
});
window.addEventListener('hashchange', () => void route());
// A live list's "N new - show" bar (liveList.ts).
window.addEventListener('explorer:reload', () => void route());
setInterval(() => {
  showHead();
  tickAges();
}, 1000);

client
  .height()
  .then((h) => {
    head.index = h.height;
    head.timestamp = h.latestBlock.timestamp;
    showHead();
  })
  .catch(() => undefined);

// The test suite reads which transport this tab got (worker, leader or direct).
document.documentElement.dataset.live = openLive((m) => {
  if (m.kind === 'status') {
    setLive(m.live);
    return;
  }
  const e = m.e;
  onLiveEvent(e);
  const block = blockOf(e);
  const reorg = reorgFrom(e);
  const tx = pendingOf(e);
  if (e.event === 'hello') setLive(true);
  else if (block) {
    // A block this tab already has (the worker repeats its last one to a new tab) is skipped.
    if (head.index !== null && block.index <= head.index) return;
    head.index = block.index;
    head.timestamp = block.timestamp;
    showHead();
    home?.onBlock(block);
    liveHandlersOf(view.firstElementChild)?.block?.(block);
  } else if (reorg !== null) {
    // The new branch is re-sent from the common ancestor on.
    head.index = Math.min(head.index ?? 0, reorg - 1);
    home?.onReorg(reorg);
  } else if (tx) {
    home?.scheduleRefresh();
    liveHandlersOf(view.firstElementChild)?.tx?.(tx);
  }
}, new URLSearchParams(location.search).get('live') ?? undefined);

void route();
