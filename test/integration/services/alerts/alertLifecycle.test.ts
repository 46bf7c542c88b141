/** Subscription lifecycle: disabled after a run of failures and re-enabled by the owner; signing secrets rotated; old records upgraded. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  answer,
  openAlertChain,
  sleep,
  startReceiver,
  subscribe,
  until,
  verifySignature,
  listAlerts,
  payAndCommit,
} from '../../../helpers/alertKit.ts';

const STRANGER = `ox${'ce'.repeat(20)}`;
const FAST = [10, 10, 10];

test('a run of failed attempts disables a subscription; it fires nothing until its owner re-enables it, then only later blocks', async () => {
  let failing = true;
  const r = await startReceiver((n, req, res) => answer(failing ? 503 : 200)(n, req, res));
  const c = await openAlertChain({ retryDelaysMs: FAST, disableAfterFailures: 3 });
  try {
    const sub = await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
    await payAndCommit(c, STRANGER);
    // Retries were left, so the row goes only because the subscription was disabled.
    await until(() => r.got.length === 3 && c.alerts.pendingCount() === 0, 5000, 'three failed attempts, then disabled');
    const [s] = await listAlerts(c, sub.body.token);
    assert.equal(s.consecutiveFailures, 3);
    assert.match(s.disabledReason, /^3 consecutive failed attempts; last: HTTP 503$/);
    assert.equal(typeof s.disabledAt, 'number');
    assert.equal(s.pending, 0, 'its waiting delivery went with it');
    assert.equal(c.alerts.pendingCount(), 0);
    failing = false;
    await payAndCommit(c, STRANGER);
    await sleep(200);
    assert.equal(r.got.length, 3, 'a disabled subscription fires nothing');
    const en = await c.app.request(`/api/alerts/${sub.body.id}/enable`, { method: 'POST', headers: { 'X-Alert-Token': sub.body.token } });
    assert.deepEqual(await en.json(), { ok: true, id: sub.body.id, enabled: true });
    const [back] = await listAlerts(c, sub.body.token);
    assert.deepEqual(
      { status: back.status, failures: back.consecutiveFailures, at: back.disabledAt, why: back.disabledReason },
      { status: 'active', failures: 0, at: null, why: null },
    );
    await payAndCommit(c, STRANGER);
    await until(() => r.got.length === 4 && c.alerts.pendingCount() === 0, 5000, 'delivered after re-enabling');
    await sleep(100);
    assert.equal(r.got.length, 4, 'only the block after re-enabling');
    assert.equal(JSON.parse(r.got[3].body).blockIndex, c.node.head().index);
  } finally {
    await c.destroy();
    await r.close();
  }
});

test('failures separated by a success do not add up', async () => {
  const r = await startReceiver((n, req, res) => answer(n % 2 === 0 ? 500 : 200)(n, req, res));
  const c = await openAlertChain({ retryDelaysMs: FAST, disableAfterFailures: 2 });
  try {
    const sub = await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
    for (let i = 0; i < 4; i++) {
      await payAndCommit(c, STRANGER);
      await until(() => r.got.length === 2 * (i + 1) && c.alerts.pendingCount() === 0, 5000, `delivery ${i}`);
    }
    const [s] = await listAlerts(c, sub.body.token);
    assert.deepEqual(
      { status: s.status, delivered: s.delivered, failures: s.consecutiveFailures },
      { status: 'active', delivered: 4, failures: 0 },
    );
  } finally {
    await c.destroy();
    await r.close();
  }
});

test('after a rotation deliveries carry the new signature and, for the grace period, the old one; never the token', async () => {
  let now = Date.now();
  const r = await startReceiver(answer(200));
  const c = await openAlertChain({ retryDelaysMs: FAST, clock: () => now, secretGraceMs: 3600_000 });
  try {
    const sub = await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
    const rot = await c.app.request(`/api/alerts/${sub.body.id}/secret`, { method: 'POST', headers: { 'X-Alert-Token': sub.body.token } });
    const { secret } = (await rot.json()) as { secret: string };
    await payAndCommit(c, STRANGER);
    await until(() => r.got.length === 1, 5000, 'first delivery');
    assert.equal(String(r.got[0].headers['webhook-signature']).split(' ').length, 2, 'two signatures in grace');
    assert.ok(verifySignature(secret, r.got[0]), 'the new secret verifies');
    assert.ok(verifySignature(sub.body.secret, r.got[0]), 'the old one still verifies');
    assert.ok(!verifySignature(sub.body.token, r.got[0]), 'the token never signs');
    now += 3600_001;
    await payAndCommit(c, STRANGER);
    await until(() => r.got.length === 2, 5000, 'second delivery');
    assert.equal(String(r.got[1].headers['webhook-signature']).split(' ').length, 1);
    assert.ok(verifySignature(secret, r.got[1]));
    assert.ok(!verifySignature(sub.body.secret, r.got[1]), 'the old secret no longer verifies after its grace');
  } finally {
    await c.destroy();
    await r.close();
  }
});

test('a subscription stored before signing secrets keeps its token as the secret receivers have, and is stored without it', async () => {
  const r = await startReceiver(answer(200));
  const c = await openAlertChain({ retryDelaysMs: FAST });
  try {
    const sub = await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
    const subsDb = c.node.store.sublevel('local:alerts:subs');
    const stored = (await subsDb.get(sub.body.id)) as Record<string, unknown>;
    // The shape a node before this version wrote: the token in clear, no lifecycle fields.
    const legacyToken = sub.body.token as string;
    const old: Record<string, unknown> = { ...stored, token: legacyToken };
    for (const k of [
      'secret',
      'previousSecret',
      'previousSecretUntil',
      'status',
      'confirmHash',
      'confirmExpiresAt',
      'consecutiveFailures',
      'disabledAt',
      'disabledReason',
    ])
      delete old[k];
    await subsDb.put(sub.body.id, old);
    await c.reopenAlerts({ retryDelaysMs: FAST });
    const upgraded = (await subsDb.get(sub.body.id)) as Record<string, unknown>;
    assert.equal(upgraded.token, undefined, 'the token is no longer stored');
    assert.equal(upgraded.status, 'active');
    await payAndCommit(c, STRANGER);
    await until(() => r.got.length === 1, 5000, 'delivery');
    assert.ok(verifySignature(legacyToken, r.got[0]), 'signed as before, so its receiver keeps verifying');
    assert.equal((await listAlerts(c, legacyToken)).length, 1, 'the token still manages it');
  } finally {
    await c.destroy();
    await r.close();
  }
});
