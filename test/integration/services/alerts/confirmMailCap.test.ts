/**
 * The confirmation mails one mailbox gets in a day are capped whatever its subscriptions do:
 * delete and resubscribe, case and `+tag` and dot variants, a restart. A real SMTP server counts.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mailboxOf } from '../../../../services/alerts/confirmMailCap.ts';
import { openAlertChain, sleep, startSmtp, subscribe, until } from '../../../helpers/alertKit.ts';

const FAST = [20, 20, 20];
const VARIANTS = ['victim@example.com', 'Victim@Example.com', 'victim+x@example.com', 'VICTIM+alerts@example.com', 'v.ictim@example.com'];

test('subscribe, delete, subscribe again: one mailbox gets at most 3 confirmation mails a day, across variants and a restart', async () => {
  const smtp = await startSmtp();
  let now = Date.now();
  const c = await openAlertChain({ smtpUrl: smtp.url, retryDelaysMs: FAST, clock: () => now });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const target = VARIANTS[i % VARIANTS.length];
      const sub = await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'email', target });
      statuses.push(sub.status);
      if (sub.status >= 300) {
        assert.equal(sub.body.code, 'RATE_LIMITED');
        continue;
      }
      const mailed = statuses.filter((x) => x < 300).length;
      await until(() => smtp.mails.length === mailed, 8000, `confirmation mail ${mailed}`);
      const del = await c.app.request(`/api/alerts/${sub.body.id}`, { method: 'DELETE', headers: { 'X-Alert-Token': sub.body.token } });
      assert.equal(del.status, 200);
    }
    await until(() => smtp.mails.length >= 3, 8000, 'three confirmation mails');
    await sleep(300);
    assert.equal(smtp.mails.length, 3, `mails sent for ${statuses}`);
    assert.equal(statuses.filter((s) => s < 300).length, 3, String(statuses));
    // Another mailbox is not held back.
    assert.ok((await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'email', target: 'other@example.com' })).status < 300);
    await until(() => smtp.mails.length === 4, 8000, 'the other address');
    // A restart keeps the count.
    await c.reopenAlerts({ smtpUrl: smtp.url, retryDelaysMs: FAST, clock: () => now });
    const after = await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'email', target: 'victim@example.com' });
    assert.equal(after.status, 429);
    assert.match(after.body.error, /3 confirmation mails in the last 24 hours/);
    // A day later the mailbox may be asked again.
    now += 24 * 3600_000 + 1;
    assert.ok((await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'email', target: 'victim@example.com' })).status < 300);
    await until(() => smtp.mails.length === 5, 8000, 'the next day');
  } finally {
    await c.destroy();
    await smtp.close();
  }
});

test('mailboxOf folds case, +tags, dots and googlemail.com, and keeps domains apart', () => {
  assert.equal(mailboxOf(' V.ictim+Alerts@Example.COM '), 'victim@example.com');
  assert.equal(mailboxOf('a.b+c+d@googlemail.com'), 'ab@gmail.com');
  assert.notEqual(mailboxOf('victim@example.com'), mailboxOf('victim@example.org'));
  const local = fc.stringMatching(/^[a-z0-9]{1,12}$/);
  fc.assert(
    fc.property(local, local, fc.constantFrom('example.com', 'mail.test'), (name, tag, domain) => {
      const m = mailboxOf(`${name}@${domain}`);
      const dotted = `${name.slice(0, 1)}.${name.slice(1)}`;
      return [`${name.toUpperCase()}@${domain.toUpperCase()}`, `${name}+${tag}@${domain}`, `${dotted}@${domain}`].every(
        (v) => mailboxOf(v) === m,
      );
    }),
  );
});
