/**
 * Issue 34 row 10: webhook signing secrets are sealed at rest under the node's secrets key. The
 * stored record holds no secret in clear, the database files hold none, a webhook still verifies
 * with the secret shown at subscribe and at rotation, a record stored in clear is sealed when the
 * node loads it, and a sealed secret with the wrong key fails loudly instead of signing wrong.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSecret, sealSecret } from '../../../../services/alerts/secretSeal.ts';
import { DEV_KEYS } from '../../../helpers/testChain.ts';
import { openAlertChain, payAndCommit, startReceiver, subscribe, until, verifySignature } from '../../../helpers/alertKit.ts';

/** Every byte of the database's files, as latin1 text (a secret in clear shows as itself). */
function dbBytes(dir: string): string {
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f)).toString('latin1'))
    .join('');
}

test('seal and open: a round trip, a fresh IV each time, a wrong key or a changed byte refused', () => {
  const key = randomBytes(32);
  const a = sealSecret(key, 'whsec_abc');
  assert.match(a, /^sealed:v1:/);
  assert.notEqual(a, sealSecret(key, 'whsec_abc'));
  assert.equal(openSecret(key, a), 'whsec_abc');
  assert.throws(() => openSecret(randomBytes(32), a));
  assert.throws(() => openSecret(key, `${a.slice(0, -2)}AA`));
  assert.throws(() => openSecret(undefined, a), /no secrets key/);
  assert.equal(sealSecret(undefined, 'whsec_abc'), 'whsec_abc');
});

test('with a secrets key the record and the database hold no secret in clear, and deliveries verify before and after a rotation', async () => {
  const key = randomBytes(32);
  const chain = await openAlertChain({ secretsKey: key });
  const rx = await startReceiver();
  try {
    const address = DEV_KEYS[7].address;
    const sub = await subscribe(chain, { trigger: 'address_tx', params: { address }, channel: 'webhook', target: `${rx.url}/hook` });
    assert.equal(sub.status, 200, JSON.stringify(sub.body));
    const secret = sub.body.secret as string;
    assert.match(secret, /^whsec_/);
    const stored = (await chain.node.store.sublevel('local:alerts:subs').get(sub.body.id)) as { secret: string };
    assert.match(stored.secret, /^sealed:v1:/);
    await payAndCommit(chain, address);
    await until(() => rx.got.length >= 1, 10_000, 'first delivery');
    assert.ok(verifySignature(secret, rx.got[0]), 'signed with the secret shown at subscribe');
    const rotated = await chain.app.request(`/api/alerts/${sub.body.id}/secret`, {
      method: 'POST',
      headers: { 'X-Alert-Token': sub.body.token },
    });
    assert.equal(rotated.status, 200, await rotated.clone().text());
    const next = ((await rotated.json()) as { secret: string }).secret;
    await payAndCommit(chain, address);
    await until(() => rx.got.length >= 2, 10_000, 'second delivery');
    assert.ok(verifySignature(next, rx.got[1]) && verifySignature(secret, rx.got[1]), 'both secrets sign in the grace period');
    await chain.close();
    const raw = dbBytes(join(chain.dir, 'db'));
    assert.ok(raw.includes(sub.body.id), 'the record is in the files read');
    for (const s of [secret, next]) assert.ok(!raw.includes(s.slice(6)), 'a secret in clear in the database files');
  } finally {
    await rx.close();
    await chain.destroy().catch(() => undefined);
  }
});

test('a record stored in clear (before sealing) is sealed when the node loads it with a key, and still signs', async () => {
  const chain = await openAlertChain();
  const rx = await startReceiver();
  try {
    const address = DEV_KEYS[8].address;
    const sub = await subscribe(chain, { trigger: 'address_tx', params: { address }, channel: 'webhook', target: `${rx.url}/hook` });
    const subs = chain.node.store.sublevel('local:alerts:subs');
    assert.equal(((await subs.get(sub.body.id)) as { secret: string }).secret, sub.body.secret, 'no key: kept as before');
    await chain.reopenAlerts({ secretsKey: randomBytes(32) });
    assert.match(((await subs.get(sub.body.id)) as { secret: string }).secret, /^sealed:v1:/);
    await payAndCommit(chain, address);
    await until(() => rx.got.length >= 1, 10_000, 'delivery');
    assert.ok(verifySignature(sub.body.secret, rx.got[0]));
  } finally {
    await rx.close();
    await chain.destroy();
  }
});
