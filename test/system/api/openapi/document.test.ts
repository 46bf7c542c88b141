/**
 * The OpenAPI document: valid OpenAPI 3.1 under a standard validator, every route of the app in
 * it (and nothing that is not a route), and one schema per transaction type generated from
 * core, properties in canonical order with `x-field-order`, accepting core's own examples.
 */
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../../../api/app.ts';
import { noNetwork } from '../../../../api/context.ts';
import { ENDPOINTS } from '../../../../api/endpoints/index.ts';
import { isEndpoint, openApiPath, routeKey } from '../../../../api/openapi/document.ts';
import { TX_HANDLERS, TX_TYPES } from '../../../../core/tx/registry.ts';
import { exampleTx } from '../../../helpers/txExamples.ts';
import { liveSimulatedNode, type LiveNode } from '../../../helpers/liveNode.ts';
import { schemaChecker } from '../../../helpers/openapiCheck.ts';
import { type LintProblem, redoclyLint, redoclyRecommended } from '../../../helpers/redoclyLint.ts';

let live: LiveNode;
let doc: any;

before(async () => {
  live = await liveSimulatedNode();
  const res = await fetch(`${live.url}/api/openapi.json`);
  assert.equal(res.status, 200);
  doc = await res.json();
});

after(() => live.stop());

test('is valid OpenAPI 3.1 under @seriousme/openapi-schema-validator', async () => {
  assert.equal(doc.openapi, '3.1.0');
  const result = await new Validator().validate(doc);
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2)?.slice(0, 3000));
  // The validator really checks: a document with a broken operation is refused.
  const broken = structuredClone(doc);
  broken.paths['/api/health'].get.responses = 'none';
  assert.ok(!(await new Validator().validate(broken)).valid, 'a broken document is refused');
});

test('gives /docs an example answer for every JSON read, of the shape the answer schema asks', async () => {
  // The docs page's module, plain JS without a DOM (api/docs/sample.js).
  const { exampleAnswer } = (await import('../../../../api/docs/sample.js' as string)) as {
    exampleAnswer: (op: unknown, schemas: unknown) => { status: string; value: unknown } | null;
  };
  const check = schemaChecker(doc);
  const misfits: string[] = [];
  let reads = 0;
  for (const [path, ops] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(ops)) {
      const json = Object.entries<any>(op.responses).find(([s, r]) => /^2/.test(s) && r.content?.['application/json']);
      const example = exampleAnswer(op, doc.components.schemas);
      if (!json) {
        assert.equal(example, null, `${method} ${path}`);
        continue;
      }
      reads++;
      assert.ok(example, `${method} ${path} has an example answer`);
      const problem = check(json[1].content['application/json'].schema, example.value);
      if (problem) misfits.push(`${method.toUpperCase()} ${path}: ${problem.split('\n')[0]}`);
    }
  assert.ok(reads > 50, `${reads} JSON answers`);
  assert.deepEqual(misfits, [], misfits.join('\n'));
});

test('gives every operation its own operationId (code generators key on it)', () => {
  const seen = new Map<string, string>();
  for (const [path, ops] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(ops)) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(op.operationId, `${where} has an operationId`);
      assert.ok(!seen.has(op.operationId), `${op.operationId} names both ${seen.get(op.operationId)} and ${where}`);
      seen.set(op.operationId, where);
    }
});

test('lists every route the app serves, each described, and describes no route that does not exist', () => {
  // An app over the live node's own parts has exactly its routes.
  const n = live.node;
  const app = createApp({
    queries: n.queries,
    chain: n.node,
    network: noNetwork,
    keys: n.keys,
    alerts: n.alerts,
    streams: n.streams,
    metrics: n.metrics,
    log: n.node.log,
  });
  const routes = app.routes;
  const served = new Set(routes.filter(isEndpoint).map((r) => `${r.method} ${r.path}`));
  assert.ok(served.size > 60, `${served.size} routes`);
  for (const key of served) {
    const [method, path] = key.split(' ');
    const op = doc.paths[openApiPath(path)]?.[method.toLowerCase()];
    assert.ok(op, `${key} is missing from the document`);
    assert.ok(!op['x-undocumented'], `${key} has no definition in api/endpoints/`);
    for (const name of [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]))
      assert.ok(
        op.parameters.some((p: any) => p.in === 'path' && p.name === name),
        `${key}: path parameter ${name}`,
      );
    assert.deepEqual(op.responses['400'].content['application/json'].schema, { $ref: '#/components/schemas/Error' }, `${key}: error shape`);
  }
  for (const e of Object.values(ENDPOINTS))
    assert.ok(served.has(routeKey(e)), `api/endpoints/ defines ${routeKey(e)}, which the app does not serve`);
});

