/**
 * What every answer gets, applied around Hono's dispatch instead of as `app.use('*')`
 * middleware: the open-CORS header, the Prometheus HTTP timings, the rate limits and answer
 * compression (api/compression.ts, synchronous too). Any middleware on `'*'`
 * makes Hono compose an async chain for every request, and then @hono/node-server cannot take
 * its synchronous response path (it adds a close listener and awaits the response). Around the
 * dispatch, a handler that answers synchronously (a cached block, health) stays synchronous
 * from socket to socket; the route template comes from the router's own match, recorded as
 * Hono makes it, so nothing is looked up twice.
 */
import type { Hono } from 'hono';
import type { RouterRoute } from 'hono/types';
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import type { Compressor } from './compression.ts';
import type { RateLimiter } from './rateLimit.ts';
import { gate, type NodeEnv, type Pass } from './rateLimitGate.ts';

/** The route label of a request nothing routes. */
const UNMATCHED = 'unmatched';

// biome-ignore lint/suspicious/noExplicitAny: Hono's handler type is generic over the app's env.
type Entry = [any, RouterRoute];

/** Matches the router remembers (by method and path; a route table is fixed once matched). */
export const MATCH_CACHE = 1024;
/** Longest path whose match is remembered. */
const CACHED_PATH = 256;

/**
 * Hono's default router (the same SmartRouter of RegExp and Trie routers), remembering the last
 * match: Hono matches synchronously at the start of `fetch`, so right after `fetch` returns,
 * `last` is that request's match. Recent matches are kept by method and path: the node's routes
 * defeat the RegExp router (a parameter beside a static segment), and the trie router's search
 * is the largest cost of routing a hot read. Hono only reads a match (handlers, parameters).
 */
export class MatchRecorder implements Router<Entry> {
  name = 'MatchRecorder';
  private readonly inner: Router<Entry> = new SmartRouter<Entry>({ routers: [new RegExpRouter(), new TrieRouter()] });
  private readonly cache = new Map<string, Result<Entry>>();
  last: Result<Entry> | null = null;

