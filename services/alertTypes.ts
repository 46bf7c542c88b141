/** Alert options, subscription records and outbox rows: what the alert service's parts share. */
import type { Trigger } from '../projections/alertMatch.ts';
import { silentLogger, type Logger } from '../node/log.ts';

/** Alert options (cli/ fills them from flags). */
export interface AlertOptions {
  /** Let webhook targets resolve to loopback/private addresses (local set-ups and tests). */
  allowPrivate: boolean;
  /** Mail relay, `smtp://HOST:PORT`; e-mail subscriptions are refused without it. */
  smtpUrl?: string;
  mailFrom: string;
  /** Base URL that e-mails link to (`<publicUrl>/api/chain/tx/<hash>`). */
  publicUrl: string;
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
  clock: Date.now,
  log: silentLogger,
};

/** A stored subscription. The token is kept because the node signs webhooks with it. */
export interface SubRecord {
  id: string;
  token: string;
  tokenHash: string;
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
    createdAt: s.createdAt,
    delivered: s.delivered,
    failed: s.failed,
    pending,
    lastDeliveredAt: s.lastDeliveredAt,
    lastFailure: s.lastFailure,
  };
}
