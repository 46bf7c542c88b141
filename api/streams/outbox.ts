/**
 * A subscriber's bounded send buffer feeding an HTTP response body. The HTTP layer pulls from it
 * only while the socket accepts data, so a consumer that stops reading makes it fill; the owner
 * sees `push` refuse and disconnects the consumer instead of letting the node's memory grow.
 */

/** Limits of one outbox. */
export interface OutboxLimits {
  maxMessages: number;
  maxBytes: number;
}

/** Where a subscriber's encoded messages go, bounded: `push` refuses when a limit would be passed. */
export interface SseSink {
  /** Messages waiting. */
  readonly length: number;
  /** Bytes waiting. */
  readonly bytes: number;
  /** Queues a message; false (and nothing queued) when it would exceed a limit or the sink is ending. */
  push(chunk: Uint8Array): boolean;
  /** Resolves when the sink is at most half full (paces replay from the log to the consumer). */
  room(): Promise<void>;
  /** Sends `last` (if given) and then ends the body. */
  end(last?: Uint8Array): void;
  /** Ends the body at once (the connection is dropped). */
  abort(reason?: Error): void;
}

/** A bounded queue of encoded messages exposed as a ReadableStream. */
export class Outbox implements SseSink {
  readonly stream: ReadableStream<Uint8Array>;
  private readonly limits: OutboxLimits;
  private queue: Uint8Array[] = [];
  private queued = 0;
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  private waitingPull: (() => void) | null = null;
  private roomWaiters: (() => void)[] = [];
  private ending = false;
  private finished = false;

  /** `onCancel` runs once when the reader goes away (the client disconnected). */
  constructor(limits: OutboxLimits, onCancel: () => void) {
    this.limits = limits;
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          this.controller = c;
        },
        pull: (c) => this.pull(c),
        cancel: () => {
          this.finish();
          onCancel();
        },
      },
      // Nothing is pre-read: a chunk leaves the queue only when the socket asked for one.
      { highWaterMark: 0 },
    );
  }

  /** Messages waiting. */
  get length(): number {
    return this.queue.length;
  }

  /** Bytes waiting. */
  get bytes(): number {
    return this.queued;
  }

  /** Queues a message; false (and nothing queued) when it would exceed a limit or the outbox is ending. */
  push(chunk: Uint8Array): boolean {
    if (this.ending || this.finished) return false;
    if (this.queue.length + 1 > this.limits.maxMessages || this.queued + chunk.byteLength > this.limits.maxBytes) return false;
    this.queue.push(chunk);
    this.queued += chunk.byteLength;
    this.wakePull();
    return true;
  }

  /** Resolves when the queue is at most half full (paces replay from the log to the consumer). */
  room(): Promise<void> {
    if (this.hasRoom() || this.finished) return Promise.resolve();
    return new Promise((r) => this.roomWaiters.push(r));
  }

  /** Drops whatever is queued, sends `last` (if given) and then ends the body. */
  end(last?: Uint8Array): void {
    if (this.ending || this.finished) return;
    this.queue = last ? [last] : [];
    this.queued = last?.byteLength ?? 0;
    this.ending = true;
    this.wakePull();
  }

  /** Ends the body at once with an error (the HTTP layer destroys the response). */
  abort(reason: Error = new Error('aborted')): void {
    if (this.finished) return;
    this.finish();
    try {
      this.controller?.error(reason);
    } catch {
      // already closed
    }
  }

  private hasRoom(): boolean {
    return this.queue.length * 2 <= this.limits.maxMessages && this.queued * 2 <= this.limits.maxBytes;
  }

  private async pull(c: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    while (this.queue.length === 0 && !this.ending && !this.finished) await new Promise<void>((r) => (this.waitingPull = r));
    if (this.finished) return;
    if (this.queue.length === 0) {
      this.finish();
      c.close();
      return;
    }
    // Everything queued goes out as one write: fewer syscalls when a consumer is behind.
    const chunk = this.queue.length === 1 ? this.queue[0] : Buffer.concat(this.queue);
    this.queue = [];
    this.queued = 0;
    c.enqueue(chunk);
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const w of waiters) w();
  }

  private wakePull(): void {
    const w = this.waitingPull;
    this.waitingPull = null;
    w?.();
  }

  private finish(): void {
    this.finished = true;
    this.queue = [];
    this.queued = 0;
    this.wakePull();
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const w of waiters) w();
  }
}
