// The explorer's shared worker: one live chain stream for every tab of this browser on this
// node (a browser opens at most 6 connections to one host; a stream per tab would starve the
// seventh). Each tab connects a port; the worker fans every event out to all ports and tells a
// new port whether the stream is up and which block was last seen. It also holds the tabs' one
// cache of API reads (apiCache.ts): a tab asks `{kind: 'get', id, url}` and is answered
// `{kind: 'got', id, answer}`.
import { ApiCache } from './apiCache.ts';
import { blockOf, type LiveMessage, reorgFrom, type WorkerAsk, type WorkerSays } from './chainEvents.ts';
import { followChain } from './liveSource.ts';

const cache = new ApiCache();

const ports = new Set<MessagePort>();
let status: LiveMessage = { kind: 'status', live: false, notice: 'connecting' };
let lastBlock: LiveMessage | null = null;
let started = false;

function broadcast(msg: LiveMessage): void {
  if (msg.kind === 'status') status = msg;
  else {
    const b = blockOf(msg.e);
    if (b) {
      lastBlock = msg;
      cache.onBlock(b);
    } else if (reorgFrom(msg.e) !== null) cache.onReorg();
  }
  for (const port of ports) port.postMessage(msg satisfies WorkerSays);
}

/** A tab connected: it gets the status and the last block, then every message, and reads through the cache. */
function connected(port: MessagePort): void {
  ports.add(port);
  port.onmessage = (m: MessageEvent<WorkerAsk>) => {
    const ask = m.data;
    // A tab that goes away says so; a port that never does only costs a failed postMessage.
    if (ask.kind === 'bye') ports.delete(port);
    else {
      const { id, url } = ask;
      const reply = (r: WorkerSays) => port.postMessage(r);
      // Only this origin's API: the worker reads nothing else for a tab.
      if (new URL(url).origin !== self.location.origin) return reply({ kind: 'got', id, error: 'not this origin' });
      cache.get(url).then(
        (answer) => reply({ kind: 'got', id, answer }),
        (e: unknown) => reply({ kind: 'got', id, error: e instanceof Error ? e.message : String(e) }),
      );
    }
  };
  port.start();
  port.postMessage(status satisfies WorkerSays);
  if (lastBlock) port.postMessage(lastBlock satisfies WorkerSays);
  if (!started) {
    started = true;
    void followChain(self.location.origin, broadcast, new AbortController().signal);
  }
}

// A shared worker's `connect` event is a MessageEvent whose port is the new tab's.
addEventListener('connect', (ev) => {
  if (ev instanceof MessageEvent && ev.ports[0]) connected(ev.ports[0]);
});
