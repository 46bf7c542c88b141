// The one connection to the node's chain events that a browser holds (in the shared worker, or
// in the leader tab where there is none). It resumes with Last-Event-ID after a drop, so no
// block is missed, and retries quickly: a quarter, a half, then one second between attempts,
// which is the `retry:` hint the node sends. Waiting longer buys nothing here: a refused
// connection to a node that is down costs one loopback or LAN round trip, and the one
// connection is shared by every tab of the browser.
import { OmbraClient } from '../../client/browser.ts';
import { blockOf, type LiveMessage } from './chainEvents.ts';

/** The wait before reconnect attempt `n` (0-based), in ms: 250, 500, then 1,000. */
const liveBackoff = (n: number): number => Math.min(250 * 2 ** n, 1000);

/**
 * Follows the chain from `fromHeight` (or live only) until `signal` aborts; `send` receives
 * `{kind: 'event', e}` for every chain event and `{kind: 'status', live}` when the connection
 * comes or goes. A resume the node refuses (too far back) starts again live only.
 */
export async function followChain(origin: string, send: (m: LiveMessage) => void, signal: AbortSignal, fromHeight?: number): Promise<void> {
  const client = new OmbraClient(origin);
  let from = fromHeight;
  while (!signal.aborted) {
    const end = await client.subscribe({
      fromHeight: from,
      signal,
      // The node pings every 2 s: three missed pings mean a dead connection.
      idleMs: 6000,
      backoff: liveBackoff,
      onNotice: (line) => send({ kind: 'status', live: line.startsWith('connected'), notice: line }),
      onEvent: (e) => {
        const b = blockOf(e);
        if (b) from = b.index + 1;
        send({ kind: 'event', e });
      },
    });
    if (end === 0) return;
    from = undefined;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
