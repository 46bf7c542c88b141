/**
 * Alert subscriptions and their delivery: node-local data in `local:alerts:*` sublevels.
 *
 * The consumer folds committed blocks (the node's `events$`, or the block log to catch up) in
 * height order through `matchBlock`, and writes the deliveries a block fires into a durable
 * outbox in the same LevelDB batch as its own checkpoint: a restart neither loses nor repeats a
 * trigger. The delivery worker drains the outbox: each row carries its attempt count and the
 * time of its next attempt, and is rewritten after every failed attempt (retries 2, 4 and 8 s
 * after the failed attempt ends), deleted after a success, and after the last failure deleted
 * and recorded on its subscription (`failed`, `lastFailure`). `kill -9` at any moment loses
 * no delivery; one whose success was not yet recorded is sent again with the same webhook-id
 * (at-least-once; receivers dedupe by webhook-id).
 */
import { hash, randomBytes } from 'node:crypto';
import { filter, type Observable, type Subscription } from 'rxjs';
import type { Block } from '../core/block.ts';
import { ChainError } from '../core/errors.ts';
import type { ChainEvent } from '../projections/events.ts';
import { agentRunsIn, matchBlock, SubscriptionIndex, type AlertMatch, type Trigger } from '../projections/alertMatch.ts';
import { AlertSender, type Attempt, type AttemptResult } from './alertDelivery.ts';
import type { ChainStore } from '../node/chainStore.ts';
import { silentLogger, type Logger } from '../node/log.ts';
import { ForbiddenTarget, resolvePublic } from './netGuard.ts';

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

/** Where the consumer reads committed blocks. */
export interface BlockSource {
  height(): number;
  block(index: number): Promise<Block | undefined>;
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

const CHECKPOINT = 'checkpoint';

/** Hex SHA-256. */
const sha = (s: string) => hash('sha256', s);

/** The alert consumer, subscription store and delivery worker. */
export class AlertService {
  readonly opts: AlertOptions;
  private readonly store: ChainStore;
  private readonly source: BlockSource;
  private readonly subsDb: ReturnType<ChainStore['sublevel']>;
  private readonly outboxDb: ReturnType<ChainStore['sublevel']>;
  private readonly metaDb: ReturnType<ChainStore['sublevel']>;
  private readonly runsDb: ReturnType<ChainStore['sublevel']>;
  private readonly subs = new Map<string, SubRecord>();
  private readonly byToken = new Map<string, Set<string>>();
  private readonly index = new SubscriptionIndex();
  private readonly outbox = new Map<string, OutboxRow>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly waiting: OutboxRow[] = [];
  private readonly sender: AlertSender;
  private readonly abort = new AbortController();
  private readonly inflight = new Set<Promise<void>>();
  private checkpoint = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private subscription: Subscription | null = null;
  private closed = false;
  private failure: unknown = null;
  /** Observers of finished attempts (tests, metrics): the row, its result, the attempt's seconds and channel. */
  onAttempt: ((row: OutboxRow, result: AttemptResult, seconds: number, channel: 'webhook' | 'email') => void) | null = null;

  private constructor(store: ChainStore, source: BlockSource, opts: AlertOptions) {
    this.store = store;
    this.source = source;
    this.opts = opts;
    this.subsDb = store.sublevel('local:alerts:subs');
    this.outboxDb = store.sublevel('local:alerts:outbox');
    this.metaDb = store.sublevel('local:alerts:meta');
    this.runsDb = store.sublevel('local:alerts:runs');
    this.sender = new AlertSender({
      allowPrivate: opts.allowPrivate,
      timeoutMs: opts.timeoutMs,
      smtpUrl: opts.smtpUrl,
      mailFrom: opts.mailFrom,
      userAgent: 'ombra-node-alerts/0.1',
    });
  }

  /**
   * Loads subscriptions and the outbox, schedules pending deliveries, catches up from the
   * checkpoint to the head of `source`, then follows `events$` (if given).
   */
  static async open(
    store: ChainStore,
    source: BlockSource,
    events$: Observable<ChainEvent> | null,
    options: Partial<AlertOptions> = {},
  ): Promise<AlertService> {
    const s = new AlertService(store, source, { ...defaultAlertOptions, ...options });
    for await (const v of s.subsDb.values()) s.addSub(v as SubRecord);
    const cp = (await s.metaDb.get(CHECKPOINT)) as number | undefined;
    if (cp === undefined) {
      // A new data dir (or a node that never ran alerts): nobody subscribed to the past.
      s.checkpoint = source.height();
      await s.metaDb.put(CHECKPOINT, s.checkpoint);
    } else s.checkpoint = cp;
    for await (const v of s.outboxDb.values()) {
      const row = v as OutboxRow;
      s.outbox.set(row.id, row);
      s.schedule(row);
    }
    if (events$) {
      s.subscription = events$.pipe(filter((e) => e.type === 'block')).subscribe((e) => {
        void s.handleBlock((e as { block: Block }).block);
      });
    }
    await s.handleHeight(source.height());
    return s;
  }

