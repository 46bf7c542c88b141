// The page's side of the live chain stream: one stream per browser, shared by all its tabs.
// Where SharedWorker exists the stream lives in liveWorker.ts; else one tab is elected leader
// with a Web Lock, follows the chain, and relays to the others on a BroadcastChannel (when it
// closes, the next tab takes the lock and resumes after the last block the tabs saw); a
// browser with neither gets a stream per tab.
// API reads go through one cache (apiCache.ts): the worker's, shared by the tabs, or this tab's.
import { type Answer, ApiCache } from './apiCache.ts';
import { blockOf, type LiveMessage, reorgFrom, type WorkerAsk, type WorkerSays } from './chainEvents.ts';
import type { ChainEvent } from '../../client/browser.ts';
import { followChain } from './liveSource.ts';

const LOCK = 'ombra-explorer-live';
const CHANNEL = 'ombra-explorer-live';

/** What the tabs of the leader mode say on their channel: the leader's relayed messages, and a new tab's ask for the status. */
type ChannelSays = LiveMessage | { kind: 'ask' };
/** How this tab's chain events arrive. */
export type LiveMode = 'worker' | 'leader' | 'direct';

/** This tab's cache: used without a worker (its head kept by `onLiveEvent`). */
const local = new ApiCache();
let port: MessagePort | null = null;
let nextId = 0;
const waiting = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void; url: string }>();

/** GET `url` through the shared cache: `{status, body, retryAfter}`. */
export function apiGet(url: string): Promise<Answer> {
  if (!port) return local.get(url);
  const id = ++nextId;
  const to = port;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject, url });
    to.postMessage({ kind: 'get', id, url } satisfies WorkerAsk);
  });
}

/** The tab's own cache follows the chain too (for when there is no worker). */
export function onLiveEvent(e: ChainEvent): void {
  const b = blockOf(e);
  if (b) local.onBlock(b);
  else if (reorgFrom(e) !== null) local.onReorg();
}

/** The worker is gone: what was asked of it is read here. */
function dropWorker(): void {
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
export function openLive(onMessage: (m: LiveMessage) => void, mode: string = pickMode()): LiveMode {
  if (mode === 'worker') return viaWorker(onMessage);
  if (mode === 'leader') return viaLeader(onMessage);
  void followChain(location.origin, onMessage, new AbortController().signal);
  return 'direct';
}

function pickMode(): LiveMode {
  if (typeof SharedWorker === 'function') return 'worker';
  if (typeof BroadcastChannel === 'function' && 'locks' in navigator) return 'leader';
  return 'direct';
}

function viaWorker(onMessage: (m: LiveMessage) => void): LiveMode {
  const worker = new SharedWorker('/explorer/liveWorker.ts', { type: 'module', name: 'ombra-live' });
  let heard = false;
  // A browser whose shared workers cannot load modules fails the worker before it says anything.
  worker.addEventListener('error', () => {
    dropWorker();
    if (heard) return;
    heard = true;
    document.documentElement.dataset.live =
      'locks' in navigator && typeof BroadcastChannel === 'function' ? viaLeader(onMessage) : openLive(onMessage, 'direct');
  });
  worker.port.onmessage = (m: MessageEvent<WorkerSays>) => {
    heard = true;
    const said = m.data;
    if (said.kind === 'got') {
      const w = waiting.get(said.id);
      waiting.delete(said.id);
      if (w && said.answer !== undefined) w.resolve(said.answer);
      else w?.reject(new TypeError(said.error ?? 'no answer'));
      return;
    }
    onMessage(said);
  };
  worker.port.start();
  port = worker.port;
  addEventListener('pagehide', () => worker.port.postMessage({ kind: 'bye' } satisfies WorkerAsk));
  return 'worker';
}

function viaLeader(onMessage: (m: LiveMessage) => void): LiveMode {
  const channel = new BroadcastChannel(CHANNEL);
  let next: number | undefined; // the first height no tab has seen yet
  let status: LiveMessage = { kind: 'status', live: false, notice: 'connecting' };
  const seen = (msg: LiveMessage) => {
    if (msg.kind === 'status') status = msg;
    else {
      const b = blockOf(msg.e);
      if (b) next = b.index + 1;
    }
    onMessage(msg);
  };
  channel.onmessage = (m: MessageEvent<ChannelSays>) => {
    if (m.data.kind === 'ask') return; // answered by the leader below
    seen(m.data);
  };
  channel.postMessage({ kind: 'ask' } satisfies ChannelSays);
  void navigator.locks.request(LOCK, () => {
    // This tab leads until it closes (the lock is then released and the next tab takes it).
    channel.onmessage = (m: MessageEvent<ChannelSays>) => {
      if (m.data.kind === 'ask') channel.postMessage(status);
    };
    const relay = (msg: LiveMessage) => {
      seen(msg);
      channel.postMessage(msg);
    };
    return followChain(location.origin, relay, new AbortController().signal, next);
  });
  return 'leader';
}
