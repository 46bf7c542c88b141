/**
 * The OpenAPI document: valid OpenAPI 3.1 under a standard validator, every route of the app in
 * it (and nothing that is not a route), and one schema per transaction type generated from
 * core, properties in canonical order with `x-field-order`, accepting core's own examples.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../api/app.ts';
import { noNetwork } from '../../../api/context.ts';
import { ENDPOINTS } from '../../../api/endpoints/index.ts';
import { isEndpoint, openApiPath, routeKey } from '../../../api/openapi/document.ts';
import { TX_HANDLERS, TX_TYPES } from '../../../core/tx/registry.ts';
import { exampleTx } from '../../core/txExamples.ts';
import { liveSimulatedNode, type LiveNode } from '../../helpers/liveNode.ts';
import { schemaChecker } from '../../helpers/openapiCheck.ts';

const t = suite('the OpenAPI document');
let live: LiveNode;
let doc: any;

t.before(async () => {
  live = await liveSimulatedNode();
  const res = await fetch(`${live.url}/api/openapi.json`);
  assert.is(res.status, 200);
  doc = await res.json();
});

t.after(() => live.stop());

t('is valid OpenAPI 3.1 under @seriousme/openapi-schema-validator', async () => {
  assert.is(doc.openapi, '3.1.0');
  const result = await new Validator().validate(doc);
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2)?.slice(0, 3000));
  // The validator really checks: a document with a broken operation is refused.
  const broken = structuredClone(doc);
  broken.paths['/api/health'].get.responses = 'none';
  assert.not.ok((await new Validator().validate(broken)).valid, 'a broken document is refused');
});

t('gives every operation its own operationId (code generators key on it)', () => {
  const seen = new Map<string, string>();
  for (const [path, ops] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(ops)) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(op.operationId, `${where} has an operationId`);
      assert.not.ok(seen.has(op.operationId), `${op.operationId} names both ${seen.get(op.operationId)} and ${where}`);
      seen.set(op.operationId, where);
    }
});

t('lists every route the app serves, each described, and describes no route that does not exist', () => {
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
    assert.not.ok(op['x-undocumented'], `${key} has no definition in api/endpoints/`);
    for (const name of [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]))
      assert.ok(
        op.parameters.some((p: any) => p.in === 'path' && p.name === name),
        `${key}: path parameter ${name}`,
      );
    assert.equal(op.responses['400'].content['application/json'].schema, { $ref: '#/components/schemas/Error' }, `${key}: error shape`);
  }
  for (const e of Object.values(ENDPOINTS))
    assert.ok(served.has(routeKey(e)), `api/endpoints/ defines ${routeKey(e)}, which the app does not serve`);
});

t('has one schema per transaction type: canonical property order, x-field-order, required fields', () => {
  for (const type of TX_TYPES) {
    const s = doc.components.schemas[`Tx_${type}`];
    assert.ok(s, `Tx_${type}`);
    const fields = Object.keys(TX_HANDLERS.get(type)!.schema.fields);
    assert.equal(s['x-field-order'], ['type', ...fields, 'publicKey']);
    assert.equal(Object.keys(s.properties), ['type', ...fields, 'publicKey', 'hash', 'signature']);
    assert.equal(s.properties.type, { const: type });
    for (const [name, spec] of Object.entries(TX_HANDLERS.get(type)!.schema.fields)) {
      assert.not.ok(s.properties[name]['x-kind'], `${type}.${name}: field kind ${spec.kind} has no JSON Schema mapping`);
      assert.is(s.required.includes(name), !spec.optional, `${type}.${name} required`);
    }
  }
  assert.is(doc.components.schemas.SignedTx.oneOf.length, TX_TYPES.length);
});

t("core's example of every type matches its schema and SignedTx; unknown fields and wrong types do not", () => {
  const check = schemaChecker(doc);
  for (const type of TX_TYPES) {
    const tx = exampleTx(type);
    assert.is(check({ $ref: `#/components/schemas/Tx_${type}` }, tx), null, type);
    assert.is(check({ $ref: '#/components/schemas/Tx' }, tx), null, type);
    assert.ok(check({ $ref: '#/components/schemas/Tx' }, { ...tx, extra: 1 }), `${type} with an unknown field`);
    assert.ok(check({ $ref: `#/components/schemas/Tx_${type}` }, { ...tx, nonce: -1 }), `${type} with a negative nonce`);
  }
});

t.run();
