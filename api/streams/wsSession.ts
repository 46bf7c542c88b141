/**
 * One WebSocket connection: its subscriptions, the bounded send buffer (messages not yet handed
 * to the kernel, and `bufferedAmount` bytes), and errors that leave the connection usable.
 */
import type { RawData, WebSocket } from 'ws';
import { ChainError } from '../../core/errors.ts';
import type { ChainEvent } from '../../projections/events.ts';
import type { MempoolSnapshot, StreamHub } from './streamHub.ts';
import type { WsDialect } from './wsDialects.ts';
import { BlockResume } from './wsResume.ts';

/** Close code for a consumer that could not keep up (1008: policy violation). */
const SLOW_CONSUMER_CLOSE = 1008;

/** A connected WebSocket client. */
export class WsSession {
  readonly ws: WebSocket;
  readonly topics = new Set<string>();
  /** False after a ping until the pong arrives; the heartbeat drops the peer if still false. */
  alive = true;
  private readonly hub: StreamHub;
  private readonly dialect: WsDialect;
  private detach: (() => void) | null;
  private inFlight = 0;
  private closed = false;
  /** The `blocks` channel when subscribed with `since` (a resume from the client's last block). */
  private resume: BlockResume | null = null;

  constructor(ws: WebSocket, hub: StreamHub, dialect: WsDialect) {
    this.ws = ws;
    this.hub = hub;
    this.dialect = dialect;
    this.detach = hub.subscribe({
      event: (e) => this.onEvent(e),
      snapshot: (s) => this.onSnapshot(s),
      end: () => this.ws.close(1001, 'node shutting down'),
    });
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('pong', () => (this.alive = true));
    ws.on('close', () => this.stop());
    ws.on('error', () => this.stop());
  }

  private onEvent(e: ChainEvent): void {
    for (const topic of this.topics) {
      if (this.resume && topic === 'blocks') this.resume.onEvent(e);
      else for (const frame of this.dialect.frames(this.hub, e, topic)) this.send(frame);
    }
  }

  private onSnapshot(s: MempoolSnapshot): void {
    for (const topic of this.topics) {
      const frame = this.dialect.snapshot(this.hub, s, topic);
      if (frame) this.send(frame);
    }
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    try {
      if (isBinary) throw new ChainError('INVALID_PARAMS', 'binary messages are not accepted; send JSON text');
      let msg: unknown;
      try {
        msg = JSON.parse(data.toString());
      } catch {
        throw new ChainError('INVALID_JSON', 'message is not JSON');
      }
      const cmd = this.dialect.command(msg);
      if (cmd.op === 'ping') return void this.send(JSON.stringify({ type: 'pong', ts: Date.now() }));
      const topic = this.dialect.topic(cmd.topic);
      if (cmd.op === 'unsubscribe') {
        this.topics.delete(topic);
        if (topic === 'blocks') this.endResume();
        return void this.send(JSON.stringify(this.dialect.ack('unsubscribed', topic)));
      }
      const max = this.hub.options.wsMaxTopics;
      if (!this.topics.has(topic) && this.topics.size >= max)
        throw new ChainError('INVALID_PARAMS', `at most ${max} subscriptions per connection`);
      const resume = cmd.since === undefined ? null : new BlockResume(this.hub, cmd.since, this);
      if (topic === 'blocks') {
        this.endResume();
        this.resume = resume;
      }
      this.topics.add(topic);
      this.send(JSON.stringify(this.dialect.ack('subscribed', topic)));
      resume?.start();
      // A periodic channel starts with a value now rather than after one interval.
      const now = this.dialect.snapshot(this.hub, this.hub.mempoolSnapshot(), topic);
      if (now) this.send(now);
    } catch (e) {
      const err = e instanceof ChainError ? e : new ChainError('INTERNAL', 'internal error');
      this.send(JSON.stringify({ type: 'error', error: err.message, code: err.code }));
    }
  }

  /** Sends a message unless the peer is too far behind, in which case it is disconnected. False once it is gone. */
  send(frame: string): boolean {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return false;
    const o = this.hub.options;
    if (this.inFlight + 1 > o.maxBufferedMessages || this.ws.bufferedAmount + frame.length > o.maxBufferedBytes) {
      this.slowConsumer();
      return false;
    }
    this.inFlight++;
    this.ws.send(frame, () => this.inFlight--);
    return true;
  }

  /** Resolves once at most half the send buffer is in use (a replay from the log goes at the client's pace). */
  async room(): Promise<void> {
    const o = this.hub.options;
    while (!this.closed && (this.inFlight > o.maxBufferedMessages / 2 || this.ws.bufferedAmount > o.maxBufferedBytes / 2))
      await new Promise((r) => setTimeout(r, 5));
  }

  private endResume(): void {
    if (this.resume) this.resume.closed = true;
    this.resume = null;
  }

  /** Closes with 1008 and a SLOW_CONSUMER reason; a peer that does not read even that is cut off. */
  slowConsumer(): void {
    if (this.closed) return;
    this.hub.slowConsumerDrops++;
    this.stop();
    this.ws.close(SLOW_CONSUMER_CLOSE, 'SLOW_CONSUMER: too many messages waiting; reconnect');
    setTimeout(() => this.ws.terminate(), this.hub.options.slowConsumerGraceMs).unref();
  }

  private stop(): void {
    this.closed = true;
    this.endResume();
    const d = this.detach;
    this.detach = null;
    d?.();
  }
}
