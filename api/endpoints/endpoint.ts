/**
 * One definition per route: method, path, parameters (each with its JSON Schema, its meaning
 * and the parser that enforces it), body, answers and error statuses. The handler's input
 * parsing (`resource`), the OpenAPI document (api/openapi/document.ts), the client's route table
 * (client/routes.ts) and docs/api.md are all derived from these, so they cannot drift apart.
 */
import { type Context, Hono, type MiddlewareHandler, type TypedResponse } from 'hono';
import type { ClientErrorStatusCode, ContentfulStatusCode, ServerErrorStatusCode } from 'hono/utils/http-status';
import { ChainError } from '../../core/errors.ts';
import type { JsonSchema, Static } from '../../queries/schemas/shapes.ts';
import { readOptionalJson } from '../body.ts';

/**
 * One path, query or header parameter. `parse` enforces what `schema` says (both come from
 * the same builder in api/endpoints/params.ts, so a bound is written once); without it the
 * handler gets the raw string.
 */
export interface Param<T = unknown> {
  schema: JsonSchema;
  description: string;
  required?: boolean;
  parse?: (raw: string | undefined) => T;
  /** The handler calls `parse` itself, only on the branch that reads the value. */
  lazy?: boolean;
  /** A value `schema` and `parse` accept (as the document's `example`; a number for an integer schema). */
  example?: string | number;
}

/** A parameter whose definition parses it. */
export type Checked<T> = Param<T> & { parse: (raw: string | undefined) => T };

/** A successful answer. */
interface Answer {
  /** Default 200. */
  status?: number;
  /** Default application/json. */
  contentType?: string;
  /** Other content types the route answers with (static files: by their extension). */
  otherTypes?: string[];
  /** A browser (`Accept: text/html`) gets an HTML page instead of the JSON (the route's description says so). */
  page?: boolean;
  /** The body's schema (JSON answers); other content types describe their body in `description`. */
  schema?: JsonSchema;
  description?: string;
}

/** Everything about one route. */
export interface Endpoint {
  method: 'GET' | 'POST' | 'DELETE';
  /** Hono's template: `/api/chain/block/:index`, `/web/:alias/:path{.*}` (a parameter with its own pattern: `plainPath`). */
  path: string;
  summary: string;
  tag: string;
  description?: string;
  /** Path parameters by name (every `:name` of `path`), parsed in this order. */
  params?: Record<string, Param>;
  /** Query parameters, parsed after the path's, in this order. */
  query?: Record<string, Param>;
  /** Documented request headers (read by the handler). */
  headers?: Record<string, Param>;
  /** A JSON request body; with `parse`, the router reads it (empty is `undefined`) and hands the handler what `parse` returns. */
  body?: { schema: JsonSchema; description: string; parse?: (body: unknown) => unknown; example?: unknown };
  ok: Answer;
  /** Error statuses this route answers with `{error, code}` (400 and 429 are added to every route). */
  errors?: number[];
}

/** Endpoints by operation id. */
type Endpoints = Record<string, Endpoint>;

/** Keeps the literal types of a group of definitions (for typed inputs and the client). */
export const endpoints = <const T extends Endpoints>(defs: T): T => defs;

type ValueOf<P> = P extends { parse: (raw: string | undefined) => infer T } ? T : string;
type Parsed<P, Missing> =
  P extends Record<string, Param>
    ? {
        [K in keyof P]: P[K] extends { lazy: true } ? string | Missing : P[K] extends { parse: unknown } ? ValueOf<P[K]> : string | Missing;
      }
    : Record<never, never>;

/** What a handler receives: path parameters, query values and the body, parsed by their definitions. */
interface Input<E extends Endpoint> {
  params: Parsed<E['params'], never>;
  query: Parsed<E['query'], undefined>;
  body: E['body'] extends { parse: (body: unknown) => infer T } ? T : undefined;
}

/**
 * The first of `names` that the query string of `url` gives more than once (`?limit=1&limit=2`),
 * keys percent-decoded as Hono decodes them; undefined when none is repeated.
 */
function repeatedQueryParam(url: string, names: ReadonlySet<string>): string | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  const hash = url.indexOf('#', q);
  const seen = new Set<string>();
  for (const pair of url.slice(q + 1, hash < 0 ? undefined : hash).split('&')) {
    const eq = pair.indexOf('=');
    let key = eq < 0 ? pair : pair.slice(0, eq);
    if (/[%+]/.test(key)) {
      try {
        key = decodeURIComponent(key.replaceAll('+', ' '));
      } catch {
        continue;
      }
    }
    if (!names.has(key)) continue;
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return undefined;
}

/** Parses path parameters, then query values, in definition order; the first bad one throws INVALID_PARAMS. */
function inputParser<E extends Endpoint>(e: E): ((c: Context) => Input<E>) | null {
  const path = Object.entries(e.params ?? {});
  const query = Object.entries(e.query ?? {});
  if (path.length === 0 && query.length === 0) return null;
  const names = new Set(query.map(([name]) => name));
  return (c) => {
    // Every query parameter is one value: a second one is refused, not silently dropped.
    const repeated = names.size > 0 ? repeatedQueryParam(c.req.url, names) : undefined;
    if (repeated !== undefined) throw new ChainError('INVALID_PARAMS', `query parameter ${repeated} is given more than once`);
    const params: Record<string, unknown> = {};
    for (const [name, p] of path) {
      const raw = c.req.param(name);
      params[name] = p.parse && !p.lazy ? p.parse(raw) : raw;
    }
    const values: Record<string, unknown> = {};
    for (const [name, p] of query) {
      const raw = c.req.query(name);
      values[name] = p.parse && !p.lazy ? p.parse(raw) : raw;
    }
    return { params, query: values, body: undefined } as Input<E>;
  };
}

