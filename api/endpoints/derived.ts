import { type Endpoint, type Param, plainPath } from './endpoint.ts';
import { ENDPOINTS } from './index.ts';
import { routeTables } from './routeTables.ts';
import { key, schemaType } from './schemaType.ts';

const HEADER = (what: string) =>
  `/**\n * ${what}\n * Generated from api/endpoints/ by \`npm run docs\` (a test fails when it is stale): do not edit.\n */\n`;

/** Transaction schemas are core's: the client names core's type for all of them. */
const isTxComponent = (name: string) => name === 'Tx' || name === 'SignedTx' || name.startsWith('Tx_');
const refName = (component: string) => (isTxComponent(component) ? 'SignedTx' : `Components['${component}']`);

const entries = (): [string, Endpoint][] => Object.entries(ENDPOINTS);

/** `{ a: T; b?: U }` of parameters, on one line. */
function paramsType(params: Record<string, Param>, optional: boolean, widen: (t: string) => string): string {
  const fields = Object.entries(params).map(
    ([n, p]) => `${key(n)}${optional && !p.required ? '?' : ''}: ${widen(schemaType(p.schema, refName))}`,
  );
  return `{ ${fields.join('; ')} }`;
}

/** client/routes.ts. */
function clientRoutesSource(): string {
  const out = [HEADER('Every route of the node: method and path template by operation id, path parameters and query values.')];
  out.push('/** Method and path template of every operation. */', 'export const ROUTES = {');
  for (const [id, e] of entries()) out.push(`  ${id}: ['${e.method}', '${plainPath(e.path)}'],`);
  out.push('} as const;', '', '/** An operation id. */', 'export type OperationId = keyof typeof ROUTES;', '');
  out.push('/** The path parameters of the operations that have any. */', 'export interface PathParams {');
  for (const [id, e] of entries())
    if (e.params) out.push(`  ${id}: ${paramsType(e.params, false, (t) => (t === 'string' ? 'string | number' : t))};`);
  out.push('}', '', '/** The query values of the operations that take any. */', 'export interface QueryValues {');
  for (const [id, e] of entries()) if (e.query) out.push(`  ${id}: ${paramsType(e.query, true, (t) => t)};`);
  out.push('}', '');
  return `${out.join('\n')}\n`;
}

/** Each derived file, by path from the repository root, and its generator. */
export const GENERATED_FILES: Readonly<Record<string, () => string>> = {
  'docs/api.md': routeTables,
  'client/routes.ts': clientRoutesSource,
};
