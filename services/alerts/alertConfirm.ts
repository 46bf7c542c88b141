/**
 * E-mail confirmation. An e-mail subscription starts `unconfirmed`: the node mails its target one
 * message, a link to its own public URL (`<public URL>/api/alerts/confirm/<token>`, 256 random
 * bits, kept only as a hash) and nothing else until the button of the page the link opens (a POST
 * to the same URL) confirms it: opening the link alone, as mail scanners do, confirms nothing. So the node
 * cannot be made to mail alerts to someone who did not ask: a stranger's address gets at most one
 * confirmation mail per pending subscription, with a cap of pending ones per address, and an
 * unconfirmed subscription is removed when its link expires.
 */
import type { OutboxRow, SubRecord } from './alertTypes.ts';

/** The confirmation link of a token. */
function confirmLink(publicUrl: string, token: string): string {
  return `${publicUrl}/api/alerts/confirm/${token}`;
}

/** The outbox row of a subscription's confirmation mail. */
export function confirmRow(sub: SubRecord, token: string, publicUrl: string, now: number, ttlMs: number): OutboxRow {
  const what = sub.params.address ? `${sub.trigger} for ${sub.params.address}` : sub.trigger;
  const text = [
    `Someone asked the Ombra node at ${publicUrl} to send alerts (${what}) to this address.`,
    '',
    'To receive them, open this link and press its Confirm button:',
    confirmLink(publicUrl, token),
    '',
    `Nothing else will be sent to you unless you confirm; it expires on ${new Date(now + ttlMs).toISOString()}.`,
    `If you did not ask for this, ignore this message. Subscription ${sub.id}.`,
  ].join('\n');
  return {
    id: `confirm_${sub.id}`,
    subId: sub.id,
    trigger: sub.trigger,
    kind: 'confirm',
    blockIndex: 0,
    body: '',
    subject: '[Ombra] confirm your alert subscription',
    text,
    attempts: 0,
    nextAt: now,
    createdAt: now,
    lastError: null,
  };
}