  /** Height the consumer has folded. */
  height(): number {
    return this.checkpoint;
  }

  /** Deliveries waiting in the outbox. */
  pendingCount(): number {
    return this.outbox.size;
  }

  /** True when e-mail can be sent. */
  get mailEnabled(): boolean {
    return this.sender.mailEnabled;
  }

  private addSub(r: SubRecord): void {
    this.subs.set(r.id, r);
    let set = this.byToken.get(r.tokenHash);
    if (!set) {
      set = new Set();
      this.byToken.set(r.tokenHash, set);
    }
    set.add(r.id);
    this.index.add(r);
  }

  // ---- subscriptions ----------------------------------------------------------------------

  /** Refuses a webhook URL whose host resolves to a forbidden address (unless allowed). */
  async checkTarget(channel: 'webhook' | 'email', target: string): Promise<void> {
    if (channel === 'email') {
      if (!this.sender.mailEnabled)
        throw new ChainError('INVALID_PARAMS', 'e-mail alerts are not available: this node has no mail relay (--smtp-url)');
      return;
    }
    if (this.opts.allowPrivate) return;
    try {
      await resolvePublic(new URL(target).hostname);
    } catch (e) {
      if (e instanceof ForbiddenTarget) throw new ChainError('INVALID_PARAMS', `target refused: ${e.message}`);
      throw new ChainError('INVALID_PARAMS', `target host ${new URL(target).hostname.slice(0, 100)} does not resolve`);
    }
  }

  /** The subscriptions of a token (by the token's hash). */
  private idsOf(token: string): Set<string> | undefined {
    return this.byToken.get(sha(token));
  }

  /** True when `token` is a known alert token. */
  knowsToken(token: string): boolean {
    return (this.idsOf(token)?.size ?? 0) > 0;
  }

  /**
   * Creates a subscription. With `token` (a known X-Alert-Token) it joins that token's
   * subscriptions; otherwise a new token is issued.
   */
  async subscribe(
    input: { trigger: Trigger; params: { address?: string }; channel: 'webhook' | 'email'; target: string },
    ip: string,
    token?: string,
  ) {
    await this.checkTarget(input.channel, input.target);
    if (token !== undefined && !this.knowsToken(token))
      throw new ChainError('UNAUTHORIZED', 'unknown X-Alert-Token: omit it to get a new token');
    const tok = token ?? `ombra_alert_${randomBytes(24).toString('hex')}`;
    const tokenHash = sha(tok);
    if ((this.byToken.get(tokenHash)?.size ?? 0) >= this.opts.maxSubsPerToken)
      throw new ChainError(
        'INVALID_PARAMS',
        `this token already has ${this.opts.maxSubsPerToken} subscriptions, the most one token may hold`,
      );
    let fromIp = 0;
    for (const s of this.subs.values()) if (s.ip === ip) fromIp++;
    if (fromIp >= this.opts.maxSubsPerIp)
      throw new ChainError('INVALID_PARAMS', `this IP already has ${this.opts.maxSubsPerIp} subscriptions, the most one IP may hold`);
    const rec: SubRecord = {
      id: `sub_${randomBytes(8).toString('hex')}`,
      token: tok,
      tokenHash,
      trigger: input.trigger,
      params: input.params,
      channel: input.channel,
      target: input.target,
      createdAt: this.opts.clock(),
      // Fires for blocks committed after this moment.
      fromHeight: this.source.height(),
      ip,
      delivered: 0,
      failed: 0,
      lastDeliveredAt: null,
      lastFailure: null,
    };
    await this.subsDb.put(rec.id, rec);
    this.addSub(rec);
    return { id: rec.id, token: tok, trigger: rec.trigger, createdAt: rec.createdAt };
  }

