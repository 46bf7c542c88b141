// The explorer's shared worker: one live chain stream for every tab of this browser on this
// node (a browser opens at most 6 connections to one host; a stream per tab would starve the
// seventh). Each tab connects a port; the worker fans every event out to all ports and tells a
// new port whether the stream is up and which block was last seen. It also holds the tabs' one
// cache of API reads (apiCache.ts): a tab asks `{kind: 'get', id, url}` and is answered
// `{kind: 'got', id, answer}`.
import { ApiCache } from './apiCache.ts';
import { followChain } from './liveSource.ts';

const cache = new ApiCache();

const ports = new Set();
let status = { kind: 'status', live: false, notice: 'connecting' };
let lastBlock = null;
let started = false;

function broadcast(msg) {
  if (msg.kind === 'status') status = msg;
  else if (msg.e.event === 'block') {
    lastBlock = msg;
    cache.onBlock(msg.e.data);
  } else if (msg.e.event === 'reorg') cache.onReorg();
  for (const port of ports) port.postMessage(msg);
}

self.onconnect = (ev) => {
  const port = ev.ports[0];
  ports.add(port);
  port.onmessage = (m) => {
    // A tab that goes away says so; a port that never does only costs a failed postMessage.
    if (m.data?.kind === 'bye') ports.delete(port);
    else if (m.data?.kind === 'get') {
      const { id, url } = m.data;
      // Only this origin's API: the worker reads nothing else for a tab.
      if (new URL(url).origin !== self.location.origin) return port.postMessage({ kind: 'got', id, error: 'not this origin' });
      cache.get(url).then(
        (answer) => port.postMessage({ kind: 'got', id, answer }),
        (e) => port.postMessage({ kind: 'got', id, error: String(e?.message ?? e) }),
      );
    }
  };
  port.start();
  port.postMessage(status);
  if (lastBlock) port.postMessage(lastBlock);
  if (!started) {
    started = true;
    void followChain(self.location.origin, broadcast, new AbortController().signal);
  }
};
