/**
 * docs/api.md: the route tables of the HTTP API, one per tag, derived from the route
 * definitions (`npm run docs` writes it; a test fails while it is stale). Each row is a route's
 * method and path, its query values and request headers with what they mean, its summary and
 * answer, and the error statuses it declares.
 */
import type { Endpoint, Param } from './endpoint.ts';
import { ENDPOINTS } from './index.ts';

const INTRO = `# HTTP API routes

Generated from the route definitions in \`api/endpoints/\` by \`npm run docs\`; do not edit.
The node serves the same definitions as an OpenAPI 3.1 document at \`GET /api/openapi.json\`
(rendered at \`GET /docs\`), and the typed client (\`ombra-node/client\`) reads them too.

JSON everywhere; big integers (balances, amounts, fees) are decimal strings in micro-units
(1 OMBRA = 1,000,000); heights, nonces and times (epoch ms) are numbers. Every error is
\`{error, code}\`; every route may answer 400 (bad input, \`INVALID_PARAMS\`) and 429
(\`RATE_LIMITED\`, with \`Retry-After\`), and the statuses in its "errors" column. A list's
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
  return cell(`${what} (${status}${type === 'application/json' ? '' : `, ${type}`})`);
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
        `| \`${e.method} ${e.path}\` | ${inputs(e)} | ${answer(e)} | ${(e.errors ?? []).filter((s) => s !== 400 && s !== 429).join(', ')} |`,
      );
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