  /** The subscriptions of a token; UNAUTHORIZED for an unknown one. */
  list(token: string) {
    const ids = this.idsOf(token);
    if (!ids || ids.size === 0) throw new ChainError('UNAUTHORIZED', 'missing or unknown X-Alert-Token');
    const pending = new Map<string, number>();
    for (const r of this.outbox.values()) pending.set(r.subId, (pending.get(r.subId) ?? 0) + 1);
    return [...ids]
      .map((id) => this.subs.get(id)!)
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
      .map((s) => subView(s, pending.get(s.id) ?? 0));
  }

  /** Removes a subscription of `token`, with its pending deliveries. */
  async remove(id: string, token: string): Promise<void> {
    const ids = this.idsOf(token);
    if (!ids || ids.size === 0) throw new ChainError('UNAUTHORIZED', 'missing or unknown X-Alert-Token');
    const rec = this.subs.get(id);
    if (!rec || !ids.has(id)) throw new ChainError('NOT_FOUND', `subscription ${id.slice(0, 40)} not found for this token`);
    const ops: { type: 'del'; key: string; sublevel: unknown }[] = [{ type: 'del', key: id, sublevel: this.subsDb }];
    for (const row of this.outbox.values()) {
      if (row.subId !== id) continue;
      ops.push({ type: 'del', key: row.id, sublevel: this.outboxDb });
      this.unschedule(row.id);
    }
    await this.store.db.batch(ops as never);
    this.subs.delete(id);
    ids.delete(id);
    if (ids.size === 0) this.byToken.delete(rec.tokenHash);
    this.index.remove(rec);
  }

  // ---- the consumer -------------------------------------------------------------------------

  /** Folds `block` (and any block between the checkpoint and it, from the source). */
  handleBlock(block: Block): Promise<void> {
    return this.serial(async () => {
      if (block.index <= this.checkpoint) return;
      for (let h = this.checkpoint + 1; h < block.index; h++) {
        const b = await this.source.block(h);
        if (!b) throw new Error(`alert consumer: block ${h} missing from the log`);
        await this.fold(b);
      }
      await this.fold(block);
    });
  }

  /** Catches up to height `h` from the source. */
  private handleHeight(h: number): Promise<void> {
    return this.serial(async () => {
      for (let i = this.checkpoint + 1; i <= h; i++) {
        const b = await this.source.block(i);
        if (!b) throw new Error(`alert consumer: block ${i} missing from the log`);
        await this.fold(b);
      }
    });
  }

  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.queue.then(() => (this.closed ? undefined : fn()));
    this.queue = run.catch((e: unknown) => {
      this.failure = e;
      this.opts.log.error('alert consumer failed', { error: (e as Error).message });
    });
    return run;
  }

  /** One block: matches, outbox rows, agent runs and the checkpoint, in one batch. */
  private async fold(block: Block): Promise<void> {
    const runs = agentRunsIn(block);
    const requesters = new Map<string, string>(runs.opened);
    for (const id of runs.finished) {
      if (requesters.has(id)) continue;
      const who = (await this.runsDb.get(id)) as string | undefined;
      if (who) requesters.set(id, who);
    }
    const matches = matchBlock(block, this.index, requesters);
    const now = this.opts.clock();
    const rows: OutboxRow[] = [];
    const perSub = new Map<string, number>();
    for (const m of matches) {
      const n = (perSub.get(m.subId) ?? 0) + 1;
      perSub.set(m.subId, n);
      if (n > this.opts.maxPerBlockPerSub) continue;
      rows.push(this.rowOf(m, block, now));
    }
    for (const [subId, n] of perSub) {
      if (n > this.opts.maxPerBlockPerSub)
        this.opts.log.warn('alert deliveries capped for one block', {
          subId,
          block: block.index,
          fired: n,
          kept: this.opts.maxPerBlockPerSub,
        });
    }
    const ops: { type: 'put' | 'del'; key: string; value?: unknown; sublevel: unknown }[] = rows.map((r) => ({
      type: 'put',
      key: r.id,
      value: r,
      sublevel: this.outboxDb,
    }));
    for (const [id, from] of runs.opened) ops.push({ type: 'put', key: id, value: from, sublevel: this.runsDb });
    for (const id of runs.finished) ops.push({ type: 'del', key: id, sublevel: this.runsDb });
    ops.push({ type: 'put', key: CHECKPOINT, value: block.index, sublevel: this.metaDb });
    await this.store.db.batch(ops as never, { sync: rows.length > 0 });
    this.checkpoint = block.index;
    for (const r of rows) {
      this.outbox.set(r.id, r);
      this.schedule(r);
    }
  }

