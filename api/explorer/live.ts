// The page's side of the live chain stream: one stream per browser, shared by all its tabs.
// Where SharedWorker exists the stream lives in liveWorker.ts; else one tab is elected leader
// with a Web Lock, follows the chain, and relays to the others on a BroadcastChannel (when it
// closes, the next tab takes the lock and resumes after the last block the tabs saw); a
// browser with neither gets a stream per tab.
// API reads go through one cache (apiCache.ts): the worker's, shared by the tabs, or this tab's.
import { ApiCache } from './apiCache.ts';
import { followChain } from './liveSource.ts';

const LOCK = 'ombra-explorer-live';
const CHANNEL = 'ombra-explorer-live';

/** This tab's cache: used without a worker (its head kept by `onLiveBlock`). */
const local = new ApiCache();
let port = null;
let nextId = 0;
const waiting = new Map(); // id → {resolve, reject, url}

/** GET `url` through the shared cache: `{status, body, retryAfter}`. */
export function apiGet(url) {
  if (!port) return local.get(url);
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject, url });
    port.postMessage({ kind: 'get', id, url });
  });
}

/** The tab's own cache follows the chain too (for when there is no worker). */
export function onLiveEvent(e) {
  if (e.event === 'block') local.onBlock(e.data);
  else if (e.event === 'reorg') local.onReorg();
}

/** The worker is gone: what was asked of it is read here. */
function dropWorker() {
  port = null;
  for (const [id, w] of waiting) {
    waiting.delete(id);
    local.get(w.url).then(w.resolve, w.reject);
  }
}

/**
 * Delivers `{kind: 'event', e}` and `{kind: 'status', live}` messages to `onMessage`;
 * `mode` forces a transport ('worker', 'leader' or 'direct'; default: the best available).
 */
export function openLive(onMessage, mode = pickMode()) {
  if (mode === 'worker') return viaWorker(onMessage);
  if (mode === 'leader') return viaLeader(onMessage);
  void followChain(location.origin, onMessage, new AbortController().signal);
  return 'direct';
}

function pickMode() {
  if (typeof SharedWorker === 'function') return 'worker';
  if (typeof BroadcastChannel === 'function' && navigator.locks) return 'leader';
  return 'direct';
}

function viaWorker(onMessage) {
  const worker = new SharedWorker('/explorer/liveWorker.ts', { type: 'module', name: 'ombra-live' });
  let heard = false;
  // A browser whose shared workers cannot load modules fails the worker before it says anything.
  worker.addEventListener('error', () => {
    dropWorker();
    if (heard) return;
    heard = true;
    document.documentElement.dataset.live =
      navigator.locks && typeof BroadcastChannel === 'function' ? viaLeader(onMessage) : openLive(onMessage, 'direct');
  });
  worker.port.onmessage = (m) => {
    heard = true;
    if (m.data?.kind === 'got') {
      const w = waiting.get(m.data.id);
      waiting.delete(m.data.id);
      if (w) m.data.error === undefined ? w.resolve(m.data.answer) : w.reject(new TypeError(m.data.error));
      return;
    }
    onMessage(m.data);
  };
  worker.port.start();
  port = worker.port;
  addEventListener('pagehide', () => worker.port.postMessage({ kind: 'bye' }));
  return 'worker';
}

function viaLeader(onMessage) {
  const channel = new BroadcastChannel(CHANNEL);
  let next; // the first height no tab has seen yet
  let status = { kind: 'status', live: false, notice: 'connecting' };
  const seen = (msg) => {
    if (msg.kind === 'status') status = msg;
    else if (msg.e.event === 'block') next = msg.e.data.index + 1;
    onMessage(msg);
  };
  channel.onmessage = (m) => {
    if (m.data?.kind === 'ask') return; // answered by the leader below
    seen(m.data);
  };
  channel.postMessage({ kind: 'ask' });
  navigator.locks.request(LOCK, () => {
    // This tab leads until it closes (the lock is then released and the next tab takes it).
    channel.onmessage = (m) => {
      if (m.data?.kind === 'ask') channel.postMessage(status);
    };
    const relay = (msg) => {
      seen(msg);
      channel.postMessage(msg);
    };
    return followChain(location.origin, relay, new AbortController().signal, next);
  });
  return 'leader';
}
