/**
 * The rate limiter at the HTTP door, taken by the envelope around the app's dispatch
 * (api/envelope.ts) rather than as `app.use('*')` middleware, so a limited node still answers a
 * synchronous handler synchronously. Before the dispatch: the admission (refusals answered with
 * `{error, code}` and never dispatched) and the X-RateLimit-* headers, set on Node's response
 * (merged into its writeHead) so every answer carries them, 404s, 413s and preflights included.
 * After: the concurrency slot is released, or for a stream held until it ends.
 */
import type { IncomingMessage } from 'node:http';
import { clientIpFrom, PROXY_TOKEN_HEADER, proxyItself } from './clientIp.ts';
import type { Admission, RateLimiter } from './rateLimit.ts';
import { isStreamed } from './streamedAnswer.ts';

/** Node's request and response as @hono/node-server passes them (absent under `app.request`). */
export interface NodeEnv {
  incoming?: Partial<Pick<IncomingMessage, 'headers' | 'readableEnded'>> & {
    socket?: { remoteAddress?: string; once?(ev: string, f: () => void): void; destroyed?: boolean };
  };
  outgoing?: { setHeader?(name: string, value: string): void; once?(ev: string, f: () => void): void };
}

/** A request the limiter let through: its headers, and what to do once it is answered. */
export interface Pass {
  headers: Record<string, string>;
  /** Ends the request's hold on its caller's concurrency (a stream's: when it ends). */
  answered(res: Response, env: NodeEnv | undefined): Response;
  /** The dispatch failed: the slot is free again. */
  failed(): void;
}

/** The limiter's decision on one request: a refusal to answer as is, or a pass. */
export function gate(
  limiter: RateLimiter,
  request: Request,
  path: string,
  env: NodeEnv | undefined,
): { refusal: Response } | { pass: Pass } {
  const o = limiter.opts;
  const now = o.now();
  // Node's parsed headers when served by @hono/node-server (cheaper than building a Request's).
  const headers = env?.incoming?.headers;
  const header = (name: string) => (headers ? headers[name] : (request.headers.get(name) ?? undefined));
  const key = header('x-api-key');
  const [xff, remote, proof] = [header('x-forwarded-for'), env?.incoming?.socket?.remoteAddress, header(PROXY_TOKEN_HEADER)];
  const ip = clientIpFrom(xff, remote, limiter.proxies, proof);
  const self = proxyItself(xff, remote, limiter.proxies, proof);
  const d = limiter.admit(ip, Array.isArray(key) ? key[0] : key, path, now, self);
  const limits = limitHeaders(limiter, d, now);
  if (!d.ok) return { refusal: refusalOf(d, limits) };
  const { stream, release, asStream } = d;
  return {
    pass: {
      headers: limits,
      answered: (res, e) => {
        // A streamed answer off the stream paths (a block range, stored content, a checkpoint
        // file) is a stream too: it takes a stream slot, or is refused when all are open (a
        // limiter that only bans counts nothing).
        if (!stream && d.limit && isStreamed(res)) {
          const refused = asStream();
          if (refused && !refused.ok) {
            release();
            void res.body?.cancel().catch(() => undefined);
            // The X-RateLimit-* and CORS headers are the envelope's to add, as on any answer.
            return refusalOf(refused, {});
          }
          return holdWhileOpen(res, e, release);
        }
        if (!stream) {
          release();
          return res;
        }
        return holdWhileOpen(res, e, release);
      },
      failed: release,
    },
  };
}

/** The `{error, code}` answer of a refusal, with `headers` (the X-RateLimit-* ones) and Retry-After. */
function refusalOf(d: Extract<Admission, { ok: false }>, headers: Record<string, string>): Response {
  const refused: Record<string, string> = { 'Content-Type': 'application/json', ...headers };
  if (d.retryAfterMs !== undefined) refused['Retry-After'] = String(Math.max(1, Math.ceil(d.retryAfterMs / 1000)));
  return new Response(JSON.stringify({ error: d.error, code: d.code }), { status: d.status, headers: refused });
}

/**
 * The X-RateLimit-* headers of an admission decision: the caller's quota, what is left of it
 * and when its window ends (Unix seconds). None when the limiter only bans.
 */
export function limitHeaders(limiter: RateLimiter, d: Admission, now = limiter.opts.now()): Record<string, string> {
  if (!d.limit || !limiter.opts.enforceLimits) return {};
  const b = d.bucket;
  return {
    'X-RateLimit-Limit': String(d.limit.perMinute),
    'X-RateLimit-Remaining': String(b ? Math.max(0, d.limit.perMinute - b.count) : d.limit.perMinute),
    'X-RateLimit-Reset': String(Math.ceil((b ? b.reset : now + limiter.opts.windowMs) / 1000)),
  };
}

/** Keeps a stream's slot until its body ends, is cancelled, or its socket closes. */
function holdWhileOpen(res: Response, env: NodeEnv | undefined, release: () => void): Response {
  const s = env?.incoming?.socket;
  const socket = s && typeof s.once === 'function' ? s : undefined;
  if (socket) {
    if (socket.destroyed) {
      release();
      return res;
    }
    socket.once?.('close', release);
  }
  // A stream written straight onto Node's response ends with it (the connection may live on).
  const outgoing = env?.outgoing;
  if (outgoing && typeof outgoing.once === 'function') outgoing.once('close', release);
  const body = res.body;
  if (!body) {
    if (!socket) release();
    return res;
  }
  const reader = body.getReader();
  const wrapped = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          ctrl.close();
        } else ctrl.enqueue(value);
      } catch (e) {
        release();
        ctrl.error(e);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(wrapped, { status: res.status, statusText: res.statusText, headers: res.headers });
}
