/** Small builders of JSON Schemas, so the route catalog reads like the answers it describes. */
import type { JsonSchema } from './txSchemas.ts';

/** A reference to a component schema. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const str: JsonSchema = { type: 'string' };
export const int: JsonSchema = { type: 'integer' };
export const num: JsonSchema = { type: 'number' };
export const bool: JsonSchema = { type: 'boolean' };
/** Epoch milliseconds. */
export const ms: JsonSchema = { type: 'integer', minimum: 0, description: 'epoch ms' };
/** A height or count. */
export const uint: JsonSchema = { type: 'integer', minimum: 0 };
/** A big integer in micro-units, as a decimal string. */
export const big: JsonSchema = { type: 'string', pattern: '^(0|[1-9][0-9]*)$' };
export const hash: JsonSchema = { type: 'string', pattern: '^[0-9a-f]{64}$' };
export const address: JsonSchema = { type: 'string', pattern: '^ox[0-9a-f]{40}$' };
/** One of the strings. */
export const oneOf = (...values: string[]): JsonSchema => ({ type: 'string', enum: values });
/** `s` or null. */
export const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: 'null' }] });
/** An array of `s`. */
export const arr = (s: JsonSchema): JsonSchema => ({ type: 'array', items: s });

/**
 * An object with exactly these properties (in this order); all required but those named in
 * `optional`. Closed (`additionalProperties: false`), so an answer that grows a field fails
 * the schema test until the document says so.
 */
export function obj(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}

/** A signed transaction plus more properties, closed over both (`unevaluatedProperties`). */
export function txWith(properties: Record<string, JsonSchema>): JsonSchema {
  return {
    allOf: [ref('SignedTx'), { type: 'object', properties, required: Object.keys(properties) }],
    unevaluatedProperties: false,
  };
}

/** `{ok: true, id, <flag>: true}`. */
export const okWith = (flag: string): JsonSchema => obj({ ok: { const: true }, id: { type: 'string' }, [flag]: { const: true } });

/** A list answer keyed by its subject. */
export const keyedList = (key: string, keySchema: JsonSchema, items: string, itemSchema: JsonSchema): JsonSchema =>
  obj({ [key]: keySchema, count: uint, [items]: { type: 'array', items: itemSchema } });
