/**
 * Live chain events (GET /api/chain/events) with resume: eventsource-parser over a streaming
 * fetch, so it runs the same in Node and in a browser. After a drop it reconnects after 1, 2,
 * 4, 8, 16 s, then every 30 s, sending Last-Event-ID, so no block is missed or delivered twice;
 * 15 s without a byte (the node pings every 2 s) counts as a dead connection.
 */
import { createParser } from 'eventsource-parser';
import type { HttpTransport } from './http.ts';
import type { ChainEvent } from './types.ts';

/** The wait before reconnect attempt `n` (0-based): 1, 2, 4, 8, 16 s, then 30 s. */
export function backoffMs(n: number): number {
  return Math.min(1000 * 2 ** n, 30_000);
}

/** What to follow and where to report. */
export interface SubscribeOptions {
  /** First height wanted (replayed from the node's log), then live. Default: live only. */
  fromHeight?: number;
  /** Ends the subscription. */
  signal?: AbortSignal;
  onEvent(e: ChainEvent): void;
  /** Connection notices: connected, disconnected and when it retries. */
  onNotice?(line: string): void;
  /** Idle deadline in ms (default 15 s). */
  idleMs?: number;
  /** Waits between attempts (default `backoffMs`). */
  backoff?: (attempt: number) => number;
}

/** How the subscription ended: 0 when stopped, 1 when the node refused the resume point (400/404). */
export type SubscribeEnd = 0 | 1;

/** Follows the chain's events until `signal` aborts or the node refuses the request. */
export async function subscribe(http: HttpTransport, o: SubscribeOptions): Promise<SubscribeEnd> {
  const signal = o.signal ?? new AbortController().signal;
  const notice = o.onNotice ?? (() => undefined);
  const backoff = o.backoff ?? backoffMs;
  let lastId: string | undefined;
  let failures = 0;
  while (!signal.aborted) {
    const outcome = await connectOnce(http, o, signal, lastId, (id) => (lastId = id));
    if (outcome.fatal) {
      notice(outcome.fatal);
      return 1;
    }
    if (signal.aborted) break;
    if (outcome.connected) failures = 0;
    const wait = backoff(failures++);
    notice(`disconnected; reconnecting in ${wait / 1000} s${lastId === undefined ? '' : ` (resuming after ${lastId})`}`);
    await sleep(wait, signal);
  }
  return 0;
}

async function connectOnce(
  http: HttpTransport,
  o: SubscribeOptions,
  outer: AbortSignal,
  lastId: string | undefined,
  setId: (id: string) => void,
): Promise<{ fatal?: string; connected: boolean }> {
  const ctl = new AbortController();
  const stop = () => ctl.abort();
  outer.addEventListener('abort', stop, { once: true });
  let idle: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(stop, o.idleMs ?? 15_000);
  };
  let connected = false;
  try {
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    if (lastId !== undefined) headers['Last-Event-ID'] = lastId;
    const query = lastId === undefined && o.fromHeight !== undefined ? { fromHeight: o.fromHeight } : undefined;
    touch();
    const res = await http.raw('/api/chain/events', { headers, signal: ctl.signal, query });
    if (res.status === 400 || res.status === 404) {
      const body = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
      return { connected, fatal: `refused: ${res.status} ${body.code ?? ''} ${body.error ?? ''}`.trim() };
    }
    if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
    const parser = createParser({
      onEvent: (m) => {
        if (m.id !== undefined) setId(m.id);
        let data: unknown = m.data;
        try {
          data = JSON.parse(m.data);
        } catch {
          // not JSON: delivered as text
        }
        const event = m.event ?? 'message';
        if (event === 'hello') {
          connected = true;
          o.onNotice?.(`connected to ${http.base}`);
        }
        if (event === 'error')
          o.onNotice?.(`server: ${(data as { code?: string }).code ?? ''} ${(data as { error?: string }).error ?? ''}`);
        o.onEvent({ event, id: m.id, data });
      },
    });
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      touch();
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch {
    // refused, reset, aborted or idle: the caller decides whether to retry
  } finally {
    clearTimeout(idle);
    outer.removeEventListener('abort', stop);
    ctl.abort();
  }
  return { connected };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
