/**
 * One SSE subscriber: its bounded outbox, its detach function, and the slow-consumer rule
 * (a final `event: error` with code SLOW_CONSUMER, then the connection is closed).
 */
import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Outbox, type SseSink } from './outbox.ts';
import { SocketOutbox } from './socketOutbox.ts';
import { sseFrame, sseRetry } from './sseFrames.ts';
import type { StreamHub } from './streamHub.ts';

/** The socket under the response, when the HTTP layer exposes it (it is absent in `app.request`). */
export interface Destroyable {
  destroy(): void;
}

/** Headers of every event stream. */
const SSE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  // Reverse proxies (nginx) must not buffer a live stream.
  'X-Accel-Buffering': 'no',
};

/** Base of the chain and mempool event streams. */
export class SseStream {
  readonly hub: StreamHub;
  readonly outbox: SseSink;
  protected detach: (() => void) | null = null;
  private readonly socket: Destroyable | undefined;
  private graceTimer: NodeJS.Timeout | null = null;
  closed = false;

  /**
   * With Node's response (`res`, when served by @hono/node-server) frames go straight onto it:
   * a subscriber then costs its socket buffer and little else. Without it (in-process requests)
   * they go through a WHATWG stream.
   */
  constructor(hub: StreamHub, socket?: Destroyable, res?: ServerResponse) {
    this.hub = hub;
    this.socket = socket;
    const o = hub.options;
    const limits = { maxMessages: o.maxBufferedMessages, maxBytes: o.maxBufferedBytes };
    this.outbox = res ? new SocketOutbox(res, SSE_HEADERS, limits, () => this.close()) : new Outbox(limits, () => this.close());
    this.outbox.push(sseRetry(o.sseRetryMs));
  }

  /** The HTTP response streaming this subscriber's outbox (already under way when written straight to the socket). */
  response(): Response {
    if (this.outbox instanceof Outbox) return new Response(this.outbox.stream, { status: 200, headers: SSE_HEADERS });
    return RESPONSE_ALREADY_SENT;
  }

  /** Queues a message; a full outbox disconnects the subscriber. False once it is gone. */
  send(frame: Uint8Array): boolean {
    if (this.closed) return false;
    if (this.outbox.push(frame)) return true;
    this.slowConsumer();
    return false;
  }

  /** Queues a heartbeat only when nothing else is waiting: data in flight already proves liveness. */
  heartbeat(frame: Uint8Array): void {
    if (!this.closed && this.outbox.length === 0) this.send(frame);
  }

  /** Disconnects a consumer that cannot keep up: drop its backlog, tell it why, close. */
  slowConsumer(): void {
    if (this.closed) return;
    this.hub.slowConsumerDrops++;
    const o = this.hub.options;
    this.stop();
    const error = {
      error: `consumer too slow: more than ${o.maxBufferedMessages} messages or ${o.maxBufferedBytes} bytes waiting; reconnect with Last-Event-ID to resume from the log`,
      code: 'SLOW_CONSUMER',
    };
    this.outbox.end(sseFrame('error', error));
    // A peer that does not even read the notice is cut off after the grace period.
    this.graceTimer = setTimeout(() => {
      // Destroying the socket makes the HTTP layer cancel the body; without a socket (in-process
      // requests) erroring the body does the same.
      if (this.socket) this.socket.destroy();
      else this.outbox.abort(new Error('slow consumer'));
    }, o.slowConsumerGraceMs);
    this.graceTimer.unref();
  }

  /** Ends the stream normally (the node is closing). */
  end(): void {
    if (this.closed) return;
    this.stop();
    this.outbox.end();
  }

  /** The client went away: detach from the feed. */
  close(): void {
    this.stop();
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
  }

  private stop(): void {
    this.closed = true;
    const d = this.detach;
    this.detach = null;
    d?.();
  }
}
