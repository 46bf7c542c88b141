/** E-mail targets are confirmed by a link before anything else is mailed to them: a real SMTP server. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { confirmPath, openAlertChain, sleep, startSmtp, subscribe, until, listAlerts, payAndCommit } from '../../../helpers/alertKit.ts';

const STRANGER = `ox${'ef'.repeat(20)}`;
const FAST = [20, 20, 20];

test('an e-mail subscription is mailed its confirmation link and nothing else until the link is followed', async () => {
  const smtp = await startSmtp();
  const c = await openAlertChain({ smtpUrl: smtp.url, retryDelaysMs: FAST, mailFrom: 'Node <alerts@node.test>' });
  try {
    const sub = await subscribe(c, {
      trigger: 'address_tx',
      params: { address: STRANGER },
      channel: 'email',
      target: 'victim@example.com',
    });
    assert.equal(sub.status, 200);
    assert.equal(sub.body.status, 'unconfirmed');
    assert.equal(sub.body.secret, undefined, 'e-mail is not signed: no secret');
    await until(() => smtp.mails.length === 1, 8000, 'confirmation mail');
    const mail = smtp.mails[0];
    assert.deepEqual(mail.to, ['victim@example.com']);
    assert.match(mail.raw, /^Subject: \[Ombra\] confirm your alert subscription/m);
    const path = confirmPath(mail);
    assert.ok(path, 'the mail carries a link');
    assert.ok(mail.raw.replace(/=\r?\n/g, '').includes(`http://node.test${path}`), 'the link is on the node public URL');
    // Blocks that would fire the alert: nothing is mailed, nothing waits.
    for (let i = 0; i < 3; i++) await payAndCommit(c, STRANGER);
    await sleep(300);
    assert.equal(smtp.mails.length, 1, 'only the confirmation mail');
    assert.equal(c.alerts.pendingCount(), 0);
    let [s] = await listAlerts(c, sub.body.token);
    assert.deepEqual({ status: s.status, pending: s.pending, delivered: s.delivered }, { status: 'unconfirmed', pending: 0, delivered: 0 });
    // The owner cannot skip the link, and a guessed link confirms nothing.
    const en = await c.app.request(`/api/alerts/${sub.body.id}/enable`, { method: 'POST', headers: { 'X-Alert-Token': sub.body.token } });
    assert.equal(en.status, 400);
    assert.equal((await c.app.request(`/api/alerts/confirm/${'0'.repeat(64)}`, { method: 'POST' })).status, 404);
    assert.equal((await c.app.request(`/api/alerts/confirm/${'0'.repeat(64)}`)).status, 404);
    // Opening the link, as a mail scanner or a browser does, shows what it would confirm and confirms nothing.
    const peek = await c.app.request(path as string);
    assert.equal(peek.status, 200);
    const seen = (await peek.json()) as { expiresAt: number };
    assert.ok(seen.expiresAt > Date.now(), 'the link has not expired');
    assert.deepEqual(
      { ...seen, expiresAt: 0 },
      {
        id: sub.body.id,
        trigger: 'address_tx',
        address: STRANGER,
        target: 'victim@example.com',
        expiresAt: 0,
        status: 'unconfirmed',
        confirm: 'POST this URL',
      },
    );
    const page = await c.app.request(path as string, { headers: { Accept: 'text/html,application/xhtml+xml' } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self'/);
    const html = await page.text();
    assert.match(html, /<form method="post"><button type="submit">Confirm subscription /);
    assert.ok(html.includes('victim@example.com'));
    [s] = await listAlerts(c, sub.body.token);
    assert.equal(s.status, 'unconfirmed', 'opening the link twice confirmed nothing');
    // The page's button: a form POST from a browser answers a page; a client's POST answers JSON.
    const ok = await c.app.request(path as string, { method: 'POST', headers: { Accept: 'text/html' } });
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /Subscription confirmed/);
    assert.equal((await c.app.request(path as string, { method: 'POST' })).status, 404, 'a link confirms once');
    assert.equal((await c.app.request(path as string)).status, 404, 'a used link shows nothing');
    [s] = await listAlerts(c, sub.body.token);
    assert.equal(s.status, 'active');
    // From now on alerts are mailed, for blocks after the confirmation only.
    await payAndCommit(c, STRANGER);
    await until(() => smtp.mails.length === 2, 8000, 'alert mail');
    assert.match(smtp.mails[1].raw, /^Subject: \[Ombra\] address_tx: TRANSFER/m);
    await until(() => c.alerts.pendingCount() === 0, 5000, 'delivery recorded');
    await sleep(200);
    assert.equal(smtp.mails.length, 2, 'the blocks before the confirmation fired nothing');
    [s] = await listAlerts(c, sub.body.token);
    assert.equal(s.delivered, 1);
  } finally {
    await c.destroy();
    await smtp.close();
  }
});

test('one address has at most 3 subscriptions waiting for confirmation (429 beyond); an expired link is removed with its subscription', async () => {
  const smtp = await startSmtp();
  let now = Date.now();
  const c = await openAlertChain({ smtpUrl: smtp.url, retryDelaysMs: FAST, clock: () => now, confirmTtlMs: 60_000 });
  try {
    const body = { trigger: 'miner_block', params: {}, channel: 'email', target: 'someone@example.org' };
    const first = await subscribe(c, body);
    for (let i = 0; i < 2; i++) assert.equal((await subscribe(c, body)).status, 200);
    const over = await subscribe(c, body);
    assert.equal(over.status, 429);
    assert.equal(over.body.code, 'RATE_LIMITED');
    assert.equal((await subscribe(c, { ...body, target: 'other@example.org' })).status, 200, 'another address is not held back');
    await until(() => smtp.mails.length === 4, 8000, 'four confirmation mails');
    await sleep(200);
    assert.equal(smtp.mails.length, 4, 'the refused subscription mailed nothing');
    const link = smtp.mails.map(confirmPath).find((p, i) => p && smtp.mails[i].to[0] === 'someone@example.org') as string;
    now += 60_001;
    assert.equal((await c.app.request(link)).status, 404, 'expired');
    // The next subscribe sweeps the expired ones; the address may ask again once its day of mails has passed.
    assert.equal((await subscribe(c, body)).status, 429, 'three mails today already');
    now += 24 * 3600_000;
    assert.equal((await subscribe(c, body)).status, 200);
    const res = await c.app.request('/api/alerts/', { headers: { 'X-Alert-Token': first.body.token } });
    assert.equal(res.status, 401, 'the expired subscription and its token are gone');
  } finally {
    await c.destroy();
    await smtp.close();
  }
});
