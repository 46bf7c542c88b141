// The explorer: a hash router over the pages, the head's height and age in the header, and the
// node's live event stream (the typed client's subscription, which resumes with Last-Event-ID
// after a drop) feeding the home page without reloads.
import { OmbraClient } from '/explorer/client/browser.ts';
import { el } from '/explorer/dom.js';
import { Home } from '/explorer/home.js';
import { explorerPages } from '/explorer/pages.js';

const client = new OmbraClient(location.origin);
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
  badge.textContent = on ? 'live' : 'reconnecting';
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

const PAGES = explorerPages(client, go);

let routing = 0;
async function route() {
  const mine = ++routing;
  const [name, ...rest] = location.hash.replace(/^#\/?/, '').split('/');
  const arg = decodeURIComponent(rest.join('/'));
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
    if (page && mine === routing) view.replaceChildren(page);
  } catch (e) {
    if (mine === routing) view.replaceChildren(el('p', { class: 'error' }, `Could not load this page: ${e.message}`));
  }
}

document.getElementById('search').addEventListener('submit', (e) => {
  e.preventDefault();
  const q = document.getElementById('q').value.trim();
  if (q) go(`search/${encodeURIComponent(q)}`);
});
window.addEventListener('hashchange', route);
setInterval(showHead, 1000);

client
  .height()
  .then((h) => {
    head.index = h.height;
    head.timestamp = h.latestBlock.timestamp;
    showHead();
  })
  .catch(() => undefined);

client.subscribe({
  onNotice: (line) => setLive(line.startsWith('connected')),
  onEvent: (e) => {
    if (e.event === 'hello') {
      setLive(true);
      return;
    }
    if (e.event === 'block') {
      head.index = e.data.index;
      head.timestamp = e.data.timestamp;
      showHead();
      home?.onBlock(e.data);
    } else if (e.event === 'tx' || e.event === 'reorg') home?.scheduleRefresh();
  },
});

route();
