/**
 * Alert senders: one webhook POST or one e-mail per attempt. Scheduling and retries are in
 * alertOutbox.ts; a sender only answers whether this attempt succeeded.
 *
 * Webhooks follow Standard Webhooks besides the spec's X-Chain-* headers: `webhook-id` (the
 * delivery id, stable across retries), `webhook-timestamp` (Unix seconds of this attempt) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 keyed with the subscription's signing secret over
 * "<id>.<timestamp>.<body>">` (alertSecrets.ts; two signatures while a rotated secret is
 * in its grace period). Only a 2xx within the deadline succeeds; a 3xx is a failure and
 * is not followed. The connection goes to an address our own DNS lookup checked (SSRF guard).
 */
import { isIP } from 'node:net';
import nodemailer, { type Transporter } from 'nodemailer';
import { Agent, request } from 'undici';
import { signWebhook } from './alertSecrets.ts';
import { forbiddenAddress, guardedLookup } from './netGuard.ts';
import { errorCode, errorMessage } from '../../core/errors.ts';

/** What an attempt sends. */
export interface Attempt {
  deliveryId: string;
  trigger: string;
  subId: string;
  channel: 'webhook' | 'email';
  target: string;
  /** The exact JSON body. */
  body: string;
  /** The signing secrets in force (the newest first); never the management token. */
  secrets: string[];
  subject: string;
  text: string;
}

/** An attempt's outcome. */
export interface AttemptResult {
  ok: boolean;
  status?: number;
  error?: string;
}

/** Sender options. */
export interface SenderOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** `smtp://host:port` (or smtps://, with credentials if needed); e-mail is off without it. */
  smtpUrl?: string;
  mailFrom: string;
  userAgent: string;
}

/** Sends attempts over HTTP and SMTP. */
export class AlertSender {
  private readonly opts: SenderOptions;
  private readonly agent: Agent;
  private mail: Transporter | null = null;

  constructor(opts: SenderOptions) {
    this.opts = opts;
    this.agent = new Agent({
      connect: { lookup: guardedLookup(opts.allowPrivate) as never, timeout: opts.timeoutMs },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      keepAliveTimeout: 4000,
    });
    if (opts.smtpUrl) {
      this.mail = nodemailer.createTransport(opts.smtpUrl, {
        connectionTimeout: opts.timeoutMs,
        greetingTimeout: opts.timeoutMs,
        socketTimeout: opts.timeoutMs * 2,
      } as never);
    }
  }

  /** True when e-mail can be sent. */
  get mailEnabled(): boolean {
    return this.mail !== null;
  }

  /** One attempt; never throws. */
  async send(a: Attempt, now: number, signal?: AbortSignal): Promise<AttemptResult> {
    try {
      return a.channel === 'webhook' ? await this.webhook(a, now, signal) : await this.email(a);
    } catch (e) {
      return { ok: false, error: describe(e, this.opts.timeoutMs) };
    }
  }

  private async webhook(a: Attempt, now: number, signal?: AbortSignal): Promise<AttemptResult> {
    const url = new URL(a.target);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // An IP literal skips DNS, so the connect-time lookup never sees it: check it here.
    if (!this.opts.allowPrivate && isIP(host)) {
      const why = forbiddenAddress(host);
      if (why) return { ok: false, error: `refused: ${host} is ${why}` };
    }
    const ts = Math.floor(now / 1000);
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const res = await request(url, {
      method: 'POST',
      dispatcher: this.agent,
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      headers: {
        'content-type': 'application/json',
        'user-agent': this.opts.userAgent,
        'x-chain-trigger': a.trigger,
        'x-chain-subscription': a.subId,
        'webhook-id': a.deliveryId,
        'webhook-timestamp': String(ts),
        'webhook-signature': signWebhook(a.secrets, a.deliveryId, ts, a.body),
      },
      body: a.body,
    });
    // The answer's body is not read beyond what it takes to free the connection.
    await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, status: res.statusCode };
    if (res.statusCode >= 300 && res.statusCode < 400)
      return { ok: false, status: res.statusCode, error: `HTTP ${res.statusCode} (redirects are not followed)` };
    return { ok: false, status: res.statusCode, error: `HTTP ${res.statusCode}` };
  }

  private async email(a: Attempt): Promise<AttemptResult> {
    if (!this.mail) return { ok: false, error: 'this node has no mail relay (--smtp-url)' };
    await this.mail.sendMail({
      from: this.opts.mailFrom,
      to: a.target,
      subject: a.subject,
      text: a.text,
      headers: { 'X-Chain-Trigger': a.trigger, 'X-Chain-Subscription': a.subId, 'X-Chain-Delivery': a.deliveryId },
    });
    return { ok: true };
  }

  async close(): Promise<void> {
    this.mail?.close();
    await this.agent.close().catch(() => undefined);
  }
}

function describe(e: unknown, timeoutMs: number): string {
  const name = e instanceof Error ? e.name : undefined;
  const code = errorCode(e) ?? errorCode(e instanceof Error ? e.cause : undefined);
  if (name === 'TimeoutError' || ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT'].includes(errorCode(e) ?? ''))
    return `no answer within ${timeoutMs} ms`;
  if (name === 'AbortError') return 'aborted';
  const msg = errorMessage(e).slice(0, 200);
  return code && !msg.includes(code) ? `${code}: ${msg}` : msg;
}