const NO_INPUT = Object.freeze({ params: Object.freeze({}), query: Object.freeze({}), body: undefined });

/** The JSON answer of `E`: the static type of its `ok` schema. */
export type AnswerOf<E extends Endpoint> = E['ok'] extends { schema: infer S } ? Static<S> : unknown;

/** Whether `E` answers JSON (no other content type, and a schema). */
export type AnswersJson<E extends Endpoint> = E['ok'] extends { contentType: infer T }
  ? T extends 'application/json'
    ? true
    : false
  : E['ok'] extends { schema: JsonSchema }
    ? true
    : false;

/**
 * What a handler of `E` answers. A JSON route: a response typed by its answer (`c.json(x)`, or
 * `jsonAnswer` of JSON encoded as that type), so an answer of another shape fails `tsc`; at an
 * error status given explicitly (`c.json(x, 503)`) the body is the route's description's. Other
 * routes (text, pages, files, CSV, streams of events) have no schema to check a body against:
 * any response of their own making (`c.body`, `c.text`, a stream), but not a JSON one at a
 * success status, which would contradict the content type they declare.
 */
type Reply<E extends Endpoint> =
  AnswersJson<E> extends true
    ? Response &
        (
          | TypedResponse<AnswerOf<E>, ContentfulStatusCode, 'json'>
          | TypedResponse<unknown, ClientErrorStatusCode | ServerErrorStatusCode, 'json'>
          | (E['ok'] extends { otherTypes: readonly string[] } | { page: true }
              ? TypedResponse<string, ContentfulStatusCode, 'body'>
              : never)
        )
    : Response & (NotJson | TypedResponse<unknown, ClientErrorStatusCode | ServerErrorStatusCode, 'json'> | SuccessAnchor);

/** A response not made by `c.json` (one Hono types as text, a body or a redirect, or untyped). */
type NotJson = { _format?: 'body' | 'text' | 'redirect' };

/** Matches no response (body `never`): so `c.json(x)` without a status infers a success status, not an error one. */
type SuccessAnchor = TypedResponse<never, ContentfulStatusCode, 'json'>;

/** A route's handler: its input already parsed. Synchronous answers stay synchronous (see api/envelope.ts). */
export type Handler<E extends Endpoint> = (c: Context, input: Input<E>) => Reply<E> | Promise<Reply<E>>;

/** One handler per definition of the group `G`, under the same operation ids. */
export type Handlers<G extends Endpoints> = { [K in keyof G]: Handler<G[K]> };

/** Middleware some routes of `G` run ahead of their handler (e.g. a smaller body limit). */
type Before<G extends Endpoints> = { [K in keyof G]?: MiddlewareHandler[] };

/** Where a resource's routes go: `app` (with its middleware already on, e.g. a fork gate), and per-route middleware. */
interface ResourceOptions<G extends Endpoints> {
  app?: Hono;
  before?: Before<G>;
}

/**
 * The router of one resource: every definition of `group` served by its handler, in the group's
 * order (the matching order). A definition without a handler, or a handler without a definition,
 * fails `tsc`; so does a handler whose JSON answer is not its definition's (see `Reply`).
 */
export function resource<G extends Endpoints, H extends Handlers<G>>(
  group: G,
  handlers: H & Record<Exclude<keyof H, keyof G>, never>,
  { app = new Hono(), before = {} }: ResourceOptions<G> = {},
): Hono {
  // `for in` over a type parameter keeps each id typed as a key of the group.
  for (const id in group) route(app, group[id], handlers[id], before[id] ?? []);
  return app;
}

/** Registers `e` on `app` at its own method and path, `before` (e.g. a body limit) ahead of the handler. */
function route<E extends Endpoint>(app: Hono, e: E, handler: Handler<E>, before: MiddlewareHandler[]): void {
  const parse = inputParser(e);
  const parseBody = e.body?.parse;
  const inputOf = parse ?? (() => NO_INPUT as Input<E>);
  // A route without parameters pays nothing per request (GET /api/health is polled hard).
  const run = parseBody
    ? async (c: Context) => {
        const input = inputOf(c);
        return handler(c, { ...input, body: parseBody(await readOptionalJson(c)) } as Input<E>);
      }
    : (c: Context) => handler(c, inputOf(c));
  // Hono's overloads do not take a spread; the handlers are plain (c, next) functions.
  (app.on as (m: string, p: string, ...h: unknown[]) => void)(e.method, e.path, ...before, run);
}

/** A path template without its parameters' patterns: `/web/:alias/:path{.*}` is `/web/:alias/:path`. */
export const plainPath = (path: string): string => path.replace(/(:[A-Za-z0-9_]+)\{[^}]*\}/g, '$1');

/** The `:name`s of a path template. */
export const pathParams = (path: string): string[] => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);

/**
 * Every definition of every group under its operation id. A second definition of an id, or of
 * a method and path, throws when the module loads: ids are unique by construction.
 */
export function catalog(...groups: Endpoints[]): Endpoints {
  const out: Endpoints = {};
  const routes = new Set<string>();
  for (const group of groups)
    for (const [id, e] of Object.entries(group)) {
      if (out[id]) throw new Error(`operation id ${id} is defined twice`);
      if (routes.has(`${e.method} ${e.path}`)) throw new Error(`${e.method} ${e.path} is defined twice`);
      const declared = Object.keys(e.params ?? {});
      if (pathParams(e.path).join() !== declared.join()) throw new Error(`${id}: path parameters ${pathParams(e.path)} but ${declared}`);
      out[id] = e;
      routes.add(`${e.method} ${e.path}`);
    }
  return out;
}
