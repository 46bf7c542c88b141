/**
 * The alert delivery worker: it drains the durable outbox the alert reactor fills. Each row
 * carries its attempt count and the time of its next attempt, and is rewritten after every failed
 * attempt (retries 2, 4 and 8 s after the failed attempt ends), deleted after a success (its id
 * then noted as sent, so a reorganisation that brings the same event back does not send it
 * again), and after the last failure deleted and recorded on its subscription. `kill -9` at any
 * moment loses no delivery; one whose success was not yet recorded is sent again with the same
 * webhook-id (at-least-once; receivers dedupe by webhook-id).
 */
import type { Rows } from '../projections/store.ts';
import type { ProjectionStore } from '../projections/store.ts';
import { AlertSender, type Attempt, type AttemptResult } from './alertDelivery.ts';
import { OUTBOX_PREFIX } from './alertReactor.ts';
import type { AlertOptions, OutboxRow, SubRecord } from './alertTypes.ts';

/** Blocks a sent id is remembered for: deeper than any reorganisation the undo log serves. */
const SENT_MEMORY_BLOCKS = 1024;

/** Where the worker keeps its rows. */
export interface OutboxStorage {
  store: Pick<ProjectionStore, 'write'>;
  /** The reactor's rows (outbox rows under `o!`). */
  rows: Rows;
  /** Ids delivered, with the height of their block. */
  sent: Rows;
  /** Subscriptions (their counters change with each outcome). */
  subsDb: Rows;
}

/** Schedules, attempts and retries the outbox's rows. */
export class AlertOutbox {
  private readonly opts: AlertOptions;
  private readonly db: OutboxStorage;
  private readonly subOf: (id: string) => SubRecord | undefined;
  private readonly rows = new Map<string, OutboxRow>();
  private readonly bySub = new Map<string, number>();
  private readonly sentIds = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly waiting: OutboxRow[] = [];
  private readonly inflight = new Set<Promise<void>>();
  private readonly perTarget = new Map<string, number>();
  private readonly sender: AlertSender;
  private abort = new AbortController();
  private running = false;
  /** Observers of finished attempts (tests, metrics): the row, its result, the attempt's seconds and channel. */
  onAttempt: ((row: OutboxRow, result: AttemptResult, seconds: number, channel: 'webhook' | 'email') => void) | null = null;

