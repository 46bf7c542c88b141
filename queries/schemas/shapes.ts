/**
 * Small builders of JSON Schemas, so the route catalog reads like the answers it describes. Each
 * builder's result carries the TypeScript type of the values it describes (`Static<typeof s>`,
 * as TypeBox does): the handlers' answers, the queries' results and the client's types are all
 * that one type, so an answer of the wrong shape fails `tsc`.
 */
import type { SignedTx } from '../../core/tx/handler.ts';

/** A JSON Schema object: the keywords the node's documents read typed, any other as written. */
export interface JsonSchema {
  type?: string | readonly string[];
  $ref?: string;
  const?: unknown;
  enum?: readonly unknown[];
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: readonly JsonSchema[];
  oneOf?: readonly JsonSchema[];
  allOf?: readonly JsonSchema[];
  description?: string;
  [keyword: string]: unknown;
}

/** The phantom key of a schema's static type (never present at run time). */
declare const STATIC: unique symbol;

/**
 * A JSON Schema describing values of type `T`. The type rides on an optional phantom property,
 * so a schema literal is one without a cast; a function type keeps `T` invariant enough to infer.
 */
export type Schema<T> = JsonSchema & Of<T>;

/** The phantom of a value known to describe or encode a `T`. */
type Of<T> = { readonly [STATIC]?: (value: T) => T };

/** JSON text encoding a `T` (stored or cached encodings, answered as they are). */
export type Json<T> = string & Of<T>;

/** JSON encoding a `T`, in pieces (text, or bytes already UTF-8), answered as a stream. */
export type JsonPieces<T> = AsyncGenerator<string | Uint8Array> & Of<T>;

/** The type of the values `S` describes (`unknown` for a schema written without the builders). */
export type Static<S> = S extends { readonly [STATIC]?: (value: infer T) => unknown } ? (unknown extends T ? Loose<S> : T) : Loose<S>;

/** A schema written as a literal: its `const`, or its primitive `type`. */
type Loose<S> = S extends { const: infer C }
  ? C
  : S extends { type: 'array'; items: infer I }
    ? Static<I>[]
    : S extends { type: 'string' }
      ? string
      : S extends { type: 'integer' | 'number' }
        ? number
        : S extends { type: 'boolean' }
          ? boolean
          : unknown;

/** Flattens an intersection of objects into one object type (for readable types and errors). */
type Flat<T> = { [K in keyof T]: T[K] } & {};

/** A reference to a component schema whose definition is `of` (its type is the component's). */
export const refTo = <T>(name: string, _of?: Schema<T>): Schema<T> => ({ $ref: `#/components/schemas/${name}` });
export const str: Schema<string> = { type: 'string' };
export const int: Schema<number> = { type: 'integer' };
export const num: Schema<number> = { type: 'number' };
export const bool: Schema<boolean> = { type: 'boolean' };
/** Epoch milliseconds. */
export const ms: Schema<number> = { type: 'integer', minimum: 0, description: 'epoch ms' };
/** A height or count. */
export const uint: Schema<number> = { type: 'integer', minimum: 0 };
/** A big integer in micro-units, as a decimal string. */
export const big: Schema<string> = { type: 'string', pattern: '^(0|[1-9][0-9]*)$' };
export const hash: Schema<string> = { type: 'string', pattern: '^[0-9a-f]{64}$' };
export const address: Schema<string> = { type: 'string', pattern: '^ox[0-9a-f]{40}$' };
/** Exactly `value`. */
export const lit = <const V extends string | number | boolean>(value: V): Schema<V> => ({ const: value });
/** One of the strings. */
export const oneOf = <const V extends string[]>(...values: V): Schema<V[number]> => ({ type: 'string', enum: values });
/** `s` or null. */
export const nullable = <T>(s: Schema<T>): Schema<T | null> => ({ anyOf: [s, { type: 'null' }] });
/** An array of `s`. */
export const arr = <T>(s: Schema<T>): Schema<T[]> => ({ type: 'array', items: s });
/** A map of string keys to `s`. */
export const record = <T>(s: Schema<T>): Schema<Record<string, T>> => ({ type: 'object', additionalProperties: s });
/** Exactly one of the schemas (`oneOf`). */
export const either = <S extends JsonSchema[]>(...schemas: S): Schema<Static<S[number]>> => ({ oneOf: schemas });

/** The static type of an object schema's properties, those in `O` optional. */
export type Properties<P, O extends keyof P = never> = Flat<
  { [K in Exclude<keyof P, O>]: Static<P[K]> } & { -readonly [K in O]?: Static<P[K]> }
>;

/**
 * An object with exactly these properties (in this order); all required but those named in
 * `optional`. Closed (`additionalProperties: false`), so an answer that grows a field fails
 * the schema test until the document says so.
 */
export function obj<const P extends Record<string, JsonSchema>, O extends keyof P & string = never>(
  properties: P,
  optional: readonly O[] = [],
): Schema<Properties<P, O>> {
  return closed(properties, optional);
}

/** The closed object schema of `properties`, all required but `optional`. */
function closed(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}

/** Any signed transaction (core's schemas, one component per type). */
const signedTx = refTo<SignedTx>('SignedTx');

/** A signed transaction plus more properties, closed over both (`unevaluatedProperties`). */
export function txWith<const P extends Record<string, JsonSchema>>(properties: P): Schema<SignedTx & Properties<P>> {
  return {
    allOf: [signedTx, { type: 'object', properties, required: Object.keys(properties) }],
    unevaluatedProperties: false,
  };
}

/** `{ok: true, id, <flag>: true}`. */
export const okWith = <const F extends string>(flag: F): Schema<{ ok: true; id: string } & Record<F, true>> =>
  closed({ ok: lit(true), id: str, [flag]: lit(true) });

/** A list answer keyed by its subject. */
export const keyedList = <const K extends string, KT, const I extends string, IT>(
  key: K,
  keySchema: Schema<KT>,
  items: I,
  itemSchema: Schema<IT>,
): Schema<Record<K, KT> & { count: number } & Record<I, IT[]>> => closed({ [key]: keySchema, count: uint, [items]: arr(itemSchema) });
