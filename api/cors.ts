/**
 * CORS for a public API open to every origin, as the spec asks. Hono's `cors()` reads the
 * request's headers and sets the response's through `c.res`, which makes @hono/node-server build
 * a full WHATWG Request and Response for every request; with `origin: '*'` nothing depends on the
 * request, so the one header is set by the envelope around the dispatch (api/envelope.ts) and
 * preflights are a route of their own on OPTIONS.
 */
import type { Handler } from 'hono';

/** The origin every answer allows. */
export const CORS_ORIGIN = '*';

/** The 204 answer to every preflight, naming `methods` and `headers`. */
export function preflight(methods: readonly string[], headers: readonly string[]): Handler {
  const answer = {
    'Access-Control-Allow-Origin': CORS_ORIGIN,
    'Access-Control-Allow-Methods': methods.join(','),
    'Access-Control-Allow-Headers': headers.join(','),
    Vary: 'Access-Control-Request-Headers',
  };
  return (c) => c.body(null, 204, answer);
}