  add(method: string, path: string, handler: Entry): void {
    this.cache.clear();
    this.inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<Entry> {
    const key = `${method} ${path}`;
    let r = this.cache.get(key);
    if (r === undefined) {
      r = this.inner.match(method, path);
      if (path.length <= CACHED_PATH) {
        // Oldest first out: a crawl of every block height churns the cache, not memory.
        if (this.cache.size >= MATCH_CACHE) this.cache.delete(this.cache.keys().next().value as string);
        this.cache.set(key, r);
      }
    }
    this.last = r;
    return r;
  }

  /**
   * The methods some other route takes at `path` (a request for it matched nothing: 405 rather
   * than 404), as `Allow` lists them: HEAD with GET, OPTIONS (every path answers a preflight)
   * whenever there is any. Middleware (`ALL`, `/*`, `skip`) is not a route. Leaves `last` alone.
   */
  allowed(path: string, skip: ReadonlySet<unknown>): string[] {
    const methods: string[] = [];
    for (const method of ['GET', 'POST', 'DELETE']) {
      const [matched] = this.inner.match(method, path);
      if (matched.some(([[handler, route]]) => route.method === method && route.path !== '/*' && !skip.has(handler))) methods.push(method);
    }
    if (methods.includes('GET')) methods.splice(1, 0, 'HEAD');
    if (methods.length > 0) methods.push('OPTIONS');
    return methods;
  }

  /**
   * The template of the route that answers (`/api/chain/block/:index`): the first matched
   * handler that is not middleware on every method nor one of `skip` (method-scoped middleware
   * such as the body limit and the preflight answer); `UNMATCHED` when there is none.
   */
  template(skip: ReadonlySet<unknown>): string {
    const matched = this.last?.[0];
    if (!matched) return UNMATCHED;
    for (const [[handler, route]] of matched) if (route.method !== 'ALL' && !skip.has(handler)) return route.path;
    return UNMATCHED;
  }
}

/** Where the timings of answered requests go. */
interface HttpTimings {
  /** One answered request: its method, route template, status and seconds to its first byte. */
  observeHttp(method: string, route: string, status: number, seconds: number): void;
}

/** What the envelope adds around `app`'s dispatch. */
export interface EnvelopeOptions {
  /** The router `app` was built with. */
  recorder: MatchRecorder;
  /** Handlers that never name a request's route (see `MatchRecorder.template`). */
  skip: ReadonlySet<unknown>;
  /** The header set on every answer. */
  corsOrigin: string;
  /** Timings, when metrics are on. */
  timings?: HttpTimings;
  /** Rate limits, when on: admission before the dispatch (api/rateLimitGate.ts). */
  limiter?: RateLimiter;
  /** Compression of answers whose body is in memory, when on. */
  compressor?: Compressor;
}

/**
 * Replaces `app.fetch` (what @hono/node-server and `app.request` call) with the envelope around
 * it: timing outermost (refusals are counted too), then the rate limit, CORS on every answer.
 */
export function wrapDispatch(app: Hono, opts: EnvelopeOptions): void {
  const dispatch = app.fetch;
  const { recorder, skip, corsOrigin, timings, limiter, compressor } = opts;
  app.fetch = (request, env, ctx) => {
    const started = timings ? performance.now() : 0;
    // Served by @hono/node-server: headers go straight onto Node's response, merged into its writeHead.
    const outgoing = (env as NodeEnv | undefined)?.outgoing;
    const direct = outgoing !== undefined && typeof outgoing.setHeader === 'function';
    const headers: Record<string, string> = { 'Access-Control-Allow-Origin': corsOrigin };
    let pass: Pass | undefined;
    recorder.last = null;
    let res: Response | Promise<Response>;
    const path = limiter ? app.getPath(request, { env }) : '';
    const admission = limiter && gate(limiter, request, path, env as NodeEnv | undefined);
    if (admission && 'pass' in admission) {
      pass = admission.pass;
      Object.assign(headers, pass.headers);
    }
    // Refusals too: a browser must be able to read its 429.
    if (direct) for (const name in headers) outgoing.setHeader?.(name, headers[name]);
    if (admission && 'refusal' in admission) {
      // Never dispatched: labelled by the route it stood in front of.
      if (timings) recorder.match(request.method === 'HEAD' ? 'GET' : request.method, path);
      res = admission.refusal;
    } else {
      try {
        res = dispatch(request, env, ctx);
      } catch (e) {
        pass?.failed();
        throw e;
      }
    }
    const route = timings ? recorder.template(skip) : '';
    const done = (answer: Response): Response => {
      // A body left unread would be drained for 500 ms by @hono/node-server, then the socket cut
      // under a client told to keep it: say the connection closes (it does, once answered).
      if (direct && request.method !== 'GET' && request.method !== 'HEAD' && bodyLeftUnread(env as NodeEnv))
        outgoing.setHeader?.('Connection', 'close');
      let r = compressor ? compressor.answer(answer, request.method, acceptEncoding(request, env as NodeEnv | undefined)) : answer;
      // The limiter's hold first (it may refuse a streamed answer), then the headers on what goes out.
      if (pass) r = pass.answered(r, env as NodeEnv | undefined);
      if (!direct) r = withHeaders(r, headers);
      timings?.observeHttp(request.method, route, r.status, (performance.now() - started) / 1000);
      return r;
    };
    if (!(res instanceof Promise)) return done(res);
    return res.then(done, (e: unknown) => {
      pass?.failed();
      timings?.observeHttp(request.method, route, 500, (performance.now() - started) / 1000);
      throw e;
    });
  };
}

/** True when the request announced a body and the answer comes before all of it was read. */
function bodyLeftUnread(env: NodeEnv): boolean {
  const incoming = env.incoming;
  if (incoming?.readableEnded !== false) return false;
  const h = incoming.headers ?? {};
  return h['transfer-encoding'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0');
}

/** The request's Accept-Encoding (Node's parsed header when served by @hono/node-server). */
function acceptEncoding(request: Request, env: NodeEnv | undefined): string | undefined {
  const h = env?.incoming?.headers;
  if (h) {
    const v = h['accept-encoding'];
    return Array.isArray(v) ? v.join(',') : v;
  }
  return request.headers.get('accept-encoding') ?? undefined;
}

/** `r` with `headers` (outside @hono/node-server, e.g. `app.request` in tests). */
function withHeaders(r: Response, headers: Record<string, string>): Response {
  try {
    for (const name in headers) r.headers.set(name, headers[name]);
    return r;
  } catch {
    // Immutable headers (a fetched or redirect Response): copy it.
    const copy = new Response(r.body, r);
    for (const name in headers) copy.headers.set(name, headers[name]);
    return copy;
  }
}
