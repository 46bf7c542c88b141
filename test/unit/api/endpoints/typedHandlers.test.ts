/**
 * A resource's handlers are checked against its definitions by `tsc` (`npm run typecheck` runs
 * over this file): each `@ts-expect-error` below fails the type check the day the mistake it marks
 * stops being an error. At run time, the router serves every definition by its handler.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endpoints, resource } from '../../../../api/endpoints/endpoint.ts';
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