test('has one schema per transaction type: canonical property order, x-field-order, required fields', () => {
  for (const type of TX_TYPES) {
    const s = doc.components.schemas[`Tx_${type}`];
    assert.ok(s, `Tx_${type}`);
    const fields = Object.keys(TX_HANDLERS.get(type)!.schema.fields);
    assert.deepEqual(s['x-field-order'], ['type', ...fields, 'publicKey']);
    assert.deepEqual(Object.keys(s.properties), ['type', ...fields, 'publicKey', 'hash', 'signature']);
    assert.deepEqual(s.properties.type, { const: type });
    for (const [name, spec] of Object.entries(TX_HANDLERS.get(type)!.schema.fields)) {
      assert.ok(!s.properties[name]['x-kind'], `${type}.${name}: field kind ${spec.kind} has no JSON Schema mapping`);
      assert.equal(s.required.includes(name), !spec.optional, `${type}.${name} required`);
    }
  }
  assert.equal(doc.components.schemas.SignedTx.oneOf.length, TX_TYPES.length);
});

test("core's example of every type matches its schema and SignedTx; unknown fields and wrong types do not", () => {
  const check = schemaChecker(doc);
  for (const type of TX_TYPES) {
    const tx = exampleTx(type);
    assert.equal(check({ $ref: `#/components/schemas/Tx_${type}` }, tx), null, type);
    assert.equal(check({ $ref: '#/components/schemas/Tx' }, tx), null, type);
    assert.ok(check({ $ref: '#/components/schemas/Tx' }, { ...tx, extra: 1 }), `${type} with an unknown field`);
    assert.ok(check({ $ref: `#/components/schemas/Tx_${type}` }, { ...tx, nonce: -1 }), `${type} with a negative nonce`);
  }
});

const REDOCLY_CONFIG = fileURLToPath(new URL('../../../../redocly.yaml', import.meta.url));

/** A line per problem: rule, where, what. */
const lines = (problems: LintProblem[]) => problems.map((p) => `${p.severity} ${p.ruleId} ${p.pointer}: ${p.message}`);

test("passes Redocly's recommended rules with the repository's redocly.yaml: no error, no warning", () => {
  const problems = redoclyLint(doc, REDOCLY_CONFIG);
  assert.ok(problems, 'Redocly (@redocly/cli, a devDependency) is missing: run `npm ci`');
  assert.deepEqual(lines(problems), []);
});

test("redocly.yaml's exceptions cover exactly the cases its comments name, and Redocly does judge", () => {
  const problems = redoclyRecommended(doc);
  if (!problems) return;
  // What the two rules redocly.yaml turns off report on the recommended rules alone.
  const ambiguous = [
    '/api/nft/{tokenId}/svg',
    '/api/image/{tokenId}/file',
    '/api/audio/{tokenId}/file',
    '/api/alerts/{id}/enable',
    '/api/alerts/{id}/secret',
  ];
  const pointer = (path: string) => `#/paths/${path.replaceAll('/', '~1')}`;
  assert.deepEqual(
    problems.map((p) => `${p.ruleId} ${p.pointer}`).sort(),
    [
      ...ambiguous.map((path) => `no-ambiguous-paths ${pointer(path)}`),
      `operation-2xx-response ${pointer('/web/{alias}')}/get/responses`,
    ].sort(),
    lines(problems).join('\n'),
  );
  // A document that breaks recommended rules is reported: a tag without a description, an unknown security scheme.
  const broken = structuredClone(doc);
  broken.tags[0].description = undefined;
  broken.paths['/api/health'].get.security = [{ nobody: [] }];
  const found = redoclyLint(broken, REDOCLY_CONFIG) ?? [];
  assert.deepEqual([...new Set(found.map((p) => p.ruleId))].sort(), ['security-defined', 'tag-description'], lines(found).join('\n'));
});

test('declares API keys as a security scheme: optional everywhere, required where a route needs one', () => {
  assert.deepEqual(doc.components.securitySchemes.apiKey, {
    ...doc.components.securitySchemes.apiKey,
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
  });
  assert.deepEqual(doc.security, [{}, { apiKey: [] }]);
  assert.deepEqual(doc.paths['/api/keys/me'].get.security, [{ apiKey: [] }]);
  assert.deepEqual(doc.paths['/api/alerts'].get.security, [{ alertToken: [] }, { alertToken: [], apiKey: [] }]);
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(item)) {
      // The keys are the security schemes' headers, not parameters as well.
      assert.ok(
        !(op.parameters ?? []).some((p: any) => p.in === 'header' && /^x-(api-key|alert-token)$/i.test(p.name)),
        `${method} ${path}`,
      );
      assert.ok(op.responses['401'], `${method} ${path}: a presented key may be refused (401)`);
    }
});
