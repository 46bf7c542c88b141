// The explorer's shared worker: one live chain stream for every tab of this browser on this
// node (a browser opens at most 6 connections to one host; a stream per tab would starve the
// seventh). Each tab connects a port; the worker fans every event out to all ports and tells a
// new port whether the stream is up and which block was last seen.
import { followChain } from '/explorer/liveSource.js';

const ports = new Set();
let status = { kind: 'status', live: false, notice: 'connecting' };
let lastBlock = null;
let started = false;

function broadcast(msg) {
  if (msg.kind === 'status') status = msg;
  else if (msg.e.event === 'block') lastBlock = msg;
  for (const port of ports) port.postMessage(msg);
}

self.onconnect = (ev) => {
  const port = ev.ports[0];
  ports.add(port);
  port.onmessage = (m) => {
    // A tab that goes away says so; a port that never does only costs a failed postMessage.
    if (m.data?.kind === 'bye') ports.delete(port);
  };
  port.start();
  port.postMessage(status);
  if (lastBlock) port.postMessage(lastBlock);
  if (!started) {
    started = true;
    void followChain(self.location.origin, broadcast, new AbortController().signal);
  }
};
