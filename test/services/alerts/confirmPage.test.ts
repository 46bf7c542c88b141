/** The confirmation pages: escaped text, a form that POSTs to the link itself. */
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { confirmPage, escapeHtml, wantsHtml } from '../../../services/alerts/confirmPage.ts';

const t = suite('confirmation pages');

const fromHtml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] as string);

t('escaped text holds no markup characters and reads back as the original', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (s) => {
      const e = escapeHtml(s);
      assert.not.match(e, /[<>"']/);
      assert.is(fromHtml(e), s);
    }),
  );
});

t('the page of a hostile target shows it as text, with one form posting to the same URL', () => {
  const html = confirmPage({ id: 'sub_1', trigger: 'address_tx', address: null, target: '"><script>alert(1)</script>@x.io', expiresAt: 0 });
  assert.not.ok(html.includes('<script>'));
  assert.ok(html.includes('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@x.io'));
  assert.is(html.match(/<form /g)?.length, 1);
  assert.match(html, /<form method="post">/);
  assert.not.match(html, /action=/, 'the form posts to the link it was opened from');
});

t('a browser asks for HTML; fetch, curl and mail clients without it get JSON', () => {
  assert.ok(wantsHtml('text/html,application/xhtml+xml,*/*;q=0.8'));
  assert.not.ok(wantsHtml(undefined));
  assert.not.ok(wantsHtml('*/*'));
  assert.not.ok(wantsHtml('application/json'));
});

t.run();
