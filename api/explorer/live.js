// The page's side of the live chain stream: one stream per browser, shared by all its tabs.
// Where SharedWorker exists the stream lives in liveWorker.js; else one tab is elected leader
// with a Web Lock, follows the chain, and relays to the others on a BroadcastChannel (when it
// closes, the next tab takes the lock and resumes after the last block the tabs saw); a
// browser with neither gets a stream per tab.
import { followChain } from '/explorer/liveSource.js';

const LOCK = 'ombra-explorer-live';
const CHANNEL = 'ombra-explorer-live';

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
  const worker = new SharedWorker('/explorer/liveWorker.js', { type: 'module', name: 'ombra-live' });
  let heard = false;
  // A browser whose shared workers cannot load modules fails the worker before it says anything.
  worker.addEventListener('error', () => {
    if (heard) return;
    heard = true;
    document.documentElement.dataset.live =
      navigator.locks && typeof BroadcastChannel === 'function' ? viaLeader(onMessage) : openLive(onMessage, 'direct');
  });
  worker.port.onmessage = (m) => {
    heard = true;
    onMessage(m.data);
  };
  worker.port.start();
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
