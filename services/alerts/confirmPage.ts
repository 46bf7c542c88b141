/**
 * The pages behind an e-mail confirmation link. Opening the link (GET) only shows what would be
 * confirmed and a button; the button's POST confirms. Mail scanners and link previews fetch links
 * with GET, so a GET that confirmed would let them consent for the recipient.
 */

/** What a pending confirmation shows. */
export interface PendingConfirmation {
  id: string;
  trigger: string;
  address: string | null;
  target: string;
  expiresAt: number;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place in HTML text or a quoted attribute. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

/** The page a confirmation link opens: what the subscription sends, and the button that confirms it. */
export function confirmPage(p: PendingConfirmation): string {
  const what = p.address ? `${p.trigger} for ${p.address}` : p.trigger;
  return page(
    'Confirm your Ombra alert subscription',
    `<p>Alerts <strong>${escapeHtml(what)}</strong> will be mailed to <strong>${escapeHtml(p.target)}</strong>.</p>
<p>Nothing is sent until you confirm. This link expires on ${escapeHtml(new Date(p.expiresAt).toISOString())}.</p>
<form method="post"><button type="submit">Confirm subscription ${escapeHtml(p.id)}</button></form>
<p>If you did not ask for this, close this page: nothing will be sent.</p>`,
  );
}

/** The page shown once the button confirmed the subscription. */
export function confirmedPage(id: string): string {
  return page(
    'Subscription confirmed',
    `<p>Subscription <strong>${escapeHtml(id)}</strong> is active: alerts for blocks committed from now on will be mailed.</p>`,
  );
}

/** Whether a request prefers an HTML answer (a browser) over JSON. */
export function wantsHtml(accept: string | undefined): boolean {
  return accept?.includes('text/html') ?? false;
}
