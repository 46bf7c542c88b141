/**
 * The OpenAPI 3.1 document of an app, derived from the route definitions (api/endpoints/):
 * every method and path the Hono app registered (walked at request time, so only routes that
 * are mounted appear, in mounting order), each with its definition's summary, parameters,
 * headers, body and answers, and the `{error, code}` shape for every error status. Operation
 * ids are the definitions' keys, unique by construction. A route without a definition still
 * appears, marked `x-undocumented` (a test fails on it), rather than silently missing.
 */
import { ENDPOINTS } from '../endpoints/index.ts';
import { type Endpoint, type Param, pathParams } from '../endpoints/endpoint.ts';
import { componentSchemas } from './components.ts';
import type { JsonSchema } from './txSchemas.ts';

/** A registered route. */
export interface RouteRef {
  method: string;
  path: string;
}

/** The key of a route: `GET /api/chain/block/:index`. */
export const routeKey = (r: RouteRef) => `${r.method} ${r.path}`;

/** Every definition by its route key. */
const BY_ROUTE: ReadonlyMap<string, [string, Endpoint]> = new Map(
  Object.entries(ENDPOINTS).map(([id, e]) => [routeKey(e), [id, e]] as const),
);

const STATUS_TEXT: Record<number, string> = {
  416: 'byte range outside the content (RANGE_NOT_SATISFIABLE), with Content-Range: bytes */size',
  400: 'bad input (INVALID_PARAMS, INVALID_JSON, HASH_MISMATCH, INSUFFICIENT_BALANCE, ...)',
  401: 'missing or unknown key or token (UNAUTHORIZED)',
  403: 'fork not active or IP banned (FORK_NOT_ACTIVE, IP_BANNED)',
  404: 'not found (NOT_FOUND)',
  409: 'duplicate or stale (DUPLICATE_TX, STALE_NONCE)',
  413: 'body too large (PAYLOAD_TOO_LARGE)',
  422: 'refused by the rules (VALIDATION_FAILED, INVALID_SIGNATURE, NONCE_GAP)',
  429: 'rate limited (RATE_LIMITED; see Retry-After)',
  500: 'internal error (INTERNAL)',
  503: 'syncing or mempool full (SYNCING, MEMPOOL_FULL)',
};

/** `/api/chain/block/:index` as OpenAPI writes it: `/api/chain/block/{index}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function param(name: string, where: 'path' | 'query' | 'header', p: Param): JsonSchema {
  const required = where === 'path' ? true : (p.required ?? false);
  return {
    name,
    in: where,
    required,
    description: p.description,
    schema: p.schema,
    ...(p.example === undefined ? {} : { example: p.example }),
  };
}

/** A body's media type: its schema, and its example when it has one. */
const body = (b: NonNullable<Endpoint['body']>): JsonSchema =>
  b.example === undefined ? { schema: b.schema } : { schema: b.schema, example: b.example };

function operation(r: RouteRef, id: string | undefined, doc: Endpoint | undefined): JsonSchema {
  const names = pathParams(r.path);
  const parameters = [
    ...names.map((n) => param(n, 'path', doc?.params?.[n] ?? { schema: { type: 'string' }, description: n })),
    ...Object.entries(doc?.query ?? {}).map(([n, p]) => param(n, 'query', p)),
    ...Object.entries(doc?.headers ?? {}).map(([n, p]) => param(n, 'header', p)),
  ];
  const ok = doc?.ok ?? {};
  const contentType = ok.contentType ?? 'application/json';
  const okContent = ok.schema
    ? { schema: ok.schema }
    : contentType === 'application/json'
      ? { schema: {} }
      : { schema: { type: 'string' } };
  const responses: Record<string, JsonSchema> = {
    [String(ok.status ?? 200)]: { description: ok.description ?? doc?.summary ?? 'the answer', content: { [contentType]: okContent } },
  };
  for (const status of new Set([400, 429, ...(doc?.errors ?? [])]).values())
    responses[String(status)] = {
      description: STATUS_TEXT[status] ?? 'error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  return {
    // Undocumented routes get an id from their key (the test that fails on them names it).
    operationId: id ?? `undocumented ${routeKey(r)}`,
    summary: doc?.summary ?? `${r.method} ${r.path}`,
    ...(doc?.description ? { description: doc.description } : {}),
    tags: [doc?.tag ?? 'undocumented'],
    ...(parameters.length ? { parameters } : {}),
    ...(doc?.body
      ? { requestBody: { required: true, description: doc.body.description, content: { 'application/json': body(doc.body) } } }
      : {}),
    responses,
    ...(doc ? {} : { 'x-undocumented': true }),
  };
}

/**
 * True for an endpoint; middleware is not one: on every method (ALL), or on every path (`/*`:
 * the body limit on writes, the preflight answer).
 */
export const isEndpoint = (r: RouteRef): boolean => r.method !== 'ALL' && r.path !== '/*';

/** The document for these routes (middleware is not a route: see `isEndpoint`). */
export function buildOpenApi(routes: readonly RouteRef[], info: { version: string; serverUrl?: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const seen = new Set<string>();
  for (const r of routes) {
    if (!isEndpoint(r) || seen.has(routeKey(r))) continue;
    seen.add(routeKey(r));
    const p = openApiPath(r.path);
    paths[p] ??= {};
    const [id, doc] = BY_ROUTE.get(routeKey(r)) ?? [undefined, undefined];
    paths[p][r.method.toLowerCase()] = operation(r, id, doc);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Ombra node API',
      version: info.version,
      description:
        'The HTTP API of an Ombra node. JSON everywhere; big integers are decimal strings of micro-units (1 OMBRA = 1,000,000); every error is `{error, code}`. Transaction schemas (`Tx_*`) come from the protocol code: properties in canonical order, with `x-field-order` the order the hash covers.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    tags: [...new Set(Object.values(ENDPOINTS).map((d) => d.tag))].map((name) => ({ name })),
    paths,
    components: { schemas: componentSchemas() },
  };
}
