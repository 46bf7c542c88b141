/** Alert options, subscription records and outbox rows: what the alert service's parts share. */
import type { Trigger } from './alertMatch.ts';
import { silentLogger, type Logger } from '../../node/log.ts';

/** Alert options (cli/ fills them from flags). */
export interface AlertOptions {
  /** Let webhook targets resolve to loopback/private addresses (local set-ups and tests). */
  allowPrivate: boolean;
  /** Mail relay, `smtp://HOST:PORT`; e-mail subscriptions are refused without it. */
  smtpUrl?: string;
  mailFrom: string;
  /** Base URL that e-mails link to (`<publicUrl>/api/chain/tx/<hash>`); the operator's --public-url. */
  publicUrl: string;
  /**
   * Where the node's HTTP server listens, once it does (undefined before): the base URL of links
   * when no `publicUrl` is given. The composition root passes it, so nothing is set after start.
   */
  serverUrl?: () => string | undefined;
  /** Observer of each finished delivery attempt (metrics): its channel, whether it succeeded, its seconds. */
  onAttempt?: (channel: 'webhook' | 'email', ok: boolean, seconds: number) => void;
  /** Waits before each retry, counted from the end of the failed attempt. */
  retryDelaysMs: number[];
  /** Deadline of one attempt. */
  timeoutMs: number;
  maxSubsPerToken: number;
  maxSubsPerIp: number;
  /** Attempts in flight at once. */
  maxConcurrent: number;
  /** Attempts in flight at once to one target host (one slow target cannot hold every slot). */
  maxConcurrentPerTarget: number;
  /** Deliveries waiting in the outbox, in all; a block's deliveries beyond it are dropped and logged. */
  maxOutbox: number;
  /** Deliveries waiting for one subscription; beyond it its new deliveries are dropped and logged. */
  maxPendingPerSub: number;
  /** Deliveries one block may fire for one subscription (the rest are dropped and logged). */
  maxPerBlockPerSub: number;
  /** Consecutive failed attempts (retries included, no success between) after which a subscription is disabled. */
  disableAfterFailures: number;
  /** How long an e-mail subscription waits for its confirmation link before it is removed. */
  confirmTtlMs: number;
  /** Unconfirmed e-mail subscriptions one address may have at once (each sent one confirmation mail). */
  maxUnconfirmedPerEmail: number;
  /** Confirmation mails one mailbox (see confirmMailCap.ts) may be sent in any 24 hours. */
  maxConfirmMailsPerDay: number;
  /** How long the secret a rotation replaced still signs, beside the new one. */
  secretGraceMs: number;
  /** The key webhook signing secrets are sealed with at rest (32 bytes; services/alerts/secretSeal.ts); absent: kept in clear. */
  secretsKey?: Buffer;
  clock: () => number;
  log: Logger;
}

export const defaultAlertOptions: AlertOptions = {
  allowPrivate: false,
  mailFrom: 'Ombra node <alerts@ombra.invalid>',
  publicUrl: 'http://127.0.0.1:7777',
  retryDelaysMs: [2000, 4000, 8000],
  timeoutMs: 5000,
  maxSubsPerToken: 20,
  maxSubsPerIp: 50,
  maxConcurrent: 16,
  maxConcurrentPerTarget: 2,
  maxOutbox: 10_000,
  maxPendingPerSub: 100,
  maxPerBlockPerSub: 100,
  disableAfterFailures: 20,
  confirmTtlMs: 24 * 3600_000,
  maxUnconfirmedPerEmail: 3,
  maxConfirmMailsPerDay: 3,
  secretGraceMs: 24 * 3600_000,
  clock: Date.now,
  log: silentLogger,
};

/**
 * Where a subscription stands: `active` fires; `unconfirmed` (an e-mail target that has not
 * followed its confirmation link) and `disabled` (after a run of failed attempts) do not.
 */
type SubStatus = 'active' | 'unconfirmed' | 'disabled';

/**
 * A stored subscription. Only the management token's hash is kept; the signing secret, which the
 * node must sign with, is sealed under the secrets key (services/alerts/secretSeal.ts).
 */
export interface SubRecord {
  id: string;
  tokenHash: string;
  /** Webhook signing secret, `whsec_<base64>`, sealed when the node has a secrets key (records from before secrets: the old token, see alertSecrets.ts). */
  secret: string;
  /** The secret a rotation replaced, still signing beside the new one until `previousSecretUntil`. */
  previousSecret: string | null;
  previousSecretUntil: number | null;
  status: SubStatus;
  /** SHA-256 of the confirmation link's token (e-mail, until confirmed). */
  confirmHash: string | null;
  /** When an unconfirmed subscription is removed. */
  confirmExpiresAt: number | null;
  consecutiveFailures: number;
  disabledAt: number | null;
  disabledReason: string | null;
  trigger: Trigger;
  params: { address?: string };
  channel: 'webhook' | 'email';
  target: string;
  createdAt: number;
  fromHeight: number;
  ip: string;
  delivered: number;
  failed: number;
  lastDeliveredAt: number | null;
  lastFailure: { deliveryId: string; at: number; attempts: number; error: string } | null;
}

/** A delivery waiting in the outbox. */
export interface OutboxRow {
  id: string;
  subId: string;
  trigger: Trigger;
  /** A subscription's confirmation mail (not an alert: kept apart from the reactor's rows). */
  kind?: 'confirm';
  blockIndex: number;
  body: string;
  subject: string;
  text: string;
  /** Attempts made so far. */
  attempts: number;
  /** Epoch ms of the next attempt. */
  nextAt: number;
  createdAt: number;
  lastError: string | null;
}

/** What a caller sees of its subscription. */
export function subView(s: SubRecord, pending: number) {
  return {
    id: s.id,
    trigger: s.trigger,
    params: s.params,
    channel: s.channel,
    target: s.target,
    status: s.status,
    createdAt: s.createdAt,
    delivered: s.delivered,
    failed: s.failed,
    pending,
    lastDeliveredAt: s.lastDeliveredAt,
    lastFailure: s.lastFailure,
    consecutiveFailures: s.consecutiveFailures,
    disabledAt: s.disabledAt,
    disabledReason: s.disabledReason,
  };
}
