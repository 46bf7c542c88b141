/** How the route catalog describes one route, and builders for its common parts. */
import { obj, uint } from './shapes.ts';
import type { JsonSchema } from './txSchemas.ts';

/** One parameter: its schema and what it means. */
export interface ParamDoc {
  schema: JsonSchema;
  description: string;
  required?: boolean;
}

/** A successful answer. */
interface Answer {
  /** Default 200. */
  status?: number;
  /** Default application/json. */
  contentType?: string;
  /** The body's schema (JSON answers); other content types describe their body in `description`. */
  schema?: JsonSchema;
  description?: string;
}

/** What the document says about one route (keyed `METHOD /path/:param` in the catalog). */
export interface RouteDoc {
  summary: string;
  tag: string;
  description?: string;
  /** Path parameters by name (a route's `:name`s must all be here). */
  params?: Record<string, ParamDoc>;
  query?: Record<string, ParamDoc>;
  headers?: Record<string, ParamDoc>;
  /** A JSON request body. */
  body?: { schema: JsonSchema; description: string };
  ok: Answer;
  /** Error statuses this route answers with `{error, code}` (400 and 429 are added to every route). */
  errors?: number[];
}

/** A route catalog. */
export type RouteCatalog = Record<string, RouteDoc>;

/** `limit` (default `def`, clamped to `max`) and `offset`. */
export function paging(max = 100, def = 30): Record<string, ParamDoc> {
  return {
    limit: {
      schema: { type: 'integer', minimum: 0, default: def },
      description: `page size (default ${def}; above ${max} it is clamped to ${max})`,
    },
    offset: { schema: { type: 'integer', minimum: 0, default: 0 }, description: 'items to skip' },
  };
}

/** A 64-hex path parameter. */
export const hashParam = (what: string): ParamDoc => ({ schema: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' }, description: what });
/** An address path parameter (any case). */
export const addressParam: ParamDoc = {
  schema: { type: 'string', pattern: '^(ox|OX|Ox|oX)[0-9a-fA-F]{40}$' },
  description: 'an address, any case',
};

/** `{ok: true, id, <flag>: true}`. */
export const okWith = (flag: string): JsonSchema => obj({ ok: { const: true }, id: { type: 'string' }, [flag]: { const: true } });

/** A list answer keyed by its subject. */
export const keyedList = (key: string, keySchema: JsonSchema, items: string, itemSchema: JsonSchema): JsonSchema =>
  obj({ [key]: keySchema, count: uint, [items]: { type: 'array', items: itemSchema } });

/** Request headers of every route that serves stored content (see api/contentResponse.ts). */
export const CONTENT_HEADERS: Record<string, ParamDoc> = {
  'If-None-Match': { schema: { type: 'string' }, description: 'an ETag of a copy held: 304 without a body when it matches' },
  Range: {
    schema: { type: 'string' },
    description: 'one byte range `bytes=a-b`, `bytes=a-` or `bytes=-n`: 206 with Content-Range; 416 outside the content',
  },
  'If-Range': { schema: { type: 'string' }, description: 'the ETag the range is for: a stale one gets the whole content (200)' },
};
