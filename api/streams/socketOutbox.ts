/**
 * A subscriber's send buffer written straight onto Node's HTTP response: no WHATWG stream, no
 * per-subscriber reader loop, just the socket's own write buffer. It is bounded the same way as
 * `Outbox` (messages not yet flushed to the kernel, and their bytes), so a consumer that stops
 * reading fills it and its owner disconnects it. Used when the API is served by
 * @hono/node-server; `Outbox` serves in-process requests (`app.request`).
 */
import type { ServerResponse } from 'node:http';
import type { OutboxLimits, SseSink } from './outbox.ts';

/** A bounded writer onto one HTTP response. */
export class SocketOutbox implements SseSink {
  private readonly res: ServerResponse;
  private readonly limits: OutboxLimits;
  private inflight = 0;
  private roomWaiters: (() => void)[] = [];
  private finished = false;

  /** Sends the status and headers now; `onCancel` runs once when the client goes away. */
  constructor(res: ServerResponse, headers: Record<string, string>, limits: OutboxLimits, onCancel: () => void) {
    this.res = res;
    this.limits = limits;
    res.writeHead(200, headers);
    res.flushHeaders();
    // Ended, or the client went away: either way the subscriber detaches.
    res.once('close', () => {
      this.finish();
      onCancel();
    });
  }

  /** Messages not yet flushed. */
  get length(): number {
    return this.inflight;
  }

  /** Bytes not yet flushed. */
  get bytes(): number {
    return this.res.writableLength;
  }

  push(chunk: Uint8Array): boolean {
    if (this.finished || this.res.writableEnded) return false;
    if (this.inflight + 1 > this.limits.maxMessages || this.res.writableLength + chunk.byteLength > this.limits.maxBytes) return false;
    this.inflight++;
    this.res.write(chunk, () => {
      this.inflight--;
      if (this.hasRoom()) this.wakeRoom();
    });
    return true;
  }

  room(): Promise<void> {
    if (this.hasRoom() || this.finished) return Promise.resolve();
    return new Promise((r) => this.roomWaiters.push(r));
  }

  end(last?: Uint8Array): void {
    if (this.finished || this.res.writableEnded) return;
    if (last) this.res.end(last);
    else this.res.end();
  }

  abort(): void {
    this.finish();
    this.res.destroy();
  }

  private hasRoom(): boolean {
    return this.inflight * 2 <= this.limits.maxMessages && this.res.writableLength * 2 <= this.limits.maxBytes;
  }

  private wakeRoom(): void {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const w of waiters) w();
  }

  private finish(): void {
    this.finished = true;
    this.wakeRoom();
  }
}
