/**
 * The TypeScript type a JSON Schema of this API describes, as source text: how the client's
 * route table (client/routes.ts) types path parameters and query values. It reads the subset
 * the schema builders of queries/schemas/shapes.ts write: objects
 * (closed or a map), arrays, `const`, `enum`, unions (`anyOf`, `oneOf`), `allOf`, `$ref`.
 */
import type { JsonSchema } from '../openapi/txSchemas.ts';

/** How a `$ref` to a component is written (its name, or a type for transaction schemas). */
export type RefNamer = (component: string) => string;

/** Longest one-line object. */
const LINE = 130;

const PRIMITIVE: Record<string, string> = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean', null: 'null' };

/** A property name as TypeScript writes it. */
export const key = (name: string): string => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name));

/** Parenthesised when it is a union or intersection at its top level, so `[]` and `&` bind to all of it. */
function grouped(t: string): string {
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const ch = t[i];
    if (ch === '{' || ch === '(' || ch === '<' || ch === '[') depth++;
    else if (ch === '}' || ch === ')' || ch === '>' || ch === ']') depth--;
    else if (depth === 0 && (ch === '|' || ch === '&') && t[i - 1] === ' ') return `(${t})`;
  }
  return t;
}

/** A literal as the code base writes it: strings in single quotes. */
const literal = (v: unknown): string =>
  typeof v === 'string' ? `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'` : JSON.stringify(v);

const union = (types: string[]): string => {
  const unique = [...new Set(types)];
  return unique.includes('unknown') ? 'unknown' : unique.join(' | ');
};

/** The type of `s`, nested objects indented by `indent`. */
export function schemaType(s: JsonSchema, name: RefNamer, indent = ''): string {
  if (typeof s.$ref === 'string') return name(s.$ref.replace('#/components/schemas/', ''));
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.map(literal).join(' | ');
  const parts = (k: 'anyOf' | 'oneOf' | 'allOf') => (s[k] ?? []).map((x) => schemaType(x, name, indent));
  if (Array.isArray(s.anyOf)) return union(parts('anyOf'));
  if (Array.isArray(s.oneOf)) return union(parts('oneOf'));
  if (Array.isArray(s.allOf)) {
    const own = { ...s, allOf: undefined };
    const rest = s.properties ? [schemaType(own, name, indent)] : [];
    return [...parts('allOf'), ...rest].map(grouped).join(' & ');
  }
  if (s.type === 'array') return `${grouped(schemaType(s.items ?? {}, name, indent))}[]`;
  if (s.type === 'object' || s.properties) return objectType(s, name, indent);
  if (typeof s.type === 'string') return PRIMITIVE[s.type] ?? 'unknown';
  return 'unknown';
}

function objectType(s: JsonSchema, name: RefNamer, indent: string): string {
  const properties = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const extra = s.additionalProperties;
  const entries = Object.entries(properties);
  if (entries.length === 0)
    return typeof extra === 'object' && extra !== null ? `Record<string, ${schemaType(extra, name, indent)}>` : 'Record<string, unknown>';
  const inner = `${indent}  `;
  const fields = entries.map(([k, v]) => `${key(k)}${required.has(k) ? '' : '?'}: ${schemaType(v, name, inner)}`);
  // Short objects on one line, as a person would write them.
  const line = `{ ${fields.join('; ')} }`;
  if (!line.includes('\n') && indent.length + line.length <= LINE) return line;
  return `{\n${fields.map((f) => `${inner}${f};`).join('\n')}\n${indent}}`;
}
