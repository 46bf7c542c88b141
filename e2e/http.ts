/** The runner's HTTP calls to nodes: JSON in and out, bounded in time, never throwing for a status. */
import type { AddressInfo } from 'node:net';
import { errorCode, errorMessage } from '../core/errors.ts';
import { fields } from './history.ts';

/** A node's answer: the HTTP status (0 when unreachable) and the parsed body. */
export interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  /** Transport failure (refused, reset, timeout) when status is 0. */
  error?: string;
}

/** Calls `url` with an optional JSON body; never rejects. */
export async function call(url: string, opts: { method?: string; body?: unknown; timeoutMs?: number } = {}): Promise<Answer> {
  try {
    const res = await fetch(url, {
      method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
      headers: opts.body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
    });
    const text = await res.text();
    let body: Record<string, unknown> | null = null;
    try {
      body = fields(JSON.parse(text)) ?? { text: text.slice(0, 500) };
    } catch {
      body = { text: text.slice(0, 500) };
    }
    return { status: res.status, body };
  } catch (e) {
    const cause = e instanceof Error ? e.cause : undefined;
    return { status: 0, body: null, error: errorCode(cause) ?? (e instanceof Error ? e.name : errorMessage(e)) };
  }
}

/** The port a listening server is bound to. */
export function portOf(server: { address(): AddressInfo | string | null }): number {
  const a = server.address();
  if (a === null || typeof a === 'string') throw new Error('the server is not listening on a TCP port');
  return a.port;
}

/** Sleeps `ms`. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
