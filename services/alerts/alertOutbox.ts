/**
 * The alert delivery worker: it drains the durable outbox the alert reactor fills. Each row
 * carries its attempt count and the time of its next attempt, and is rewritten after every failed
 * attempt (retries 2, 4 and 8 s after the failed attempt ends), deleted after a success (its id
 * then noted as sent, so a reorganisation that brings the same event back does not send it
 * again), and after the last failure deleted and recorded on its subscription. `kill -9` at any
 * moment loses no delivery; one whose success was not yet recorded is sent again with the same
 * webhook-id (at-least-once; receivers dedupe by webhook-id).
 *
 * A run of `disableAfterFailures` failed attempts disables a subscription (alertOutcome.ts).
 * Confirmation mails wait here too, in their own key space: they belong to no block.
 */
import type { ProjectionStore, Rows } from '../../projections/store.ts';
import { AlertSender, type Attempt, type AttemptResult } from './alertDelivery.ts';
import { OUTBOX_PREFIX } from './alertReactor.ts';
import { secretsInForce } from './alertSecrets.ts';
import { TargetGate, targetHost } from './targetGate.ts';
import { settleAttempt } from './alertOutcome.ts';
import { SentIds } from './sentIds.ts';
import type { AlertOptions, OutboxRow, SubRecord } from './alertTypes.ts';

/** Where the worker keeps its rows. */
export interface OutboxStorage {
  store: Pick<ProjectionStore, 'write'>;
  /** The reactor's rows (outbox rows under `o!`). */
  rows: Rows;
  /** Ids delivered, with the height of their block. */
  sent: Rows;
  /** Subscriptions (their counters change with each outcome). */
  subsDb: Rows;
  /** Confirmation mails waiting (rows of kind `confirm`). */
  confirm: Rows;
}

/** A row write or delete somewhere in the alert key spaces. */
type Op = { type: 'put'; key: string; value: unknown; sublevel: Rows } | { type: 'del'; key: string; sublevel: Rows };

/** Schedules, attempts and retries the outbox's rows. */
export class AlertOutbox {
  private readonly opts: AlertOptions;
  private readonly db: OutboxStorage;
  private readonly subOf: (id: string) => SubRecord | undefined;
  private readonly rows = new Map<string, OutboxRow>();
  private readonly bySub = new Map<string, number>();
  private readonly sentIds: SentIds;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly gate: TargetGate<OutboxRow>;
  private readonly sender: AlertSender;
  private abort = new AbortController();
  private running = false;
  /** Observers of finished attempts (tests, metrics): the row, its result, the attempt's seconds and channel. */
  onAttempt: ((row: OutboxRow, result: AttemptResult, seconds: number, channel: 'webhook' | 'email') => void) | null = null;
  /** Told when a run of failures disabled a subscription (it leaves the match index). */
  private readonly onDisabled: (sub: SubRecord) => void;

  constructor(
    db: OutboxStorage,
    subOf: (id: string) => SubRecord | undefined,
    opts: AlertOptions,
    onDisabled: (sub: SubRecord) => void = () => undefined,
  ) {
    this.db = db;
    this.subOf = subOf;
    this.opts = opts;
    this.onDisabled = onDisabled;
    this.sentIds = new SentIds(db.sent);
    this.gate = new TargetGate({
      max: opts.maxConcurrent,
      maxPerTarget: opts.maxConcurrentPerTarget,
      targetOf: (row) => targetHost(this.subOf(row.subId)?.target ?? ''),
      run: (row) => this.attempt(row),
    });
    this.sender = new AlertSender({
      allowPrivate: opts.allowPrivate,
      timeoutMs: opts.timeoutMs,
      smtpUrl: opts.smtpUrl,
      mailFrom: opts.mailFrom,
      userAgent: 'ombra-node-alerts/0.1',
    });
  }

  /** True when e-mail can be sent. */
  get mailEnabled(): boolean {
    return this.sender.mailEnabled;
  }

  /** Rows waiting: in all, or for one subscription. */
  pendingFor(subId?: string): number {
    return subId === undefined ? this.rows.size : (this.bySub.get(subId) ?? 0);
  }

  /** Drops a row from memory, keeping the per-subscription counts. */
  private forgetRow(id: string): void {
    const row = this.rows.get(id);
    if (!row) return;
    this.rows.delete(id);
    const n = (this.bySub.get(row.subId) ?? 1) - 1;
    if (n <= 0) this.bySub.delete(row.subId);
    else this.bySub.set(row.subId, n);
  }

  /** Rows waiting, per subscription. */
  pendingBySub(): ReadonlyMap<string, number> {
    return this.bySub;
  }

  /** Loads the ids already sent (before the reactor folds anything) and the confirmation mails waiting. */
  async load(): Promise<void> {
    await this.sentIds.load();
    for await (const row of this.db.confirm.values()) this.add(row as OutboxRow);
  }

