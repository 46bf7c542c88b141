/**
 * Examples in the OpenAPI document: every parameter and every request body has one, and each
 * is accepted by its own schema (Ajv) and its own parser, so an example cannot drift from what
 * the route accepts. The example transactions are real: confirmed in the simulated chain
 * fixture, with a good hash and signature, and every GET route filled in with its examples
 * finds what it asks for on a node holding that chain.
 */
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Endpoint, endpoints, plainPath } from '../../../../api/endpoints/endpoint.ts';
import { EXAMPLE_TASK_SUBMIT, EXAMPLE_TRANSFER } from '../../../../api/endpoints/examples.ts';
import { ENDPOINTS } from '../../../../api/endpoints/index.ts';
import { hashParam } from '../../../../api/endpoints/params.ts';
import { buildOpenApi } from '../../../../api/openapi/document.ts';
import { verifyTx } from '../../../../core/validateTx.ts';
import { DEV_GENESIS } from '../../../helpers/coreSupport.ts';
import { liveSimulatedNode } from '../../../helpers/liveNode.ts';
import { schemaChecker } from '../../../helpers/openapiCheck.ts';
import { errorMessage } from '../../../../core/errors.ts';

/** What is wrong with the examples of a document, one line per fault. */
function documentFaults(doc: any): string[] {
  const check = schemaChecker(doc);
  const faults: string[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) {
        if (p.example === undefined) faults.push(`${at} ${p.in} ${p.name}: no example`);
        else if (check(p.schema, p.example)) faults.push(`${at} ${p.in} ${p.name}: schema refuses ${p.example}`);
      }
      const media = op.requestBody?.content['application/json'];
      if (media && media.example === undefined) faults.push(`${at} body: no example`);
      else if (media && check(media.schema, media.example)) faults.push(`${at} body: schema refuses its example`);
    }
  return faults;
}

/** Examples of definitions their own parsers refuse (parameters get the example as the string a URL carries). */
function parserFaults(defs: Record<string, Endpoint>): string[] {
  const faults: string[] = [];
  const refusal = (f: () => unknown): string | null => {
    try {
      f();
      return null;
    } catch (err) {
      return errorMessage(err);
    }
  };
  for (const [id, e] of Object.entries(defs)) {
    for (const [name, p] of [...Object.entries(e.params ?? {}), ...Object.entries(e.query ?? {}), ...Object.entries(e.headers ?? {})]) {
      const why = p.parse && p.example !== undefined ? refusal(() => p.parse?.(String(p.example))) : null;
      if (why) faults.push(`${id} ${name}: parser refuses ${p.example}: ${why}`);
    }
    const body = e.body;
    const why = body?.parse && body.example !== undefined ? refusal(() => body.parse?.(structuredClone(body.example))) : null;
    if (why) faults.push(`${id} body: parser refuses its example: ${why}`);
  }
  return faults;
}

test('every parameter and request body of every route has an example its schema accepts', () => {
  // Every definition's route (the served document has exactly these: test/system/api/openapi/document.test.ts).
  assert.deepEqual(documentFaults(buildOpenApi(Object.values(ENDPOINTS), { version: '0' })), []);
});

test('every example is accepted by its own parser', () => {
  assert.deepEqual(parserFaults(ENDPOINTS), []);
});

test('a missing example, or one its schema or parser refuses, is a fault', () => {
  const op = (parameters: unknown[], requestBody?: unknown) => ({ get: { parameters, ...(requestBody ? { requestBody } : {}) } });
  const h = { type: 'string', pattern: '^[0-9a-f]{64}$' };
  const json = (media: object) => ({ content: { 'application/json': media } });
  const doc = {
    components: { schemas: {} },
    paths: {
      '/a': op([{ name: 'h', in: 'path', schema: h }]),
      '/b': op([{ name: 'h', in: 'query', schema: h, example: 'nothex' }]),
      '/c': op([], json({ schema: { type: 'object' } })),
      '/d': op([], json({ schema: { type: 'object' }, example: [] })),
      '/e': op([{ name: 'h', in: 'path', schema: h, example: 'a'.repeat(64) }], json({ schema: { type: 'object' }, example: {} })),
    },
  };
  assert.deepEqual(documentFaults(doc), [
    'GET /a path h: no example',
    'GET /b query h: schema refuses nothex',
    'GET /c body: no example',
    'GET /d body: schema refuses its example',
  ]);
  const route = (over: Partial<Endpoint>): Endpoint => ({ method: 'GET', path: '/x/:h', summary: 's', tag: 't', ok: {}, ...over });
  const faults = parserFaults(
    endpoints({
      a: route({ params: { h: { ...hashParam('h'), example: 'nothex' } } }),
      b: route({ params: { h: hashParam('h') } }),
      c: route({ method: 'POST', body: { schema: {}, description: 'c', parse: () => assert.fail('refused'), example: {} } }),
    }),
  );
  assert.deepEqual(faults.length, 2, faults.join('\n'));
  assert.match(faults[0], /^a h: parser refuses nothex: hash must be 64 hex characters/);
  assert.match(faults[1], /^c body: parser refuses its example/);
});

test('the example transactions are confirmed in the simulated chain, their hash and signature good', () => {
  const chain = readFileSync(new URL('../../../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8');
  for (const tx of [EXAMPLE_TRANSFER, EXAMPLE_TASK_SUBMIT]) {
    assert.ok(chain.includes(JSON.stringify(tx)), `${tx.type} ${tx.hash} is in fixtures/simulated-chain.ndjson`);
    assert.equal(verifyTx(structuredClone(tx), { height: 1, genesis: DEV_GENESIS }).hash, tx.hash);
  }
  assert.throws(() => verifyTx({ ...EXAMPLE_TRANSFER, amount: '1' }, { height: 1, genesis: DEV_GENESIS }));
});

// Routes that need something the node issues at run time (a key, an alert token or link, the
// digest of the checkpoint it wrote: test/system/api/openapi/liveRoutes.test.ts asks that one live).
const NOT_FROM_THE_CHAIN = new Set(['getApiKeysMe', 'getApiAlerts', 'getApiAlertsConfirmToken', 'getApiCheckpointDigest']);

test('every GET route filled in with its examples answers 200 on a node holding the simulated chain', async () => {
  const live = await liveSimulatedNode();
  try {
    const misses: string[] = [];
    for (const [id, e] of Object.entries(ENDPOINTS)) {
      if (e.method !== 'GET' || NOT_FROM_THE_CHAIN.has(id) || e.ok.contentType === 'text/event-stream') continue;
      const path = plainPath(e.path).replace(/:([A-Za-z0-9_]+)/g, (_, n) => encodeURIComponent(String(e.params?.[n]?.example)));
      // `cursor` continues from `offset`; a page asks for one of them.
      const query = Object.entries(e.query ?? {}).filter(([n]) => n !== 'cursor');
      const search = new URLSearchParams(query.map(([n, p]): [string, string] => [n, String(p.example)]));
      const res = await fetch(`${live.url}${path}${search.size ? `?${search}` : ''}`);
      await res.body?.cancel();
      if (res.status !== 200) misses.push(`${res.status} ${id} ${path}?${search}`);
    }
    assert.deepEqual(misses, []);
  } finally {
    await live.stop();
  }
});
