/**
 * A fuzz of every write endpoint: 10,000 hostile bodies each (junk JSON, JSON of every shape,
 * near-valid objects). Every answer is a typed `{error, code}` 4xx (or a legitimate success),
 * never a 5xx, and a refusal stores nothing.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openAlertChain, type AlertChain } from '../../helpers/alertKit.ts';
import { snapshot } from '../../helpers/apiSupport.ts';

const RUNS = 10_000;

/** Bodies: raw strings, arbitrary JSON, and objects built from each endpoint's own field names. */
function bodies(fields: string[]): fc.Arbitrary<string> {
  const near = fc
    .dictionary(fc.constantFrom(...fields, 'extra', '__proto__'), fc.jsonValue(), { maxKeys: 8 })
    .map((o) => JSON.stringify(o));
  return fc.oneof(fc.string({ maxLength: 200 }), fc.json({ maxDepth: 3 }), near);
}

const ENDPOINTS: { path: string; fields: string[]; success: number }[] = [
  {
    path: '/api/chain/tx',
    fields: ['type', 'from', 'to', 'amount', 'fee', 'nonce', 'timestamp', 'publicKey', 'hash', 'signature', 'tx'],
    success: 200,
  },
  {
    path: '/api/tasks/submit',
    fields: ['type', 'from', 'taskType', 'prompt', 'fee', 'timeoutMs', 'nonce', 'timestamp', 'publicKey', 'hash', 'signature'],
    success: 200,
  },
  { path: '/api/keys/register', fields: ['tier', 'label'], success: 200 },
  { path: '/api/alerts/subscribe', fields: ['trigger', 'params', 'channel', 'target'], success: 200 },
];

test(`${RUNS} hostile bodies at each write endpoint: typed 4xx errors only, no 5xx, nothing stored from a refusal`, async () => {
  const c: AlertChain = await openAlertChain({ maxSubsPerToken: RUNS, maxSubsPerIp: RUNS });
  try {
    for (const e of ENDPOINTS) {
      await fc.assert(
        fc.asyncProperty(bodies(e.fields), async (body) => {
          const before = { chain: snapshot(c), keys: c.keys.all().length, alerts: c.alerts.pendingCount() };
          const res = await c.app.request(e.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          const text = await res.text();
          if (res.status === e.success) return true;
          if (res.status >= 500 || res.status < 400) return false;
          const json = JSON.parse(text) as { error?: unknown; code?: unknown };
          if (typeof json.error !== 'string' || typeof json.code !== 'string' || Object.keys(json).length !== 2) return false;
          const after = { chain: snapshot(c), keys: c.keys.all().length, alerts: c.alerts.pendingCount() };
          assert.deepEqual(after, before, `${e.path} stored something on ${res.status} ${text.slice(0, 120)}`);
          return true;
        }),
        { numRuns: RUNS },
      );
    }
    for (const method of ['DELETE']) {
      for (const path of ['/api/keys/x', '/api/alerts/x']) {
        const res = await c.app.request(path, { method, headers: { 'X-API-Key': 'junk', 'X-Alert-Token': 'junk' } });
        assert.ok(res.status >= 400 && res.status < 500, `${method} ${path} answered ${res.status}`);
      }
    }
  } finally {
    await c.destroy();
  }
});

test('the bodiless alert writes (enable, secret rotation, confirmation) under hostile ids and tokens: typed 4xx, nothing changes', async () => {
  const c: AlertChain = await openAlertChain({});
  try {
    const sub = await c.app.request('/api/alerts/subscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ trigger: 'miner_block', params: {}, channel: 'webhook', target: 'http://127.0.0.1:9/h' }),
    });
    const { id, token } = (await sub.json()) as { id: string; token: string };
    const listing = async () => (await c.app.request('/api/alerts/', { headers: { 'X-Alert-Token': token } })).text();
    const before = await listing();
    const segment = fc.oneof(fc.string({ maxLength: 80 }), fc.constant(id), fc.stringMatching(/^[0-9a-f]{64}$/));
    const header = fc.oneof(fc.string({ maxLength: 200 }), fc.constant(''), fc.constant(`${token}x`));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('enable', 'secret', 'confirm', 'confirm page'), segment, header, async (route, seg, tok) => {
        const path = route.startsWith('confirm')
          ? `/api/alerts/confirm/${encodeURIComponent(seg)}`
          : `/api/alerts/${encodeURIComponent(seg)}/${route}`;
        // Header values must be valid ByteStrings to be sent at all.
        const headers = /^[\x20-\x7e]*$/.test(tok) ? { 'X-Alert-Token': tok } : {};
        const res = await c.app.request(path, { method: route === 'confirm page' ? 'GET' : 'POST', headers });
        const json = (await res.json()) as { error?: unknown; code?: unknown };
        return res.status >= 400 && res.status < 500 && typeof json.error === 'string' && typeof json.code === 'string';
      }),
      { numRuns: RUNS / 5 },
    );
    assert.equal(await listing(), before, 'the subscription is as it was');
  } finally {
    await c.destroy();
  }
});
