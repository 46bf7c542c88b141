/**
 * The fan-out benchmark's clients, in a child process so their work does not run on the node's
 * thread: N raw HTTP connections (no EventSource objects), each watching its bytes for a marker.
 * Protocol over IPC: {connect: {url, path, n}} -> {connected}; {watch: marker} -> {done: {first, last}}.
 */
import { connect, type Socket } from 'node:net';

const now = () => performance.timeOrigin + performance.now();
const sockets: { socket: Socket; tail: string; seen: boolean }[] = [];
let marker = '';
let remaining = 0;
let first = 0;

function onData(c: (typeof sockets)[number], chunk: string): void {
  if (c.seen || !marker) {
    c.tail = chunk.slice(-64);
    return;
  }
  const text = c.tail + chunk;
  c.tail = chunk.slice(-64);
  if (!text.includes(marker)) return;
  c.seen = true;
  const t = now();
  if (first === 0) first = t;
  if (--remaining === 0) process.send!({ done: { first, last: t } });
}

/** Opens `n` connections in batches and resolves when every one has received its first bytes. */
async function open(url: string, path: string, n: number): Promise<void> {
  const { hostname, port } = new URL(url);
  for (let done = 0; done < n; ) {
    const batch = Math.min(250, n - done);
    await Promise.all(
      Array.from(
        { length: batch },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = connect(Number(port), hostname, () =>
              socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\n\r\n`),
            );
            const c = { socket, tail: '', seen: false };
            socket.setEncoding('utf8');
            socket.once('data', () => resolve());
            socket.on('data', (d: string) => onData(c, d));
            socket.once('error', reject);
            sockets.push(c);
          }),
      ),
    );
    done += batch;
  }
}

process.on('message', async (msg: { connect?: { url: string; path: string; n: number }; watch?: string; close?: true }) => {
  if (msg.connect) {
    await open(msg.connect.url, msg.connect.path, msg.connect.n);
    process.send!({ connected: sockets.length });
  } else if (msg.watch) {
    marker = msg.watch;
    remaining = sockets.length;
    first = 0;
    for (const c of sockets) c.seen = false;
    process.send!({ watching: true });
  } else if (msg.close) {
    for (const c of sockets) c.socket.destroy();
    sockets.length = 0;
    process.send!({ closed: true });
  }
});
