/**
 * Fan-out benchmark: N concurrent SSE subscribers on one node; the time from a block's append
 * (its event on `node.events$`) to the block event reaching the last subscriber, and the node's
 * memory, beside a bare node:http server writing the same bytes to the same number of clients
 * in the same run. Clients live in a child process (raw sockets).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { blockFrame, sseFrame } from '../../api/streams/sseFrames.ts';
import type { Block } from '../../core/block.ts';
import { withServedChain } from '../helpers/streamClients.ts';
import { DEV_KEYS } from '../helpers/testChain.ts';

const now = () => performance.timeOrigin + performance.now();
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** One side's figures. */
export interface FanoutResult {
  /** Median ms from broadcast start to the last subscriber, over the rounds. */
  lastMs: number;
  /** Median ms to the first subscriber. */
  firstMs: number;
  rounds: number[];
  /** Memory growth of the serving process with N subscribers connected (MiB). */
  rssMiB: number;
  heapMiB: number;
  frameBytes: number;
  /** The last block broadcast (the baseline sends frames of the same size). */
  sample?: Block;
}

/** Talks to the client child. */
class Clients {
  readonly child: ChildProcess = fork(new URL('./fanoutClients.ts', import.meta.url), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  ask<T>(msg: unknown, key: string): Promise<T> {
    return new Promise((resolve) => {
      const on = (m: Record<string, unknown>) => {
        if (!(key in m)) return;
        this.child.off('message', on);
        resolve(m[key] as T);
      };
      this.child.on('message', on);
      if (msg !== null) this.child.send(msg as object);
    });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const memory = () => {
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
};
const mib = (b: number) => b / 2 ** 20;

/** One measurement: connect, then `rounds` times broadcast and time the last arrival. */
async function measure(
  clients: Clients,
  url: string,
  path: string,
  n: number,
  rounds: number,
  broadcast: (round: number) => Promise<{ t0: number; marker: string }>,
): Promise<Omit<FanoutResult, 'frameBytes'>> {
  const m0 = memory();
  await clients.ask({ connect: { url, path, n } }, 'connected');
  const m1 = memory();
  const lasts: number[] = [];
  const firsts: number[] = [];
  for (let r = 0; r < rounds; r++) {
    await new Promise((res) => setTimeout(res, 100));
    const { marker } = await broadcast(-1 - r);
    await clients.ask({ watch: marker }, 'watching');
    const doneP = clients.ask<{ first: number; last: number }>(null, 'done');
    const { t0 } = await broadcast(r);
    const done = await doneP;
    lasts.push(done.last - t0);
    firsts.push(done.first - t0);
  }
  await clients.ask({ close: true }, 'closed');
  return { lastMs: median(lasts), firstMs: median(firsts), rounds: lasts, rssMiB: mib(m1.rss - m0.rss), heapMiB: mib(m1.heap - m0.heap) };
}

/** The node side: real chain, StreamHub, Hono SSE route. */
export async function nodeFanout(n: number, rounds: number): Promise<FanoutResult> {
  const clients = new Clients();
  try {
    return await withServedChain(
      async ({ chain, url }) => {
        let t0 = 0;
        let frameBytes = 0;
        let sample: Block | undefined;
        // First observer on the feed: the moment the block is appended and emitted.
        chain.node.events$.subscribe((e) => {
          if (e.type !== 'block') return;
          t0 = now();
          frameBytes = blockFrame(e.block).byteLength;
          sample = e.block;
        });
        let pendingMarker = '';
        const result = await measure(clients, url, '/api/chain/events', n, rounds, async (round) => {
          if (round < 0) {
            pendingMarker = `\nid: ${chain.node.head().index + 1}\n`;
            return { t0: 0, marker: pendingMarker };
          }
          for (let i = 1; i <= 5; i++) await chain.node.submitTx(chain.transfer(i, DEV_KEYS[0].address, 1n));
          await chain.produce(1);
          return { t0, marker: pendingMarker };
        });
        return { ...result, frameBytes, sample };
      },
      { ssePingMs: 3_600_000, maxSubscribers: n + 10 },
    );
  } finally {
    clients.child.kill();
  }
}

/** The baseline: a bare node:http server writing the same block frames to every client. */
export async function bareFanout(n: number, rounds: number, sample: Block): Promise<FanoutResult> {
  const clients = new Clients();
  const open = new Set<ServerResponse>();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    res.write(sseFrame('hello', { height: 0 }));
    open.add(res);
    res.on('close', () => open.delete(res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let frame = blockFrame(sample);
  try {
    const result = await measure(clients, url, '/', n, rounds, async (round) => {
      if (round < 0) {
        frame = blockFrame({ ...sample, index: sample.index + 1 - round });
        return { t0: 0, marker: `\nid: ${sample.index + 1 - round}\n` };
      }
      const t0 = now();
      for (const res of open) res.write(frame);
      return { t0, marker: '' };
    });
    return { ...result, frameBytes: frame.byteLength };
  } finally {
    clients.child.kill();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}
