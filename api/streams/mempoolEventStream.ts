/** GET /api/mempool/events for one client: `hello {total}`, then `snapshot {total, ts}` every 3 s. */
import type { ServerResponse } from 'node:http';
import { sseFrame } from './sseFrames.ts';
import type { StreamHub } from './streamHub.ts';
import { SseStream, type Destroyable } from './sseStream.ts';

/** The mempool event stream of one subscriber. */
export class MempoolEventStream extends SseStream {
  constructor(hub: StreamHub, socket?: Destroyable, res?: ServerResponse) {
    super(hub, socket, res);
    this.detach = hub.subscribe({
      snapshot: (s) => this.send(hub.memo(s, 'sse', () => sseFrame('snapshot', { total: s.total, ts: s.ts }))),
      end: () => this.end(),
    });
    this.send(sseFrame('hello', { total: hub.ports.mempool.size }));
  }
}
