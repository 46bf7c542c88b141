/** The runner's HTTP calls to nodes: JSON in and out, bounded in time, never throwing for a status. */
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

/** Sleeps `ms`. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
