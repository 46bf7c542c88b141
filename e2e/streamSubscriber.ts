/**
 * A subscriber to one node's live streams, as a client would be: SSE on /api/chain/events
 * resuming with Last-Event-ID after every outage, or WebSocket /api/ws on the `blocks` channel
 * resuming with `since` (the last block's `<height>:<hash>`). Every block and reorg it sees is recorded
 * with its connection number; a stream silent for 10 s (a paused node) is dropped and reopened.
 */
import { createParser } from 'eventsource-parser';
import WebSocket from 'ws';
import { fields, type History } from './history.ts';
import { sleep } from './http.ts';
import { errorMessage } from '../core/errors.ts';

/** Silence after which a stream is given up and reopened (the SSE heartbeat is every 2 s). */
const IDLE_MS = 10_000;

/** One subscriber: `kind` sse or ws, to the node at `url`. */
export class StreamSubscriber {
  readonly id: string;
  private readonly kind: 'sse' | 'ws';
  private readonly node: string;
  private readonly url: string;
  private readonly history: History;
  private stopped = false;
  private conn = 0;
  private lastId: string | null = null;
  private abort: AbortController | null = null;
  private socket: WebSocket | null = null;

  constructor(id: string, kind: 'sse' | 'ws', node: string, url: string, history: History) {
    this.id = id;
    this.kind = kind;
    this.node = node;
    this.url = url;
    this.history = history;
  }

  /** Subscribes and resubscribes until stopped. */
  async run(): Promise<void> {
    while (!this.stopped) {
      this.conn++;
      const reason = await (this.kind === 'sse' ? this.sse() : this.ws()).catch((e: unknown) =>
        e instanceof Error && e.cause ? errorMessage(e.cause) : errorMessage(e),
      );
      if (this.stopped) break;
      this.history.record('stream_close', { sub: this.id, kind: this.kind, node: this.node, conn: this.conn, reason });
      await sleep(1000);
    }
  }

  private event(event: string, data: Record<string, unknown>, id?: string): void {
    const rec: Record<string, unknown> = { sub: this.id, kind: this.kind, node: this.node, conn: this.conn, event };
    if (id !== undefined) rec.id = id;
    if (event === 'block')
      Object.assign(rec, {
        height: data.index,
        hash: data.hash,
        txs: Array.isArray(data.transactions) ? data.transactions.length : undefined,
      });
    if (event === 'reorg')
      Object.assign(rec, {
        fromHeight: data.fromHeight,
        oldHead: data.oldHead,
        newHead: data.newHead,
        dropped: Array.isArray(data.dropped) ? data.dropped.length : undefined,
      });
    if (event === 'hello') Object.assign(rec, { height: data.height, hash: data.latestBlockHash });
    this.history.record('stream', rec);
  }

  private async sse(): Promise<string> {
    const abort = new AbortController();
    this.abort = abort;
    let idle = setTimeout(() => abort.abort(new Error('idle')), IDLE_MS);
    this.history.record('stream_open', { sub: this.id, kind: 'sse', node: this.node, conn: this.conn, lastEventId: this.lastId });
    const res = await fetch(`${this.url}/api/chain/events`, {
      headers: this.lastId === null ? {} : { 'Last-Event-ID': this.lastId },
      signal: abort.signal,
    });
    if (res.status !== 200 || !res.body) {
      clearTimeout(idle);
      return `status ${res.status}`;
    }
    const parser = createParser({
      onEvent: (e) => {
        if (e.id !== undefined) this.lastId = e.id;
        if (e.event === 'block' || e.event === 'reorg' || e.event === 'hello') this.event(e.event, fields(JSON.parse(e.data)) ?? {}, e.id);
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) {
        clearTimeout(idle);
        idle = setTimeout(() => abort.abort(new Error('idle')), IDLE_MS);
        parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      }
      return 'ended';
    } finally {
      clearTimeout(idle);
    }
  }

  private ws(): Promise<string> {
    return new Promise((resolve) => {
      const ws = new WebSocket(`${this.url.replace(/^http/, 'ws')}/api/ws`, { handshakeTimeout: 5000 });
      this.socket = ws;
      let idle = setTimeout(() => ws.terminate(), IDLE_MS);
      let why = 'closed';
      this.history.record('stream_open', { sub: this.id, kind: 'ws', node: this.node, conn: this.conn });
      // Resumed from the last block received, as the SSE subscriber does with Last-Event-ID.
      ws.on('open', () =>
        ws.send(JSON.stringify({ action: 'subscribe', channel: 'blocks', ...(this.lastId === null ? {} : { since: this.lastId }) })),
      );
      ws.on('ping', () => {
        clearTimeout(idle);
        idle = setTimeout(() => ws.terminate(), IDLE_MS);
      });
      ws.on('message', (raw) => {
        clearTimeout(idle);
        idle = setTimeout(() => ws.terminate(), IDLE_MS);
        const msg = fields(JSON.parse(String(raw)));
        const data = fields(msg?.data);
        if ((msg?.type === 'block' || msg?.type === 'reorg') && data) this.event(msg.type, data);
        if (msg?.type === 'block' && data) this.lastId = `${data.index}:${data.hash}`;
        // A reorg's new branch follows from fromHeight: a reconnect before it came resumes below it.
        if (msg?.type === 'reorg' && data && this.lastId !== null && Number(data.fromHeight) <= Number(this.lastId.split(':')[0]))
          this.lastId = String(Number(data.fromHeight) - 1);
      });
      ws.on('error', (e) => {
        why = e.message;
      });
      ws.on('close', () => {
        clearTimeout(idle);
        resolve(why);
      });
    });
  }

  /** Closes the stream and stops resubscribing. */
  stop(): void {
    this.stopped = true;
    this.abort?.abort(new Error('stopped'));
    this.socket?.terminate();
  }
}
