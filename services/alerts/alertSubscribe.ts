/**
 * Creating an alert subscription (AlertService.subscribe): the target checked, then the caps of
 * the token, of the client's IP and of a mailbox's unconfirmed subscriptions and daily
 * confirmation mails; the record is written with its confirmation mail, if any, in one batch.
 */
import { ChainError } from '../../core/errors.ts';
import type { AlertPorts } from '../../node/ports.ts';
import type { Rows } from '../../projections/store.ts';
import { newSubRecord, type AlertBook } from './alertBook.ts';
import { confirmRow } from './alertConfirm.ts';
import type { Trigger } from './alertMatch.ts';
import type { AlertOutbox } from './alertOutbox.ts';
import { newConfirmToken, newToken, sha } from './alertSecrets.ts';
import type { AlertOptions } from './alertTypes.ts';
import { mailboxOf, type ConfirmMailCap } from './confirmMailCap.ts';
import { checkTarget } from './targetCheck.ts';

/** The alert service's parts a subscription is made with. */
export interface SubscribeDeps {
  readonly opts: AlertOptions;
  readonly book: AlertBook;
  readonly outbox: AlertOutbox;
  readonly mailCap: ConfirmMailCap;
  /** Where subscriptions are kept (`local:alerts:subs`). */
  readonly subsDb: Rows;
  readonly store: AlertPorts['store'];
  /** The head's height. */
  readonly height: () => number;
  /** The base URL confirmation links point to. */
  readonly publicUrl: () => string;
}

/**
 * Creates a subscription. With `token` (a known X-Alert-Token) it joins that token's
 * subscriptions; otherwise a new token is issued. A webhook gets its signing secret (shown only
 * here); an e-mail target is mailed a confirmation link and gets nothing else until it is followed.
 */
export async function alertSubscribe(
  d: SubscribeDeps,
  input: { trigger: Trigger; params: { address?: string }; channel: 'webhook' | 'email'; target: string },
  ip: string,
  token?: string,
) {
  await checkTarget(input.channel, input.target, { mailEnabled: d.outbox.mailEnabled, allowPrivate: d.opts.allowPrivate });
  if (token !== undefined && !d.book.knowsToken(token))
    throw new ChainError('UNAUTHORIZED', 'unknown X-Alert-Token: omit it to get a new token');
  const tok = token ?? newToken();
  const tokenHash = sha(tok);
  if (d.book.countOf(tokenHash) >= d.opts.maxSubsPerToken)
    throw new ChainError('INVALID_PARAMS', `this token already has ${d.opts.maxSubsPerToken} subscriptions, the most one token may hold`);
  await d.book.sweepUnconfirmed();
  let fromIp = 0;
  let waiting = 0;
  const mailbox = input.channel === 'email' ? mailboxOf(input.target) : null;
  for (const s of d.book.all()) {
    if (s.ip === ip) fromIp++;
    if (s.status === 'unconfirmed' && s.channel === 'email' && mailboxOf(s.target) === mailbox) waiting++;
  }
  if (fromIp >= d.opts.maxSubsPerIp)
    throw new ChainError('INVALID_PARAMS', `this IP already has ${d.opts.maxSubsPerIp} subscriptions, the most one IP may hold`);
  if (input.channel === 'email' && waiting >= d.opts.maxUnconfirmedPerEmail)
    throw new ChainError('RATE_LIMITED', `this address already has ${waiting} subscriptions waiting for confirmation`);
  const now = d.opts.clock();
  const email = input.channel === 'email';
  const confirmToken = email ? newConfirmToken() : null;
  const { rec, secret } = newSubRecord(input, {
    tokenHash,
    ip,
    now,
    height: d.height(),
    confirmToken,
    ttlMs: d.opts.confirmTtlMs,
    secretsKey: d.opts.secretsKey,
  });
  const mail = confirmToken ? confirmRow(rec, confirmToken, d.publicUrl(), now, d.opts.confirmTtlMs) : null;
  // The mailbox's daily allowance is taken last, after every other refusal, and kept with the mail.
  const capped = mail ? d.mailCap.take(input.target, now) : [];
  await d.store.write([
    { type: 'put', key: rec.id, value: rec, sublevel: d.subsDb },
    ...(mail ? [d.outbox.confirmPut(mail), ...capped] : []),
  ]);
  d.book.add(rec);
  if (mail) d.outbox.add(mail);
  const created = {
    id: rec.id,
    token: tok,
    trigger: rec.trigger,
    createdAt: rec.createdAt,
    status: email ? ('unconfirmed' as const) : ('active' as const),
  };
  return email ? created : { ...created, secret };
}
