/**
 * CORS for a public API open to every origin, as the spec asks. Hono's `cors()` reads the
 * request's headers and sets the response's through `c.res`, which makes @hono/node-server build
 * a full WHATWG Request and Response for every request; with `origin: '*'` nothing depends on the
 * request, so this sets the one header straight onto Node's response and answers preflights.
 */
import type { MiddlewareHandler } from 'hono';

/** `Access-Control-Allow-Origin: *` on every answer; 204 preflights naming `methods` and `headers`. */
export function openCors(methods: readonly string[], headers: readonly string[]): MiddlewareHandler {
  const preflight = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': methods.join(','),
    'Access-Control-Allow-Headers': headers.join(','),
    Vary: 'Access-Control-Request-Headers',
  };
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return c.body(null, 204, preflight);
    const outgoing = (c.env as { outgoing?: { setHeader?(n: string, v: string): void } } | undefined)?.outgoing;
    if (outgoing && typeof outgoing.setHeader === 'function') outgoing.setHeader('Access-Control-Allow-Origin', '*');
    else c.header('Access-Control-Allow-Origin', '*');
    await next();
  };
}
