/** The confirmation pages: escaped text, a form that POSTs to the link itself. */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { confirmPage, escapeHtml, wantsHtml } from '../../../../services/alerts/confirmPage.ts';

const fromHtml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] as string);

test('escaped text holds no markup characters and reads back as the original', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (s) => {
      const e = escapeHtml(s);
      assert.doesNotMatch(e, /[<>"']/);
      assert.equal(fromHtml(e), s);
    }),
  );
});

test('the page of a hostile target shows it as text, with one form posting to the same URL', () => {
  const html = confirmPage({ id: 'sub_1', trigger: 'address_tx', address: null, target: '"><script>alert(1)</script>@x.io', expiresAt: 0 });
  assert.ok(!html.includes('<script>'));
  assert.ok(html.includes('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@x.io'));
  assert.equal(html.match(/<form /g)?.length, 1);
  assert.match(html, /<form method="post">/);
  assert.doesNotMatch(html, /action=/, 'the form posts to the link it was opened from');
});

test('a browser asks for HTML; fetch, curl and mail clients without it get JSON', () => {
  assert.ok(wantsHtml('text/html,application/xhtml+xml,*/*;q=0.8'));
  assert.ok(!wantsHtml(undefined));
  assert.ok(!wantsHtml('*/*'));
  assert.ok(!wantsHtml('application/json'));
});
