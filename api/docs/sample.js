// An example value for a JSON Schema of the node's OpenAPI document, for the docs page's "Example
// answer": the schema's own `example` (or `examples[0]`, `const`, `default`, first `enum`) where
// the route definitions give one, else a value of the right shape built from its parts (first
// branch of a oneOf/anyOf, every property of an object, one item of an array). Pure: no DOM, so
// it is tested without a browser (test/api/docsSample.test.ts).

/** Deepest nesting followed; deeper parts stand as `…`. */
const MAX_DEPTH = 8;

/** A string of the format or pattern the schema asks for, where a common one is named. */
function sampleString(s) {
  if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z';
  if (s.format === 'uri') return 'https://example.com/';
  if (s.format === 'email') return 'user@example.com';
  const p = s.pattern || '';
  const hex = /\[0-9a-f\]\{(\d+)\}\$$/i.exec(p);
  if (hex) return `${p.startsWith('^ox') ? 'ox' : ''}${'0'.repeat(Number(hex[1]))}`;
  if (/^\^\(?(0\|)?\[(0|1)-9\]/.test(p)) return '1000';
  return 'string';
}

/**
 * An example of `schema`; `schemas` are the document's `components.schemas` (for `$ref`s).
 * `depth` counts objects and arrays entered; `seen` stops a recursive schema at its second visit.
 */
function sampleOf(schema, schemas, depth = 0, seen = new Set()) {
  if (!schema || typeof schema !== 'object') return null;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (depth > MAX_DEPTH) return '…';
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop();
    if (seen.has(name)) return '…';
    return sampleOf(schemas[name], schemas, depth, new Set([...seen, name]));
  }
  // Parts that are objects merge: a oneOf's first branch, every allOf part, the schema's own properties.
  const parts = [...(schema.allOf || []), ...((schema.oneOf || schema.anyOf)?.slice(0, 1) || [])].map((x) =>
    sampleOf(x, schemas, depth, seen),
  );
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties || parts.some((v) => v && typeof v === 'object' && !Array.isArray(v))) {
    const out = Object.assign({}, ...parts.filter((v) => v && typeof v === 'object' && !Array.isArray(v)));
    for (const [k, v] of Object.entries(schema.properties || {})) out[k] = sampleOf(v, schemas, depth + 1, seen);
    return out;
  }
  if (parts.length) return parts[parts.length - 1];
  if (type === 'array') {
    const item = schema.items ? sampleOf(schema.items, schemas, depth + 1, seen) : null;
    return schema.items ? Array.from({ length: Math.max(1, schema.minItems || 0) }, () => item) : [];
  }
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 0;
  if (type === 'boolean') return true;
  if (type === 'string') return sampleString(schema);
  return null;
}

/** The example answer of an operation: its first 2xx JSON answer's example, or null when it has none. */
export function exampleAnswer(op, schemas) {
  for (const [status, r] of Object.entries(op.responses || {})) {
    if (!/^2/.test(status)) continue;
    const media = r.content?.['application/json'];
    if (media) return { status, value: media.example !== undefined ? media.example : sampleOf(media.schema, schemas) };
  }
  return null;
}
