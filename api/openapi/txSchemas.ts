/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of every transaction type, generated from
 * core's registry: one `Tx_<TYPE>` per schema with its properties in canonical order and
 * `x-field-order` (the hashed payload's order: type, the fields, publicKey), and `SignedTx`,
 * one of them by `type`. A type added to core appears here with no change: `fieldSchema` is
 * the one adapter from a FieldSpec to JSON Schema, reading the kind, bounds, values and item
 * fields the field builders of core/schema.ts record as data.
 */
import type { FieldSpec } from '../../core/fieldSpec.ts';
import type { TxSchema } from '../../core/schema.ts';
import { TX_HANDLERS } from '../../core/tx/registry.ts';
import type { JsonSchema } from '../../queries/schemas/shapes.ts';

export type { JsonSchema };

const HEX = (n: number) => `^[0-9a-f]{${n}}$`;

/**
 * The JSON Schema of one field, from the bounds and values its builder recorded as data. UTF-8
 * byte limits become maxLength (a string of at most N bytes has at most N characters; the node
 * counts bytes), and patterns only core can check (a MIME type, a path) stay strings described
 * by their doc.
 */
function fieldSchema(spec: FieldSpec): JsonSchema {
  const b = spec.bounds;
  const described = (s: JsonSchema): JsonSchema => ({ ...s, description: spec.doc });
  switch (spec.kind) {
    case 'address':
      return described({ type: 'string', pattern: '^ox[0-9a-f]{40}$' });
    case 'amount':
      return described({ type: 'string', pattern: '^(0|[1-9][0-9]*)$' });
    case 'uint':
      return described({ type: 'integer', minimum: b?.min ?? 0, maximum: b?.max ?? Number.MAX_SAFE_INTEGER });
    case 'hex':
      return described({ type: 'string', pattern: HEX(b?.max ?? 64) });
    case 'text':
      return described({ type: 'string', ...(b && b.min > 0 ? { minLength: 1 } : {}), ...(b ? { maxLength: b.max } : {}) });
    case 'id':
      return described({ type: 'string', pattern: b ? `^[A-Za-z0-9_-]{${b.min},${b.max}}$` : '^[A-Za-z0-9_-]+$' });
    case 'enum':
      return described({ type: 'string', enum: [...(spec.values ?? [])] });
    case 'pattern':
      // The builder's RegExp is not kept in the spec: the doc says what the node checks.
      return described({ type: 'string' });
    case 'base64': {
      // n bytes take 4 * ceil(n / 3) characters of padded base64.
      const chars = (n: number) => 4 * Math.ceil(n / 3);
      return described({ type: 'string', pattern: '^[A-Za-z0-9+/]*={0,2}$', minLength: chars(b?.min ?? 0), maxLength: chars(b?.max ?? 0) });
    }
    case 'bool':
      return described({ type: 'boolean' });
    case 'strings':
      return described({ type: 'array', maxItems: b?.max, items: { type: 'string' } });
    case 'list': {
      const names = Object.keys(spec.fields ?? {});
      return described({
        type: 'array',
        maxItems: b?.max,
        items: { type: 'object', properties: Object.fromEntries(names.map((n) => [n, {}])), 'x-field-order': names },
      });
    }
    default:
      // A kind this adapter does not know yet (a test fails on it): at least a described value.
      return { description: spec.doc, 'x-kind': spec.kind };
  }
}

/** The component name of a type's schema. */
const txSchemaName = (type: string) => `Tx_${type}`;

/** One type's signed-transaction schema, properties in canonical order. */
function txSchema(s: TxSchema): JsonSchema {
  const order = ['type', ...Object.keys(s.fields), 'publicKey'];
  const properties: Record<string, JsonSchema> = { type: { const: s.type } };
  for (const [name, spec] of Object.entries(s.fields)) properties[name] = fieldSchema(spec);
  properties.publicKey = { type: 'string', pattern: HEX(64), description: 'Ed25519 public key of `from`' };
  properties.hash = { type: 'string', pattern: HEX(64), description: 'hex SHA-256 of the canonical payload (`x-field-order`)' };
  properties.signature = { type: 'string', pattern: HEX(128), description: 'Ed25519 signature over the UTF-8 bytes of `hash`' };
  const required = ['type', ...Object.entries(s.fields).flatMap(([n, f]) => (f.optional ? [] : [n])), 'publicKey', 'hash', 'signature'];
  return {
    type: 'object',
    description: `${s.doc} (fork ${s.fork}, family ${s.family})`,
    properties,
    required,
    'x-field-order': order,
    'x-fork': s.fork,
  };
}

/** `Tx_<TYPE>` for every registered type, and `SignedTx` (one of them, by `type`). */
export function txComponentSchemas(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const h of TX_HANDLERS.values()) out[txSchemaName(h.schema.type)] = txSchema(h.schema);
  out.SignedTx = {
    description: "A signed transaction of any type. Unknown fields are refused; a type's fields are hashed in `x-field-order`.",
    oneOf: [...TX_HANDLERS.keys()].map((t) => ({ $ref: `#/components/schemas/${txSchemaName(t)}` })),
    discriminator: { propertyName: 'type' },
  };
  return out;
}