  /** Where a row is kept. */
  private locate(row: OutboxRow): { key: string; sublevel: Rows } {
    return row.kind === 'confirm' ? { key: row.id, sublevel: this.db.confirm } : { key: OUTBOX_PREFIX + row.id, sublevel: this.db.rows };
  }

  /** The write that stores a confirmation mail (the caller writes it with its subscription, then calls `add`). */
  confirmPut(row: OutboxRow): Op {
    return { type: 'put', ...this.locate(row), value: row };
  }

  /** True when a delivery id is waiting or was sent. */
  knows(id: string): boolean {
    return this.rows.has(id) || this.sentIds.has(id);
  }

  /** Replaces the reactor's rows with what is on disk (start, or after a reorganisation stepped them back). */
  replace(rows: OutboxRow[]): void {
    const keep = new Set(rows.map((r) => r.id));
    for (const [id, row] of [...this.rows]) {
      if (keep.has(id) || row.kind === 'confirm') continue;
      this.forgetRow(id);
      this.unschedule(id);
    }
    for (const r of rows) if (!this.rows.has(r.id)) this.add(r);
  }

  /** New durable rows. */
  add(row: OutboxRow): void {
    if (!this.rows.has(row.id)) this.bySub.set(row.subId, (this.bySub.get(row.subId) ?? 0) + 1);
    this.rows.set(row.id, row);
    this.schedule(row);
  }

  /** Drops a subscription's rows (it was removed); answers the writes that delete them. */
  dropFor(subId: string): Op[] {
    const ops: Op[] = [];
    for (const row of [...this.rows.values()]) {
      if (row.subId !== subId) continue;
      this.forgetRow(row.id);
      this.unschedule(row.id);
      ops.push({ type: 'del', ...this.locate(row) });
    }
    return ops;
  }

  /** Starts attempting due rows. */
  start(): void {
    this.running = true;
    this.abort = new AbortController();
    for (const r of this.rows.values()) this.schedule(r);
  }

  /** Stops attempting; what is waiting stays on disk for the next start. */
  async stop(): Promise<void> {
    this.running = false;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.abort.abort();
    await this.gate.drain();
    await this.sender.close();
  }

  private schedule(row: OutboxRow): void {
    if (!this.running) return;
    this.unschedule(row.id);
    const t = setTimeout(
      () => {
        this.timers.delete(row.id);
        if (this.running) this.gate.offer(row);
      },
      Math.max(0, row.nextAt - this.opts.clock()),
    );
    this.timers.set(row.id, t);
  }

  private unschedule(id: string): void {
    const t = this.timers.get(id);
    if (t) clearTimeout(t);
    this.timers.delete(id);
  }

  private async attempt(row: OutboxRow): Promise<void> {
    const sub = this.subOf(row.subId);
    if (!sub || this.rows.get(row.id) !== row) return;
    const a: Attempt = {
      deliveryId: row.id,
      trigger: row.trigger,
      subId: row.subId,
      channel: sub.channel,
      target: sub.target,
      body: row.body,
      secrets: secretsInForce(sub, this.opts.clock(), this.opts.secretsKey),
      subject: row.subject,
      text: row.text,
    };
    const started = performance.now();
    const result = await this.sender.send(a, this.opts.clock(), this.abort.signal);
    const seconds = (performance.now() - started) / 1000;
    // Stopping mid-attempt, or a reorganisation took the row away: nothing is recorded.
    if (!this.running || this.rows.get(row.id) !== row) return;
    row.attempts++;
    try {
      await this.record(row, sub, result);
    } finally {
      this.opts.onAttempt?.(sub.channel, result.ok, seconds);
      this.onAttempt?.(row, result, seconds, sub.channel);
    }
  }

  /** Records an attempt's outcome: the row, the subscription's counters, and a disabling run. */
  private async record(row: OutboxRow, sub: SubRecord, result: AttemptResult): Promise<void> {
    const out = settleAttempt(row, sub, result, this.opts.clock(), this.opts);
    const here = this.locate(row);
    const ops: Op[] = [];
    if (out.row === 'retry') ops.push({ type: 'put', ...here, value: row });
    else {
      this.forgetRow(row.id);
      ops.push({ type: 'del', ...here });
    }
    if (out.row === 'delivered' && row.kind !== 'confirm') {
      ops.push(...this.sentIds.note(row.id, row.blockIndex));
    }
    if (out.row === 'dropped')
      this.opts.log.warn('alert delivery dropped', { deliveryId: row.id, subId: sub.id, attempts: row.attempts, error: out.error });
    // After this row's own write, so a retried row is deleted rather than rewritten.
    if (out.disabled) ops.push(...this.dropFor(sub.id));
    ops.push({ type: 'put', key: sub.id, value: sub, sublevel: this.db.subsDb });
    await this.db.store.write(ops);
    if (out.disabled) {
      this.onDisabled(sub);
      this.opts.log.warn('alert subscription disabled', { subId: sub.id, failures: sub.consecutiveFailures, error: out.error });
    } else if (out.row === 'retry' && this.rows.get(row.id) === row) this.schedule(row);
  }
}