  constructor(db: OutboxStorage, subOf: (id: string) => SubRecord | undefined, opts: AlertOptions) {
    this.db = db;
    this.subOf = subOf;
    this.opts = opts;
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

  /** Deliveries waiting. */
  get size(): number {
    return this.rows.size;
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
  pendingBySub(): Map<string, number> {
    const out = new Map<string, number>();
    for (const r of this.rows.values()) out.set(r.subId, (out.get(r.subId) ?? 0) + 1);
    return out;
  }

  /** Loads the ids already sent (before the reactor folds anything). */
  async loadSent(): Promise<void> {
    for await (const [id, h] of this.db.sent.iterator()) this.sentIds.set(id as string, h as number);
  }

  /** True when a delivery id is waiting or was sent. */
  knows(id: string): boolean {
    return this.rows.has(id) || this.sentIds.has(id);
  }

  /** Replaces the rows with what is on disk (start, or after a reorganisation stepped them back). */
  replace(rows: OutboxRow[]): void {
    const keep = new Set(rows.map((r) => r.id));
    for (const id of [...this.rows.keys()]) {
      if (keep.has(id)) continue;
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
  dropFor(subId: string): { type: 'del'; key: string; sublevel: Rows }[] {
    const ops: { type: 'del'; key: string; sublevel: Rows }[] = [];
    for (const row of [...this.rows.values()]) {
      if (row.subId !== subId) continue;
      this.forgetRow(row.id);
      this.unschedule(row.id);
      ops.push({ type: 'del', key: OUTBOX_PREFIX + row.id, sublevel: this.db.rows });
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
    this.waiting.length = 0;
    this.abort.abort();
    await Promise.allSettled([...this.inflight]);
    await this.sender.close();
  }

  private schedule(row: OutboxRow): void {
    if (!this.running) return;
    this.unschedule(row.id);
    const t = setTimeout(
      () => {
        this.timers.delete(row.id);
        this.begin(row);
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

  /** Where a row goes: the webhook's host or the e-mail's domain (concurrency is bounded per target). */
  private targetOf(row: OutboxRow): string {
    const t = this.subOf(row.subId)?.target ?? '';
    const at = t.lastIndexOf('@');
    if (at >= 0) return t.slice(at + 1).toLowerCase();
    try {
      return new URL(t).host;
    } catch {
      return t;
    }
  }

  private begin(row: OutboxRow): void {
    if (!this.running) return;
    const target = this.targetOf(row);
    if (this.inflight.size >= this.opts.maxConcurrent || (this.perTarget.get(target) ?? 0) >= this.opts.maxConcurrentPerTarget) {
      this.waiting.push(row);
      return;
    }
    this.perTarget.set(target, (this.perTarget.get(target) ?? 0) + 1);
    const p = this.attempt(row).finally(() => {
      this.inflight.delete(p);
      const left = (this.perTarget.get(target) ?? 1) - 1;
      if (left <= 0) this.perTarget.delete(target);
      else this.perTarget.set(target, left);
      // The first waiting row whose target has room goes next.
      for (let i = 0; i < this.waiting.length; i++) {
        const t = this.targetOf(this.waiting[i]);
        if ((this.perTarget.get(t) ?? 0) < this.opts.maxConcurrentPerTarget) {
          this.begin(this.waiting.splice(i, 1)[0]);
          break;
        }
      }
    });
    this.inflight.add(p);
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
      token: sub.token,
      subject: row.subject,
      text: row.text,
    };
    const started = performance.now();
    const result = await this.sender.send(a, this.opts.clock(), this.abort.signal);
    const seconds = (performance.now() - started) / 1000;
    // Stopping mid-attempt, or a reorganisation took the row away: nothing is recorded.
    if (!this.running || this.rows.get(row.id) !== row) return;
    const end = this.opts.clock();
    row.attempts++;
    try {
      if (result.ok) {
        this.forgetRow(row.id);
        sub.delivered++;
        sub.lastDeliveredAt = end;
        this.sentIds.set(row.id, row.blockIndex);
        await this.db.store.write([
          { type: 'del', key: OUTBOX_PREFIX + row.id, sublevel: this.db.rows },
          { type: 'put', key: row.id, value: row.blockIndex, sublevel: this.db.sent },
          { type: 'put', key: sub.id, value: sub, sublevel: this.db.subsDb },
          ...this.forget(row.blockIndex),
        ]);
      } else if (row.attempts <= this.opts.retryDelaysMs.length) {
        row.nextAt = end + this.opts.retryDelaysMs[row.attempts - 1];
        row.lastError = result.error ?? 'failed';
        await this.db.rows.put(OUTBOX_PREFIX + row.id, row);
        this.schedule(row);
      } else {
        this.forgetRow(row.id);
        sub.failed++;
        sub.lastFailure = { deliveryId: row.id, at: end, attempts: row.attempts, error: result.error ?? 'failed' };
        await this.db.store.write([
          { type: 'del', key: OUTBOX_PREFIX + row.id, sublevel: this.db.rows },
          { type: 'put', key: sub.id, value: sub, sublevel: this.db.subsDb },
        ]);
        this.opts.log.warn('alert delivery dropped', { deliveryId: row.id, subId: sub.id, attempts: row.attempts, error: result.error });
      }
    } finally {
      this.onAttempt?.(row, result, seconds, sub.channel);
    }
  }

  /** Sent ids too old for any reorganisation to bring back: forgotten, with the writes that drop them. */
  private forget(height: number): { type: 'del'; key: string; sublevel: Rows }[] {
    const ops: { type: 'del'; key: string; sublevel: Rows }[] = [];
    for (const [id, h] of this.sentIds) {
      if (h >= height - SENT_MEMORY_BLOCKS) continue;
      this.sentIds.delete(id);
      ops.push({ type: 'del', key: id, sublevel: this.db.sent });
    }
    return ops;
  }
}
