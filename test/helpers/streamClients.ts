/**
 * Real clients for the live streams: an SSE client on fetch + eventsource-parser, a WebSocket
 * client on `ws`, and a test chain served over real HTTP with the WebSocket endpoints attached.
 */
import { serve, type ServerType } from '@hono/node-server';
import { createParser } from 'eventsource-parser';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { createApp } from '../../api/app.ts';
import { StreamHub } from '../../api/streams/streamHub.ts';
import type { StreamOptions } from '../../api/streams/streamOptions.ts';
import { attachWebSockets, type WebSockets } from '../../api/streams/wsServer.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import type { BlockEvent } from '../../projections/events.ts';
import { DEV_KEYS, openTestChain, testApiDeps, type TestChain } from './testChain.ts';
import { waitFor } from './nodeProcess.ts';

/** A test chain behind a real HTTP server. */
export interface ServedChain {
  chain: TestChain;
  hub: StreamHub;
  sockets: WebSockets;
  server: Server;
  url: string;
  wsUrl: string;
}

/** Opens a test chain, serves it on a loopback port with `options`, runs `fn`, always stops everything. */
export async function withServedChain<T>(fn: (s: ServedChain) => Promise<T>, options: Partial<StreamOptions> = {}): Promise<T> {
  const chain = await openTestChain();
  const hub = new StreamHub(chain.node.streamPorts(), options);
  const app = createApp(testApiDeps(chain.node, { streams: hub }));
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const sockets = attachWebSockets(server as Server, hub);
  const port = (server.address() as AddressInfo).port;
  try {
    return await fn({ chain, hub, sockets, server: server as Server, url: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}` });
  } finally {
    await sockets.close();
    await new Promise<void>((r) => {
      server.close(() => r());
      (server as Server).closeAllConnections();
    });
    await chain.destroy();
  }
}

/** One received SSE message. */
export interface SseMessage {
  event: string;
  id?: string;
  data: any;
}

/** An SSE client that records every message. */
export class SseClient {
  readonly messages: SseMessage[] = [];
  retry: number | undefined;
  status = 0;
  ended = false;
  private readonly ctl = new AbortController();
  done: Promise<void> = Promise.resolve();

  /** Connects to `url` (with e.g. Last-Event-ID) and starts reading in the background. */
  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const c = new SseClient();
    const res = await fetch(url, { headers: { Accept: 'text/event-stream', ...headers }, signal: c.ctl.signal });
    c.status = res.status;
    if (!res.ok) {
      c.messages.push({ event: 'http-error', data: await res.json() });
      c.ended = true;
      return c;
    }
    const parser = createParser({
      onEvent: (m) => c.messages.push({ event: m.event ?? 'message', id: m.id, data: JSON.parse(m.data) }),
      onRetry: (ms) => (c.retry = ms),
    });
    const decoder = new TextDecoder();
    c.done = (async () => {
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
      } catch {
        // aborted
      }
      c.ended = true;
    })();
    return c;
  }

  /** Messages named `event`. */
  named(event: string): SseMessage[] {
    return this.messages.filter((m) => m.event === event);
  }

  /** Waits until `pred` holds for some message and returns it. */
  waitFor(pred: (m: SseMessage) => boolean, timeoutMs = 10_000): Promise<SseMessage> {
    return waitFor(async () => this.messages.find(pred), timeoutMs, 10);
  }

  /** Disconnects (the server sees the socket close). */
  close(): Promise<void> {
    this.ctl.abort();
    return this.done;
  }
}

/** A WebSocket client that records every JSON message. */
export class WsClient {
  readonly ws: WebSocket;
  readonly messages: any[] = [];
  closeEvent: { code: number; reason: string } | null = null;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (d) => this.messages.push(JSON.parse(d.toString())));
    ws.on('close', (code, reason) => (this.closeEvent = { code, reason: reason.toString() }));
    ws.on('error', () => undefined);
  }

  /** Connects and waits until open. */
  static async open(url: string, opts: WebSocket.ClientOptions = {}): Promise<WsClient> {
    const ws = new WebSocket(url, opts);
    const c = new WsClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return c;
  }

  /** Sends a JSON value (or a raw string). */
  send(msg: unknown): void {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  /** Waits for a message matching `pred` that arrived after index `after`. */
  waitFor(pred: (m: any) => boolean, after = 0, timeoutMs = 10_000): Promise<any> {
    return waitFor(async () => this.messages.slice(after).find(pred), timeoutMs, 10);
  }

  /** Sends `msg` and waits for the first message after it that matches `pred`. */
  async request(msg: unknown, pred: (m: any) => boolean = () => true): Promise<any> {
    const at = this.messages.length;
    this.send(msg);
    return this.waitFor(pred, at);
  }

  /** Waits until the connection is closed and returns how. */
  closed(timeoutMs = 10_000): Promise<{ code: number; reason: string }> {
    return waitFor(async () => this.closeEvent ?? undefined, timeoutMs, 10);
  }

  close(): void {
    this.ws.terminate();
  }
}

/** A block event for the head block carrying `txs` (the runner ignores heights it already has). */
export function syntheticBlock(chain: TestChain, txs: Record<string, unknown>[]): BlockEvent {
  const head = chain.node.head();
  const transactions = txs.map((t, i) => ({
    from: DEV_KEYS[3].address,
    nonce: i,
    timestamp: 1_700_000_000_000 + i,
    hash: `${i}`.padStart(64, 'c'),
    ...t,
  })) as unknown as SignedTx[];
  return {
    type: 'block',
    block: { ...head, transactions },
    txs: transactions,
    diff: { accounts: new Map(), miners: new Map(), supply: chain.node.state().supply } as never,
    balances: [],
    emitted: 0n,
    replay: false,
  };
}
