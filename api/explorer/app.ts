// The explorer: a hash router over the pages, the head's height and age in the header, and the
// node's live event stream (one per browser, shared by its tabs: see live.ts; it resumes with
// Last-Event-ID after a drop) feeding the home page without reloads. Every relative age on the
// page ticks once a second, whether or not blocks arrive.
import { OmbraApiError, OmbraClient, OmbraUnreachable } from '../../client/browser.ts';
import { cachedFetch } from './apiCache.ts';
import { el, tickAges } from './dom.ts';
import { Home } from './home.ts';
import { apiGet, onLiveEvent, openLive } from './live.ts';
import { explorerPages, hitTarget } from './pages.ts';

// Every read goes through the cache the tabs share (apiCache.ts): the anonymous quota is small.
const client = new OmbraClient({ url: location.origin, fetch: cachedFetch(apiGet) });
const view = document.getElementById('view');
const head = { index: null, timestamp: null };
let home = null;

function showHead() {
  document.getElementById('height').textContent = head.index === null ? '…' : String(head.index);
  document.getElementById('age').textContent =
    head.timestamp === null ? '…' : `${Math.max(0, Math.round((Date.now() - head.timestamp) / 1000))} s`;
}

function setLive(on) {
  const badge = document.getElementById('live');
  const text = on ? 'live' : 'reconnecting';
  if (badge.textContent !== text) badge.textContent = text;
  badge.className = `live ${on ? 'on' : 'off'}`;
}

/** Opens an explorer page (`replace` keeps the search out of the history). */
function go(path, replace = false) {
  const url = `#/${path}`;
  if (replace) {
    history.replaceState(null, '', url);
    route();
  } else if (location.hash === url) route();
  else location.hash = url; // hashchange routes
}

/** The route table: `#/name/arg` opens PAGES[name](arg) (the browser tests read its names). */
export const PAGES = explorerPages(client, go);

/** The page's name and argument from a hash: `#/blocks?page=2` and `#/blocks/?page=2` alike. */
function parseHash(hash) {
  const [first, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const q = first.indexOf('?');
  const [name, query] = q < 0 ? [first, ''] : [first.slice(0, q), first.slice(q)];
  return [name, query + decodeURIComponent(rest.join('/'))];
}

/** The tab's title: the page's heading, then the explorer's name. */
function titleFrom(page) {
  const h1 = page?.querySelector?.('h1')?.textContent?.trim();
  document.title = h1 && !page.querySelector('h1.visually-hidden') ? `${h1.slice(0, 80)} · Ombra explorer` : 'Ombra explorer';
}

/** What a refused read (429) shows: what happened and when the page tries again by itself. */
function refusedPage(e, retry) {
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
const themeButton = document.getElementById('theme');
function applyTheme(theme) {
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
const menu = document.getElementById('menu');
menu.addEventListener('click', () => {
  const open = menu.getAttribute('aria-expanded') !== 'true';
  menu.setAttribute('aria-expanded', String(open));
  document.querySelector('body > header').classList.toggle('open', open);
});
window.addEventListener('hashchange', () => {
  menu.setAttribute('aria-expanded', 'false');
  document.querySelector('body > header').classList.remove('open');
});

let routing = 0;
async function route() {
  // Only `#/...` is a page; other fragments (the skip link's) are not routes.
  if (location.hash && !location.hash.startsWith('#/')) return;
  const mine = ++routing;
  const [name, arg] = parseHash(location.hash);
  try {
    let page;
    if (!name) {
      home = new Home(client);
      page = await home.render();
    } else {
      home = null;
      const render = PAGES[name];
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
      view.replaceChildren(refusedPage(e, () => mine === routing && route()));
      document.title = 'Too many requests · Ombra explorer';
      return;
    }
    // The node down or too busy to answer in time: try again while the page is still wanted.
    const transient = e instanceof OmbraUnreachable;
    view.replaceChildren(
      el('p', { class: 'error', role: 'alert' }, `Could not load this page: ${e.message}${transient ? ' (retrying)' : ''}`),
    );
    if (transient) setTimeout(() => mine === routing && route(), 3000);
  }
}

document.getElementById('search').addEventListener('submit', (e) => {
  e.preventDefault();
  const q = document.getElementById('q').value.trim();
  if (q) go(`search/${encodeURIComponent(q)}`);
});
// Typeahead: from 2 characters on, what the search would find (debounced; reads go through the cache).
const hints = document.getElementById('q-hints');
let hintTimer;
document.getElementById('q').addEventListener('input', (ev) => {
  clearTimeout(hintTimer);
  const q = ev.target.value.trim();
  if (q.length < 2) return hints.replaceChildren();
  hintTimer = setTimeout(async () => {
    const hits = await client.search(q).catch(() => []);
    if (document.getElementById('q').value.trim() !== q) return;
    hints.replaceChildren(
      ...hits
        .map((h) => hitTarget(h))
        .filter(Boolean)
        .map(([href, label]) => el('option', { value: decodeURIComponent(href.split('/').slice(1).join('/')), label: label.trim() })),
    );
  }, 350);
});
document.querySelector('.skip').addEventListener('click', (e) => {
  e.preventDefault();
  view.focus();
});
window.addEventListener('hashchange', route);
// A live list's "N new - show" bar (liveList.ts).
window.addEventListener('explorer:reload', () => route());
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
  if (e.event === 'hello') setLive(true);
  else if (e.event === 'block') {
    // A block this tab already has (the worker repeats its last one to a new tab) is skipped.
    if (head.index !== null && e.data.index <= head.index) return;
    head.index = e.data.index;
    head.timestamp = e.data.timestamp;
    showHead();
    home?.onBlock(e.data);
    view.firstElementChild?.onLiveBlock?.(e.data);
  } else if (e.event === 'reorg') {
    // The new branch is re-sent from the common ancestor on.
    head.index = Math.min(head.index ?? 0, e.data.fromHeight - 1);
    home?.onReorg(e.data);
  } else if (e.event === 'tx') {
    home?.scheduleRefresh();
    view.firstElementChild?.onLiveTx?.(e.data);
  }
}, new URLSearchParams(location.search).get('live') ?? undefined);

route();
