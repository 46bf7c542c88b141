/**
 * The catalog of route definitions: an operation id or a route defined twice, or a path whose
 * parameters its definition does not declare, is refused when the catalog is built; the
 * served document's operation ids are therefore unique.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalog, type Endpoint } from '../../../../api/endpoints/endpoint.ts';
import { ENDPOINTS } from '../../../../api/endpoints/index.ts';
import { buildOpenApi } from '../../../../api/openapi/document.ts';

const route = (method: Endpoint['method'], path: string, params?: Endpoint['params']): Endpoint => ({
  method,
  path,
  summary: 's',
  tag: 't',
  ok: {},
  ...(params ? { params } : {}),
});

test('refuses a second definition of an operation id', () => {
  assert.throws(() => catalog({ getX: route('GET', '/x') }, { getX: route('GET', '/y') }), /operation id getX is defined twice/);
});

test('refuses a second definition of a method and path', () => {
  assert.throws(() => catalog({ a: route('GET', '/x') }, { b: route('GET', '/x') }), /GET \/x is defined twice/);
  catalog({ a: route('GET', '/x') }, { b: route('POST', '/x') });
});

test("refuses a definition whose parameters are not its path's", () => {
  assert.throws(() => catalog({ a: route('GET', '/x/:id') }), /path parameters/);
  assert.throws(() => catalog({ a: route('GET', '/x', { id: { schema: {}, description: 'd' } }) }), /path parameters/);
});

test("every operation id of the node's document is unique", () => {
  const doc = buildOpenApi(Object.values(ENDPOINTS), { version: '0' }) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
  assert.equal(ids.length, Object.keys(ENDPOINTS).length);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(ids.includes('getWebAlias') && ids.includes('getWebAliasPath'));
});
