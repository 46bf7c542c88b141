/**
 * A resource's handlers are checked against its definitions by `tsc` (`npm run typecheck` runs
 * over this file): each `@ts-expect-error` below fails the type check the day the mistake it marks
 * stops being an error. At run time, the router serves every definition by its handler.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Context } from 'hono';
import { endpoints, resource } from '../../../../api/endpoints/endpoint.ts';
import { ALERT_ENDPOINTS } from '../../../../api/resources/alerts/alertEndpoints.ts';
import { KEY_ENDPOINTS } from '../../../../api/resources/keys/keyEndpoints.ts';
import { METRICS_ENDPOINTS } from '../../../../api/resources/operator/operatorEndpoints.ts';
import { lit, obj, oneOf, uint } from '../../../../queries/schemas/shapes.ts';

const DEFS = endpoints({
  getHeight: { method: 'GET', path: '/height', tag: 't', summary: 'a height', ok: { schema: obj({ height: uint }) } },
  getState: { method: 'GET', path: '/state', tag: 't', summary: 'a state', ok: { schema: obj({ ok: lit(true), state: oneOf('a', 'b') }) } },
});

test('a resource serves each definition by its handler', async () => {
  const app = resource(DEFS, {
    getHeight: (c) => c.json({ height: 7 }),
    getState: (c) => c.json({ ok: true as const, state: 'b' as const }),
  });
  assert.deepEqual(await (await app.request('/height')).json(), { height: 7 });
  assert.deepEqual(await (await app.request('/state')).json(), { ok: true, state: 'b' });
});

test('an answer of the wrong shape, a missing handler and an extra one fail the type check', () => {
  const wrongShape = () =>
    resource(DEFS, {
      // @ts-expect-error: `height` is a number in the definition
      getHeight: (c) => c.json({ height: 'seven' }),
      // @ts-expect-error: `state` is one of 'a', 'b'
      getState: (c) => c.json({ ok: true as const, state: 'c' as const }),
    });
  const missing = () =>
    // @ts-expect-error: getState has no handler
    resource(DEFS, { getHeight: (c) => c.json({ height: 1 }) });
  const extra = () =>
    resource(DEFS, {
      getHeight: (c) => c.json({ height: 1 }),
      getState: (c) => c.json({ ok: true as const, state: 'a' as const }),
      // @ts-expect-error: no definition getOther
      getOther: (c) => c.json({}),
    });
  // An error status may answer {error, code} whatever the success answer is.
  const error = () =>
    resource(DEFS, {
      getHeight: (c) => c.json({ error: 'no', code: 'NOT_FOUND' }, 404),
      getState: (c) => c.json({ ok: true as const, state: 'a' as const }),
    });
  for (const build of [wrongShape, missing, extra, error]) assert.equal(typeof build, 'function');
  assert.equal(error().routes.length, 2);
});

/** Key handlers that answer fixed records of their definitions' shapes. */
const KEY_HANDLERS = {
  postApiKeysRegister: (c: Context) => c.json({ id: 'key_1', key: 'ombra_live_x', tier: 1, label: 'l', createdAt: 5 }),
  getApiKeysMe: (c: Context) => c.json({ keys: [] }),
  deleteApiKeysId: (c: Context, { params }: { params: { id: string } }) =>
    c.json({ ok: true as const, id: params.id, revoked: true as const, keysRevoked: 2 }),
};

test('the key resource is served by handlers typed by its definitions', async () => {
  const app = resource(KEY_ENDPOINTS, KEY_HANDLERS);
  assert.equal(app.routes.length, Object.keys(KEY_ENDPOINTS).length);
  const res = await app.request('/api/keys/key_9', { method: 'DELETE' });
  assert.deepEqual(await res.json(), { ok: true, id: 'key_9', revoked: true, keysRevoked: 2 });
});

test('a key or alert handler of the wrong shape, a missing one and an extra one fail the type check', () => {
  const wrongKey = () =>
    resource(KEY_ENDPOINTS, {
      ...KEY_HANDLERS,
      // @ts-expect-error: `keysRevoked` is a count, not a string
      deleteApiKeysId: (c) => c.json({ ok: true as const, id: 'k', revoked: true as const, keysRevoked: '2' }),
    });
  const wrongAlert = () =>
    resource(ALERT_ENDPOINTS, {
      ...ALERT_HANDLERS,
      // @ts-expect-error: a removal answers `removed: true`
      deleteApiAlertsId: (c) => c.json({ ok: true as const, id: 'sub_1', removed: false }),
    });
  const { deleteApiAlertsId: _removed, ...withoutDelete } = ALERT_HANDLERS;
  // @ts-expect-error: deleteApiAlertsId has no handler
  const missing = () => resource(ALERT_ENDPOINTS, withoutDelete);
  // @ts-expect-error: no definition postApiKeysRotate
  const extra = () => resource(KEY_ENDPOINTS, { ...KEY_HANDLERS, postApiKeysRotate: (c: Context) => c.json({}) });
  for (const build of [wrongKey, wrongAlert, missing, extra]) assert.equal(typeof build, 'function');
  // The confirmation link answers a browser a page, others JSON: both are its definition's.
  assert.equal(resource(ALERT_ENDPOINTS, ALERT_HANDLERS).routes.length, Object.keys(ALERT_ENDPOINTS).length);
});

/** Alert handlers answering fixed records of their definitions' shapes (the confirmation link: a page or JSON). */
const ALERT_HANDLERS = {
  postApiAlertsSubscribe: (c: Context) =>
    c.json({ id: 'sub_1', token: 't', trigger: 'address_tx', createdAt: 1, status: 'active' as const }),
  getApiAlertsConfirmToken: (c: Context) =>
    c.req.header('accept') === 'text/html'
      ? c.body('<p>confirm</p>', 200)
      : c.json({
          id: 'sub_1',
          trigger: 'address_tx',
          address: null,
          target: 'a@b.c',
          expiresAt: 2,
          status: 'unconfirmed' as const,
          confirm: 'POST',
        }),
  postApiAlertsConfirmToken: (c: Context) => c.json({ ok: true as const, id: 'sub_1', confirmed: true as const }),
  postApiAlertsIdEnable: (c: Context) => c.json({ ok: true as const, id: 'sub_1', enabled: true as const }),
  postApiAlertsIdSecret: (c: Context) => c.json({ id: 'sub_1', secret: 'whsec_x', previousSecretValidUntil: 3 }),
  getApiAlerts: (c: Context) => c.json({ alerts: [] }),
  deleteApiAlertsId: (c: Context) => c.json({ ok: true as const, id: 'sub_1', removed: true as const }),
};

test('a route that answers text may answer a body or an error, not JSON at a success status', async () => {
  const text = resource(METRICS_ENDPOINTS, { getMetrics: (c) => c.text('ombra_height 7\n') });
  assert.equal(await (await text.request('/metrics')).text(), 'ombra_height 7\n');
  const unavailable = () => resource(METRICS_ENDPOINTS, { getMetrics: (c) => c.json({ error: 'no metrics', code: 'UNAVAILABLE' }, 503) });
  // @ts-expect-error: /metrics declares text/plain; a JSON body at 200 contradicts it
  const json = () => resource(METRICS_ENDPOINTS, { getMetrics: (c) => c.json({ height: 7 }) });
  for (const build of [unavailable, json]) assert.equal(typeof build, 'function');
  assert.equal(unavailable().routes.length, 1);
});
