/**
 * Parameter builders: each returns one definition holding the JSON Schema the document shows
 * and the parser `serve` runs, built from the same bounds and patterns, so the two cannot
 * disagree. Every parser refuses bad input with INVALID_PARAMS.
 */
import { normalizeAddress } from '../../core/address.ts';
import { ChainError } from '../../core/errors.ts';
import type { Checked, Param } from './endpoint.ts';
import { EXAMPLE_ADDRESS, EXAMPLE_HASH } from './examples.ts';

const bad = (msg: string): never => {
  throw new ChainError('INVALID_PARAMS', msg);
};

const HEIGHT = /^(0|[1-9][0-9]{0,14})$/;
const HASH = /^[0-9a-fA-F]{64}$/;
const COUNT = /^[0-9]{1,15}$/;

/** A block height: a plain non-negative decimal integer. */
export function parseHeight(s: string | undefined, name = 'index'): number {
  if (s === undefined || !HEIGHT.test(s)) bad(`${name} must be a non-negative integer`);
  return Number(s);
}

/** A 64-character hex hash, any case, returned lowercase. */
function parseHash(s: string | undefined, name = 'hash'): string {
  if (s === undefined || !HASH.test(s)) return bad(`${name} must be 64 hex characters`);
  return s.toLowerCase();
}

/** An address, any case, returned lowercase. */
function parseAddress(s: string | undefined, name = 'address'): string {
  const a = s === undefined || s.length > 42 ? null : normalizeAddress(s);
  if (!a) return bad(`${name} must be an address: ox + 40 hex characters`);
  return a;
}

/** A count (`offset`, `cursor`): absent or empty is `undefined`, else a non-negative integer. */
function parseCount(s: string | undefined, why: string): number | undefined {
  if (s === undefined || s === '') return undefined;
  if (!COUNT.test(s)) bad(why);
  return Number(s);
}

/** A value the handler reads as it comes (the schema documents it; the handler checks it). */
const raw = (schema: Record<string, unknown>, description: string, example: string): Param<string | undefined> => ({
  schema,
  description,
  example,
});

/** A 64-hex path parameter, returned lowercase; `name` is how an error calls it. */
export const hashParam = (description: string, name = 'hash', example: string = EXAMPLE_HASH): Checked<string> => ({
  schema: { type: 'string', pattern: HASH.source },
  description,
  parse: (s) => parseHash(s, name),
  example,
});

/** An address path parameter (any case), returned lowercase. */
export const addressParam = (name = 'address'): Checked<string> => ({
  schema: { type: 'string', pattern: '^(ox|OX|Ox|oX)[0-9a-fA-F]{40}$' },
  description: 'an address, any case',
  parse: (s) => parseAddress(s, name),
  example: EXAMPLE_ADDRESS,
});

/** A string matching `re` (its source is the schema's pattern); `message` when it does not. */
export const matching = (re: RegExp, description: string, message: string, example: string): Checked<string> => ({
  schema: { type: 'string', pattern: re.source },
  description,
  parse: (s) => (s !== undefined && re.test(s) ? s : bad(message)),
  example,
});

/** One of `values`: in a path, or in a query where absent or empty means `fallback`. */
export function oneOfParam<const V extends readonly string[], F extends string = never>(
  name: string,
  values: V,
  description: string,
  fallback?: F,
): Checked<V[number] | F> {
  const message = `${name} must be one of ${values.join(', ')}`;
  const isOne = (s: string): s is V[number] => values.some((v) => v === s);
  return {
    schema: { type: 'string', enum: [...values] },
    description,
    parse: (s) => (fallback !== undefined && (s === undefined || s === '') ? fallback : s !== undefined && isOne(s) ? s : bad(message)),
    example: values[0],
  };
}

/** `limit`: default `def`, clamped to `max`; non-integers and negatives are refused. */
export const limit = (max = 100, def = 30): Checked<number> => ({
  schema: { type: 'integer', minimum: 0, default: def },
  description: `page size (default ${def}; above ${max} it is clamped to ${max})`,
  parse: (s) => {
    if (s === undefined || s === '') return Math.min(def, max);
    if (!COUNT.test(s)) bad('limit must be a non-negative integer');
    return Math.min(Number(s), max);
  },
  example: Math.min(def, max),
});

/** `offset`: default 0. */
export const offset: Checked<number> = {
  schema: { type: 'integer', minimum: 0, default: 0 },
  description: 'items to skip',
  parse: (s) => parseCount(s, 'offset must be a non-negative integer') ?? 0,
  example: 0,
};

/** `cursor`: a `nextCursor` an earlier page answered, or absent. */
export const cursor = (description: string): Checked<number | undefined> => ({
  schema: { type: 'string', pattern: COUNT.source },
  description,
  parse: (s) => parseCount(s, 'cursor must be a nextCursor from an earlier page'),
  example: '30',
});

/** `limit` (default `def`, clamped to `max`) then `offset`. */
export const paging = (max = 100, def = 30) => ({ limit: limit(max, def), offset });

/** `p`, parsed by the handler on the branch that reads it (`p.parse(raw)`). */
export const lazy = <T>(p: Param<T>): Param<T> & { lazy: true; parse: (raw: string | undefined) => T } => ({
  ...p,
  parse: p.parse ?? ((s) => s as T),
  lazy: true,
});

/** Request headers of every route that serves stored content (see api/contentResponse.ts). */
export const CONTENT_HEADERS: Record<string, Param<string | undefined>> = {
  'If-None-Match': raw({ type: 'string' }, 'an ETag of a copy held: 304 without a body when it matches', `"${EXAMPLE_HASH}"`),
  Range: raw(
    { type: 'string' },
    'one byte range `bytes=a-b`, `bytes=a-` or `bytes=-n`: 206 with Content-Range; 416 outside the content',
    'bytes=0-1023',
  ),
  'If-Range': raw({ type: 'string' }, 'the ETag the range is for: a stale one gets the whole content (200)', `"${EXAMPLE_HASH}"`),
};