  private rowOf(m: AlertMatch, block: Block, now: number): OutboxRow {
    const body = JSON.stringify(m.body);
    const link =
      m.link.kind === 'tx'
        ? `${this.opts.publicUrl}/api/chain/tx/${m.link.hash}`
        : `${this.opts.publicUrl}/api/chain/block/${m.link.index}`;
    const sub = this.subs.get(m.subId)!;
    const text = [
      `Alert ${m.trigger} fired: ${m.summary}.`,
      '',
      `Block ${block.index} (${block.hash}) at ${new Date(block.timestamp).toISOString()}`,
      m.link.kind === 'tx' ? `Transaction: ${link}` : `Block: ${link}`,
      '',
      'Details (JSON):',
      JSON.stringify(m.body, null, 2),
      '',
      `Subscription ${sub.id}. To stop these alerts: DELETE ${this.opts.publicUrl}/api/alerts/${sub.id} with header X-Alert-Token.`,
    ].join('\n');
    return {
      // Deterministic: the same trigger event for the same subscription has one id, forever.
      id: `msg_${sha(`${m.subId}|${block.hash}|${m.eventKey}`).slice(0, 32)}`,
      subId: m.subId,
      trigger: m.trigger,
      blockIndex: block.index,
      body,
      subject: `[Ombra] ${m.trigger}: ${m.summary}`,
      text,
      attempts: 0,
      nextAt: now,
      createdAt: now,
      lastError: null,
    };
  }

  // ---- the delivery worker -------------------------------------------------------------------

  private schedule(row: OutboxRow): void {
    if (this.closed) return;
    this.unschedule(row.id);
    const delay = Math.max(0, row.nextAt - this.opts.clock());
    const t = setTimeout(() => {
      this.timers.delete(row.id);
      this.start(row);
    }, delay);
    this.timers.set(row.id, t);
  }

  private unschedule(id: string): void {
    const t = this.timers.get(id);
    if (t) clearTimeout(t);
    this.timers.delete(id);
  }

  private start(row: OutboxRow): void {
    if (this.closed) return;
    if (this.inflight.size >= this.opts.maxConcurrent) {
      this.waiting.push(row);
      return;
    }
    const p = this.attempt(row).finally(() => {
      this.inflight.delete(p);
      const next = this.waiting.shift();
      if (next) this.start(next);
    });
    this.inflight.add(p);
  }

  private async attempt(row: OutboxRow): Promise<void> {
    const sub = this.subs.get(row.subId);
    if (!sub || !this.outbox.has(row.id)) {
      this.outbox.delete(row.id);
      await this.outboxDb.del(row.id).catch(() => undefined);
      return;
    }
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
    // Stopping mid-attempt: the row stays as stored and is attempted again after a restart.
    if (this.closed) return;
    const end = this.opts.clock();
    row.attempts++;
    try {
      if (result.ok) {
        this.outbox.delete(row.id);
        sub.delivered++;
        sub.lastDeliveredAt = end;
        await this.store.db.batch([
          { type: 'del', key: row.id, sublevel: this.outboxDb },
          { type: 'put', key: sub.id, value: sub, sublevel: this.subsDb },
        ] as never);
      } else if (row.attempts <= this.opts.retryDelaysMs.length) {
        row.nextAt = end + this.opts.retryDelaysMs[row.attempts - 1];
        row.lastError = result.error ?? 'failed';
        await this.outboxDb.put(row.id, row);
        this.schedule(row);
      } else {
        this.outbox.delete(row.id);
        sub.failed++;
        sub.lastFailure = { deliveryId: row.id, at: end, attempts: row.attempts, error: result.error ?? 'failed' };
        await this.store.db.batch([
          { type: 'del', key: row.id, sublevel: this.outboxDb },
          { type: 'put', key: sub.id, value: sub, sublevel: this.subsDb },
        ] as never);
        this.opts.log.warn('alert delivery dropped', { deliveryId: row.id, subId: sub.id, attempts: row.attempts, error: result.error });
      }
    } finally {
      this.onAttempt?.(row, result, seconds, sub.channel);
    }
  }

  /** Resolves when the consumer has folded everything handed to it. */
  async idle(): Promise<void> {
    await this.queue;
    if (this.failure) throw this.failure;
  }

  /** Stops following blocks and delivering; what is in the outbox stays for the next start. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.subscription?.unsubscribe();
    await this.queue.catch(() => undefined);
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.waiting.length = 0;
    this.abort.abort();
    await Promise.allSettled([...this.inflight]);
    await this.sender.close();
  }
}
