/** /api/alerts: subscribe validation, SSRF refusal at subscribe time, tokens, limits. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChainError, errorMessage } from '../../../core/errors.ts';
import { parseEmail, parseSubscribe, parseWebhookUrl } from '../../../services/alerts/alertParams.ts';
import { openAlertChain, subscribe, type AlertChain } from '../../helpers/alertKit.ts';
import { assertError, assertErrorShape } from '../../helpers/apiSupport.ts';

const ADDR = `ox${'12'.repeat(20)}`;
const HOOK = 'http://127.0.0.1:9/hook';

async function withAlerts(opts: Parameters<typeof openAlertChain>[0], fn: (c: AlertChain) => Promise<void>): Promise<void> {
  const c = await openAlertChain(opts);
  try {
    await fn(c);
  } finally {
    await c.destroy();
  }
}

const raw = async (c: AlertChain, path: string, init?: RequestInit, env?: object) => {
  const res = await c.app.request(path, init, env);
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
};

test('subscribe answers 200 {id, token, trigger, createdAt} with the status and a separate signing secret; the token lists and deletes', () =>
  withAlerts({}, async (c) => {
    const res = await subscribe(c, {
      trigger: 'address_tx',
      params: { address: ADDR.toUpperCase().replace('OX', 'ox') },
      channel: 'webhook',
      target: HOOK,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['createdAt', 'id', 'secret', 'status', 'token', 'trigger']);
    assert.match(res.body.token, /^ombra_alert_[0-9a-f]{48}$/);
    assert.match(res.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(res.body.status, 'active');
    const list = await raw(c, '/api/alerts/', { headers: { 'X-Alert-Token': res.body.token } });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.alerts, [
      {
        id: res.body.id,
        trigger: 'address_tx',
        params: { address: ADDR },
        channel: 'webhook',
        target: HOOK,
        status: 'active',
        createdAt: res.body.createdAt,
        delivered: 0,
        failed: 0,
        pending: 0,
        lastDeliveredAt: null,
        lastFailure: null,
        consecutiveFailures: 0,
        disabledAt: null,
        disabledReason: null,
      },
    ]);
    assert.ok(!JSON.stringify(list.body).includes(res.body.token), 'the token is not echoed');
    assert.ok(!JSON.stringify(list.body).includes(res.body.secret.slice(6)), 'nor the secret');
    const other = await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'webhook', target: HOOK });
    assertError(
      await raw(c, `/api/alerts/${other.body.id}`, { method: 'DELETE', headers: { 'X-Alert-Token': res.body.token } }),
      404,
      'NOT_FOUND',
    );
    const del = await raw(c, `/api/alerts/${res.body.id}`, { method: 'DELETE', headers: { 'X-Alert-Token': res.body.token } });
    assert.deepEqual({ status: del.status, body: del.body }, { status: 200, body: { ok: true, id: res.body.id, removed: true } });
    assertError(await raw(c, '/api/alerts/', { headers: { 'X-Alert-Token': res.body.token } }), 401, 'UNAUTHORIZED');
  }));

test('listing and deleting need a known X-Alert-Token: 401 UNAUTHORIZED otherwise', () =>
  withAlerts({}, async (c) => {
    for (const headers of [{}, { 'X-Alert-Token': '' }, { 'X-Alert-Token': 'nope' }, { 'X-Alert-Token': 'x'.repeat(500) }] as Record<
      string,
      string
    >[]) {
      assertError(await raw(c, '/api/alerts/', { headers }), 401, 'UNAUTHORIZED');
      assertError(await raw(c, '/api/alerts/sub_1', { method: 'DELETE', headers }), 401, 'UNAUTHORIZED');
    }
    assertError(
      await raw(c, '/api/alerts/subscribe', {
        method: 'POST',
        headers: { 'X-Alert-Token': 'nope', 'Content-Type': 'application/json' },
        body: JSON.stringify({ trigger: 'miner_block', channel: 'webhook', target: HOOK }),
      }),
      401,
      'UNAUTHORIZED',
      /unknown X-Alert-Token/,
    );
  }));

test('bad subscribe bodies: 400 with a message naming the field, 413 when large; nothing stored', () =>
  withAlerts({}, async (c) => {
    const ok = { trigger: 'address_tx', params: { address: ADDR }, channel: 'webhook', target: HOOK };
    const cases: [unknown, number, string, RegExp][] = [
      ['{', 400, 'INVALID_JSON', /not valid JSON/],
      ['', 400, 'INVALID_PARAMS', /JSON object/],
      ['[]', 400, 'INVALID_PARAMS', /JSON object/],
      ['null', 400, 'INVALID_PARAMS', /JSON object/],
      [{ ...ok, trigger: 'everything' }, 400, 'INVALID_PARAMS', /trigger must be one of address_tx, miner_block, reward, agent_finished/],
      [{ ...ok, trigger: undefined }, 400, 'INVALID_PARAMS', /trigger must be one of/],
      [{ ...ok, params: undefined }, 400, 'INVALID_PARAMS', /params.address is required for trigger address_tx/],
      [{ ...ok, params: [] }, 400, 'INVALID_PARAMS', /params must be an object/],
      [{ ...ok, params: { address: 'ox12' } }, 400, 'INVALID_PARAMS', /params.address must be an address/],
      [{ ...ok, params: { address: 5 } }, 400, 'INVALID_PARAMS', /params.address must be an address/],
      [{ ...ok, params: { address: ADDR, minAmount: '5' } }, 400, 'INVALID_PARAMS', /unknown field "minAmount"/],
      [
        { trigger: 'agent_finished', params: {}, channel: 'webhook', target: HOOK },
        400,
        'INVALID_PARAMS',
        /params.address is required for trigger agent_finished/,
      ],
      [{ ...ok, channel: 'sms' }, 400, 'INVALID_PARAMS', /channel must be webhook or email/],
      [{ ...ok, target: undefined }, 400, 'INVALID_PARAMS', /target must be a URL/],
      [{ ...ok, target: 'not a url' }, 400, 'INVALID_PARAMS', /whitespace/],
      [{ ...ok, target: 'example.com/hook' }, 400, 'INVALID_PARAMS', /absolute http/],
      [{ ...ok, target: 'ftp://example.com/' }, 400, 'INVALID_PARAMS', /http:\/\/ or https:\/\//],
      [{ ...ok, target: 'http://user:pw@example.com/' }, 400, 'INVALID_PARAMS', /credentials/],
      [{ ...ok, target: 'http://example.com/#x' }, 400, 'INVALID_PARAMS', /fragment/],
      [{ ...ok, target: `http://example.com/${'a'.repeat(2100)}` }, 400, 'INVALID_PARAMS', /at most 2048/],
      [{ ...ok, channel: 'email', target: 'nobody' }, 400, 'INVALID_PARAMS', /e-mail address like/],
      [{ ...ok, extra: 1 }, 400, 'INVALID_PARAMS', /unknown field "extra"/],
      [{ ...ok, target: `http://example.com/${'a'.repeat(4100)}` }, 413, 'PAYLOAD_TOO_LARGE', /larger than 4096/],
    ];
    for (const [body, status, code, msg] of cases) {
      const res = await raw(c, '/api/alerts/subscribe', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      assertError(res, status, code, msg);
    }
  }));

test('e-mail subscriptions are refused clearly when the node has no mail relay', () =>
  withAlerts({}, async (c) => {
    const res = await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'email', target: 'me@example.com' });
    assert.equal(res.status, 400);
    assert.match(res.body.error, /no mail relay \(--smtp-url\)/);
  }));

test('SSRF: with private targets not allowed, loopback, private, link-local, metadata and the like are refused at subscribe time', () =>
  withAlerts({ allowPrivate: false }, async (c) => {
    for (const target of [
      'http://127.0.0.1/h',
      'http://localhost:8080/h',
      'http://[::1]/h',
      'http://10.0.0.5/h',
      'http://192.168.1.1/h',
      'http://172.16.0.1/h',
      'http://100.64.0.1/h',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00:ec2::254]/',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
      'http://224.0.0.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://2130706433/',
      'http://0x7f.1/',
    ]) {
      const res = await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'webhook', target });
      assert.equal(res.status, 400, target);
      assertErrorShape(res.body);
      assert.match(res.body.error, /target refused: .* which webhooks may not reach/, target);
    }
    const unresolvable = await subscribe(c, {
      trigger: 'miner_block',
      params: {},
      channel: 'webhook',
      target: 'http://no-such-host.invalid/h',
    });
    assert.equal(unresolvable.status, 400);
    assert.match(unresolvable.body.error, /does not resolve/);
    const pub = await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'webhook', target: 'http://8.8.8.8/hook' });
    assert.equal(pub.status, 200, 'a public address is accepted');
  }));

test('limits: subscriptions per token and per IP, with clear 400s', () =>
  withAlerts({ maxSubsPerToken: 3, maxSubsPerIp: 5 }, async (c) => {
    const body = { trigger: 'miner_block', params: {}, channel: 'webhook', target: HOOK };
    const first = await subscribe(c, body);
    for (let i = 0; i < 2; i++) assert.equal((await subscribe(c, body, { 'X-Alert-Token': first.body.token })).status, 200);
    const full = await subscribe(c, body, { 'X-Alert-Token': first.body.token });
    assert.equal(full.status, 400);
    assert.match(full.body.error, /already has 3 subscriptions, the most one token may hold/);
    const env = { incoming: { socket: { remoteAddress: '198.51.100.9' } } };
    const post = () =>
      raw(c, '/api/alerts/subscribe', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, env);
    for (let i = 0; i < 5; i++) assert.equal((await post()).status, 200);
    const ipFull = await post();
    assert.equal(ipFull.status, 400);
    assert.match(ipFull.body.error, /this IP already has 5 subscriptions/);
  }));

test('subscriptions survive a restart of the node', async () => {
  const c = await openAlertChain({});
  const sub = await subscribe(c, { trigger: 'reward', params: {}, channel: 'webhook', target: HOOK });
  await c.close();
  const again = await openAlertChain({}, c.dir);
  try {
    const list = await raw(again, '/api/alerts/', { headers: { 'X-Alert-Token': sub.body.token } });
    assert.equal(list.body.alerts[0].id, sub.body.id);
  } finally {
    await again.destroy();
  }
});

test('the signing secret rotates with the token only, shown once; the secret manages nothing', () =>
  withAlerts({}, async (c) => {
    const sub = await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'webhook', target: HOOK });
    const other = await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'webhook', target: HOOK });
    const rotate = (id: string, headers: Record<string, string>) => raw(c, `/api/alerts/${id}/secret`, { method: 'POST', headers });
    assertError(await rotate(sub.body.id, {}), 401, 'UNAUTHORIZED');
    assertError(await rotate(sub.body.id, { 'X-Alert-Token': sub.body.secret }), 401, 'UNAUTHORIZED');
    assertError(await rotate(other.body.id, { 'X-Alert-Token': sub.body.token }), 404, 'NOT_FOUND');
    assertError(await raw(c, '/api/alerts/', { headers: { 'X-Alert-Token': sub.body.secret } }), 401, 'UNAUTHORIZED');
    const r = await rotate(sub.body.id, { 'X-Alert-Token': sub.body.token });
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body).sort(), ['id', 'previousSecretValidUntil', 'secret']);
    assert.match(r.body.secret, /^whsec_/);
    assert.notEqual(r.body.secret, sub.body.secret);
    assert.ok(r.body.previousSecretValidUntil > Date.now() + 23 * 3600_000, 'the old secret signs for 24 h more');
    const again = await rotate(sub.body.id, { 'X-Alert-Token': sub.body.token });
    assert.notEqual(again.body.secret, r.body.secret);
  }));

test('enable: 401 without the token, 404 for another token, idempotent on an active subscription', () =>
  withAlerts({}, async (c) => {
    const sub = await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'webhook', target: HOOK });
    const other = await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'webhook', target: HOOK });
    const enable = (id: string, headers: Record<string, string>) => raw(c, `/api/alerts/${id}/enable`, { method: 'POST', headers });
    assertError(await enable(sub.body.id, {}), 401, 'UNAUTHORIZED');
    assertError(await enable(other.body.id, { 'X-Alert-Token': sub.body.token }), 404, 'NOT_FOUND');
    const ok = await enable(sub.body.id, { 'X-Alert-Token': sub.body.token });
    assert.deepEqual({ status: ok.status, body: ok.body }, { status: 200, body: { ok: true, id: sub.body.id, enabled: true } });
  }));

test('confirmation links: anything but a pending link is 404 NOT_FOUND', () =>
  withAlerts({}, async (c) => {
    for (const tok of ['ab'.repeat(32), 'zz', 'AB'.repeat(32), '0'.repeat(65)])
      for (const method of ['GET', 'POST'])
        assertError(await raw(c, `/api/alerts/confirm/${tok}`, { method }), 404, 'NOT_FOUND', /unknown or expired confirmation link/);
  }));

const refusal = (f: () => unknown): string | null => {
  try {
    f();
    return null;
  } catch (e) {
    assert.ok(e instanceof ChainError, `threw ${errorMessage(e)}`);
    assert.equal((e as ChainError).code, 'INVALID_PARAMS');
    assert.ok((e as ChainError).message.length > 0);
    return (e as ChainError).message;
  }
};

test('property: parseSubscribe accepts exactly well-formed bodies and refuses anything else with INVALID_PARAMS', () => {
  const address = fc.stringMatching(/^ox[0-9a-fA-F]{40}$/);
  const good = fc.oneof(
    fc.record({
      trigger: fc.constant('address_tx'),
      params: fc.record({ address }),
      channel: fc.constant('webhook'),
      target: fc.webUrl({ withFragments: false }),
    }),
    fc.record({
      trigger: fc.constantFrom('miner_block', 'reward'),
      params: fc.option(fc.record({ address }), { nil: undefined }).map((p) => p ?? {}),
      channel: fc.constant('email'),
      target: fc.emailAddress(),
    }),
    fc.record({
      trigger: fc.constant('agent_finished'),
      params: fc.record({ address }),
      channel: fc.constant('webhook'),
      target: fc.constantFrom('https://example.com/h', 'http://a.b:8080/x?y=1'),
    }),
  );
  fc.assert(
    fc.property(good, (body) => {
      // fast-check's web URLs and e-mails cover more than webhooks allow (credentials, very long); skip those
      if (body.channel === 'webhook' && (/@/.test(body.target.split('/')[2] ?? '') || body.target.length > 2048)) return;
      if (body.channel === 'email' && (body.target.length > 254 || !/[A-Za-z]/.test(body.target.split('.').pop()!))) return;
      const r = refusal(() => parseSubscribe(body));
      assert.equal(r, null, `${JSON.stringify(body)} refused: ${r}`);
      const p = parseSubscribe(body);
      if (p.params.address) assert.match(p.params.address, /^ox[0-9a-f]{40}$/);
    }),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(fc.anything(), (body) => {
      let accepted = false;
      try {
        parseSubscribe(body);
        accepted = true;
      } catch (e) {
        assert.ok(e instanceof ChainError && e.code === 'INVALID_PARAMS');
      }
      if (accepted) assert.ok(typeof body === 'object' && body !== null);
    }),
    { numRuns: 500 },
  );
  // mutating one field of a good body into junk is always refused
  fc.assert(
    fc.property(
      fc.constantFrom('trigger', 'params', 'channel', 'target'),
      fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.string()), fc.constant('?')),
      (field, junk) => {
        const body: Record<string, unknown> = {
          trigger: 'address_tx',
          params: { address: ADDR },
          channel: 'webhook',
          target: HOOK,
          [field]: junk,
        };
        assert.ok(refusal(() => parseSubscribe(body)) !== null, `${field}=${JSON.stringify(junk)} accepted`);
      },
    ),
  );
});

test('property: e-mail and URL validators never throw anything but INVALID_PARAMS and never accept CR/LF', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 300 }), (s) => {
      for (const f of [parseEmail, parseWebhookUrl]) {
        const r = refusal(() => f(s));
        if (r === null) assert.ok(!/[\r\n]/.test(s), `accepted ${JSON.stringify(s)}`);
      }
    }),
    { numRuns: 1000 },
  );
});
