/**
 * The OpenAPI 3.1 document of an app, derived from the route definitions (api/endpoints/):
 * every method and path the Hono app registered (walked at request time, so only routes that
 * are mounted appear, in mounting order), each with its definition's summary, parameters,
 * headers, body and answers, and the `{error, code}` shape for every error status. Operation
 * ids are the definitions' keys, unique by construction. A route without a definition still
 * appears, marked `x-undocumented` (a test fails on it), rather than silently missing.
 */
import { ENDPOINTS } from '../endpoints/index.ts';
import { type Endpoint, type Param, pathParams, plainPath } from '../endpoints/endpoint.ts';
import { ANYONE, SECURITY_HEADERS, SECURITY_SCHEMES, securityOf, TAG_DESCRIPTIONS } from './access.ts';
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
  401: 'a missing, malformed, unknown or revoked key or token (UNAUTHORIZED)',
  403: 'fork not active, IP banned, or user content asked as script by this origin (FORK_NOT_ACTIVE, IP_BANNED, USER_CONTENT_AS_SCRIPT)',
  404: 'not found (NOT_FOUND)',
  409: 'duplicate or stale (DUPLICATE_TX, STALE_NONCE)',
  413: 'body too large (PAYLOAD_TOO_LARGE)',
  415: 'body not sent as JSON (UNSUPPORTED_MEDIA_TYPE)',
  422: 'refused by the rules (VALIDATION_FAILED, INVALID_SIGNATURE, NONCE_GAP)',
  429: 'rate limited (RATE_LIMITED; see Retry-After)',
  500: 'internal error (INTERNAL)',
  503: 'syncing or behind, mempool full, no peer to gossip to, or the data dir full (SYNCING, MEMPOOL_FULL, NO_PEERS, DISK_FULL)',
};

/**
 * Statuses every route may answer: bad input, a key presented that is not good (where rate
 * limits are on), a banned IP, and the rate limit.
 */
const EVERY_ROUTE = [400, 401, 403, 429];

/** `/api/chain/block/:index` as OpenAPI writes it: `/api/chain/block/{index}` (`/web/:alias/:path{.*}`: `/web/{alias}/{path}`). */
export function openApiPath(path: string): string {
  return plainPath(path).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function param(name: string, where: 'path' | 'query' | 'header', p: Param): Record<string, unknown> {
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

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const header = (description: string, required = true): Record<string, unknown> => ({ description, required, schema: { type: 'string' } });
const ETAG = header('the quoted SHA-256 of the content');

/** The media types of a successful answer, each with the body's schema. */
function okContent(ok: Endpoint['ok']): Record<string, JsonSchema> {
  const contentType = ok.contentType ?? 'application/json';
  const schema = ok.schema ?? (contentType === 'application/json' ? {} : { type: 'string' });
  const content: Record<string, JsonSchema> = { [contentType]: { schema } };
  for (const type of ok.otherTypes ?? []) content[type] = { schema: { type: 'string' } };
  return content;
}

/**
 * The answers of a route that serves stored content through api/contentResponse.ts (its
 * definition takes that module's request headers, CONTENT_HEADERS, among them `Range`): the
 * whole content with its ETag, one byte range (206), a copy still good (304), and a range outside
 * the content (416 with `Content-Range: bytes *\/size`).
 */
function storedContentAnswers(ok: JsonSchema, content: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return {
    200: { ...ok, headers: { ETag: ETAG, 'Accept-Ranges': header('`bytes`: single byte ranges are served') } },
    206: {
      description: 'the byte range the `Range` header asked for (and `If-Range`, when sent, names the current ETag)',
      headers: { 'Content-Range': header('`bytes first-last/size`'), ETag: ETAG },
      content,
    },
    304: { description: '`If-None-Match` names the current ETag: the copy held is still good; no body', headers: { ETag: ETAG } },
    416: {
      description: STATUS_TEXT[416],
      headers: { 'Content-Range': header('`bytes */size`') },
      content: ERROR_CONTENT,
    },
  };
}

function operation(r: RouteRef, id: string | undefined, doc: Endpoint | undefined): JsonSchema {
  const names = pathParams(r.path);
  const headers = Object.entries(doc?.headers ?? {}).filter(([n]) => !SECURITY_HEADERS[n]);
  const parameters = [
    ...names.map((n) => param(n, 'path', doc?.params?.[n] ?? { schema: { type: 'string' }, description: n })),
    ...Object.entries(doc?.query ?? {}).map(([n, p]) => param(n, 'query', p)),
    ...headers.map(([n, p]) => param(n, 'header', p)),
  ];
  const ok = doc?.ok ?? {};
  const content = okContent(ok);
  const answer = { description: ok.description ?? doc?.summary ?? 'the answer', content };
  const responses: Record<string, JsonSchema> = doc?.headers?.Range
    ? storedContentAnswers(answer, content)
    : { [String(ok.status ?? 200)]: answer };
  // A route that reads a JSON body refuses another media type (api/body.ts).
  for (const status of new Set([...EVERY_ROUTE, ...(doc?.body ? [415] : []), ...(doc?.errors ?? [])]).values())
    responses[String(status)] ??= { description: STATUS_TEXT[status] ?? 'error', content: ERROR_CONTENT };
  const security = securityOf(doc);
  return {
    // Undocumented routes get an id from their key (the test that fails on them names it).
    operationId: id ?? `undocumented ${routeKey(r)}`,
    summary: doc?.summary ?? `${r.method} ${r.path}`,
    ...(doc?.description ? { description: doc.description } : {}),
    tags: [doc?.tag ?? 'undocumented'],
    ...(security ? { security } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(doc?.body
      ? { requestBody: { required: true, description: doc.body.description, content: { 'application/json': body(doc.body) } } }
      : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
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
    // Plain JSON Schema 2020-12 (the schemas use none of the OpenAPI dialect's own keywords): a
    // validator that does not know the OpenAPI dialect's URI (Prism) would otherwise check no body at all.
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Ombra node API',
      version: info.version,
      description:
        'The HTTP API of an Ombra node. JSON everywhere; big integers are decimal strings of micro-units (1 OMBRA = 1,000,000); every error is `{error, code}`. Transaction schemas (`Tx_*`) come from the protocol code: properties in canonical order, with `x-field-order` the order the hash covers.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // A relative URL: the node that serves this document.
    servers: [info.serverUrl ? { url: info.serverUrl } : { url: '/', description: 'the node serving this document' }],
    security: ANYONE,
    tags: [...new Set(Object.values(ENDPOINTS).map((d) => d.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
    components: { schemas: componentSchemas(), securitySchemes: SECURITY_SCHEMES },
  };
}
