/**
 * docs/api.md: the route tables of the HTTP API, one per tag, derived from the route
 * definitions (`npm run docs` writes it; a test fails while it is stale). Each row is a route's
 * method and path, its query values and request headers with what they mean, its summary and
 * answer, and the error statuses it declares.
 */
import { componentSchemas } from '../openapi/components.ts';
import type { JsonSchema } from '../openapi/txSchemas.ts';
import { type Endpoint, type Param, plainPath } from './endpoint.ts';
import { ENDPOINTS } from './index.ts';

/** Transaction schemas are listed in docs/protocol.md. */
const isTx = (name: string) => name === 'Tx' || name === 'SignedTx' || name.startsWith('Tx_');

/** An outline that names a plain value by its type (inside lists and alternatives). */
const named = (s: JsonSchema): string => outline(s) || String(s.type ?? 'value');

/**
 * The outline of a JSON answer: `{a, b?, c: [Record]}`: property names (nested objects and
 * arrays of them opened), `Record` for a component (listed under Records), `tx` for a signed
 * transaction, `a \| b` for alternatives.
 */
function outline(s: JsonSchema): string {
  if (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    return isTx(name) ? 'tx' : name;
  }
  if ('const' in s) return JSON.stringify(s.const);
  for (const k of ['anyOf', 'oneOf'] as const) if (Array.isArray(s[k])) return (s[k] ?? []).map(named).join(' | ');
  if (Array.isArray(s.allOf))
    return s.allOf
      .map(outline)
      .concat(s.properties ? [outline({ ...s, allOf: undefined })] : [])
      .join(' + ');
  if (s.type === 'array') return `[${named(s.items ?? {})}]`;
  if (s.properties) {
    const required = new Set(s.required ?? []);
    const fields = Object.entries(s.properties).map(([k, v]) => {
      const inner = outline(v);
      const opened = inner === '' ? '' : ` ${inner}`;
      return `${k}${required.has(k) ? '' : '?'}${opened}`;
    });
    return `{${fields.join(', ')}}`;
  }
  return '';
}

const INTRO = `# HTTP API routes

Generated from the route definitions in \`api/endpoints/\` by \`npm run docs\`; do not edit.
The node serves the same definitions as an OpenAPI 3.1 document at \`GET /api/openapi.json\`
(rendered at \`GET /docs\`), and the typed client (\`ombra-node/client\`) reads them too.
There, every parameter and request body has an \`example\` taken from the dev chain (the dev
account of mnemonic index 1, and transactions it signed in \`fixtures/simulated-chain.ndjson\`).

JSON everywhere; big integers (balances, amounts, fees) are decimal strings in micro-units
(1 OMBRA = 1,000,000); heights, nonces and times (epoch ms) are numbers. Every error is
\`{error, code}\`; every route may answer 400 (bad input, \`INVALID_PARAMS\`), 401
(\`UNAUTHORIZED\`: where rate limits are on, an \`X-API-Key\` that is malformed, unknown or revoked),
403 (\`IP_BANNED\`) and 429 (\`RATE_LIMITED\`, with \`Retry-After\`), and the statuses in its
"errors" column. Routes that serve stored content (those taking \`Range\`) also answer 206 and 304. A list's
\`limit\` above its maximum is clamped to it.
`;

/** Text inside a table cell. */
const cell = (s: string): string => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

function inputs(e: Endpoint): string {
  const list = (ps: Record<string, Param> | undefined, show: (n: string) => string) =>
    Object.entries(ps ?? {}).map(([n, p]) => `${show(n)}: ${p.description}`);
  return cell(
    [
      ...list(e.params, (n) => `\`:${n}\``),
      ...list(e.query, (n) => `\`?${n}\``),
      ...list(e.headers, (n) => `\`${n}\``),
      ...(e.body ? [`body: ${e.body.description}`] : []),
    ].join('; '),
  );
}

function answer(e: Endpoint): string {
  const status = e.ok.status ?? 200;
  const type = e.ok.contentType ?? 'application/json';
  const what = [e.summary, e.description].filter(Boolean).join('. ');
  const shape = type === 'application/json' && e.ok.schema && outline(e.ok.schema) ? `: \`${outline(e.ok.schema)}\`` : '';
  return cell(`${what} (${status}${type === 'application/json' ? '' : `, ${type}`})${shape}`);
}

/** The records answers name, with their outlines. */
function records(): string[] {
  const out = ['## Records', '', 'The records answers are made of (transactions: [protocol.md](protocol.md)).', ''];
  for (const [name, s] of Object.entries(componentSchemas())) if (!isTx(name)) out.push(`- \`${name}\`: \`${outline(s)}\``);
  return [...out, ''];
}

/** The Markdown of docs/api.md. */
export function routeTables(): string {
  const byTag = new Map<string, Endpoint[]>();
  for (const e of Object.values(ENDPOINTS)) byTag.set(e.tag, [...(byTag.get(e.tag) ?? []), e]);
  const out = [INTRO];
  for (const [tag, list] of byTag) {
    out.push(`## ${tag}`, '', '| route | input | answer | errors |', '|---|---|---|---|');
    for (const e of list)
      out.push(
        `| \`${e.method} ${plainPath(e.path)}\` | ${inputs(e)} | ${answer(e)} | ${(e.errors ?? []).filter((s) => s !== 400 && s !== 429).join(', ')} |`,
      );
    out.push('');
  }
  out.push(...records());
  return `${out.join('\n').trimEnd()}\n`;
}
