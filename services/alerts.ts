/**
 * Alert subscriptions and their delivery: node-local data, never chain state. Three parts:
 * the subscriptions (here, in `local:alerts:subs`), the alert reactor that the projection runner
 * folds every committed block through (services/alertReactor.ts: checkpoints, catch-up and the
 * undo log come from the runner, so alerts follow reorganisations), and the delivery worker that
 * drains the reactor's outbox (services/alertOutbox.ts).
 */
import { hash, randomBytes } from 'node:crypto';
import type { Block } from '../core/block.ts';
import { ChainError } from '../core/errors.ts';
import { SubscriptionIndex, type Trigger } from '../projections/alertMatch.ts';
import type { Reactor } from '../projections/reactor.ts';
import type { Rows } from '../projections/store.ts';
import type { AlertPorts } from '../node/ports.ts';
import { AlertOutbox } from './alertOutbox.ts';
import { alertReactor, matchRows, type AlertReactorDeps, type AlertReactorState } from './alertReactor.ts';
import { defaultAlertOptions, subView, type AlertOptions, type SubRecord } from './alertTypes.ts';
import { ForbiddenTarget, resolvePublic } from './netGuard.ts';

export { defaultAlertOptions, subView, type AlertOptions, type OutboxRow, type SubRecord } from './alertTypes.ts';

/** Hex SHA-256. */
const sha = (s: string) => hash('sha256', s);

/** Alert subscriptions, the reactor that fires them and the worker that delivers them. */
export class AlertService {
  readonly opts: AlertOptions;
  private readonly ports: AlertPorts;
  private readonly subsDb: Rows;
  private readonly subs = new Map<string, SubRecord>();
  private readonly byToken = new Map<string, Set<string>>();
  private readonly index = new SubscriptionIndex();
  private readonly outbox: AlertOutbox;
  private readonly reactor: Reactor<AlertReactorState>;
  private readonly reactorDeps: AlertReactorDeps;
  private reactorState: AlertReactorState | null = null;
  private started = false;

  constructor(ports: AlertPorts, options: Partial<AlertOptions> = {}) {
    this.ports = ports;
    this.opts = { ...defaultAlertOptions, ...options };
    this.subsDb = ports.store.sublevel('local:alerts:subs');
    const rows = ports.store.sublevel('p:alerts');
    this.outbox = new AlertOutbox(
      { store: ports.store, rows, sent: ports.store.sublevel('local:alerts:sent'), subsDb: this.subsDb },
      (id) => this.subs.get(id),
      this.opts,
    );
    const index = this.index;
    const subs = this.subs;
    this.reactorDeps = {
      subs: { lookup: (t, a) => index.lookup(t, a), get: (id) => subs.get(id) },
      known: (id) => this.outbox.knows(id),
      pending: (subId) => this.outbox.pendingFor(subId),
      maxOutbox: this.opts.maxOutbox,
      maxPendingPerSub: this.opts.maxPendingPerSub,
      restored: (rows) => this.outbox.replace(rows),
      written: (rows) => {
        for (const r of rows) this.outbox.add(r);
      },
      publicUrl: () => this.opts.publicUrl,
      clock: () => this.opts.clock(),
      maxPerBlockPerSub: this.opts.maxPerBlockPerSub,
      log: this.opts.log,
    };
    const reactor = alertReactor(this.reactorDeps);
    // Keep the live state at hand (the runner hands the same object back on every block).
    this.reactor = {
      ...reactor,
      restore: async (r, info) => {
        this.reactorState = await reactor.restore(r, info);
        return this.reactorState;
      },
    };
  }

  /** Lifecycle: loads subscriptions, joins the runner (caught up from its checkpoint), starts delivering. */
  async start(): Promise<void> {
    for await (const v of this.subsDb.values()) this.addSub(v as SubRecord);
    await this.outbox.loadSent();
    await this.ports.runner.attachReactor(this.reactor, (from, to) => this.ports.blocks(from, to));
    this.outbox.start();
    this.started = true;
  }

  /** Lifecycle: leaves the runner and stops delivering; the outbox stays on disk for the next start. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.ports.runner.detachReactor(this.reactor.name);
    await this.outbox.stop();
  }

  /** Height the reactor has folded. */
  height(): number {
    return this.ports.runner.reactorHeight(this.reactor.name) ?? 0;
  }

  /** Deliveries waiting in the outbox. */
  pendingCount(): number {
    return this.outbox.size;
  }

  /** True when e-mail can be sent. */
  get mailEnabled(): boolean {
    return this.outbox.mailEnabled;
  }

  /** Observers of finished attempts (tests, metrics). */
  set onAttempt(fn: AlertOutbox['onAttempt']) {
    this.outbox.onAttempt = fn;
  }

  /**
   * Matches one block outside the chain's fold (tests of matching with synthetic blocks): its
   * deliveries are written and queued like any other; no checkpoint moves.
   */
  async handleBlock(block: Block): Promise<void> {
    if (!this.reactorState) throw new Error('the alert service is not started');
    const { rows, ops } = matchRows(this.reactorDeps, this.reactorState.runs, block);
    const sub = this.ports.store.sublevel('p:alerts');
    await this.ports.store.write(
      ops.map((op) => ({ ...op, sublevel: sub })),
      { sync: rows.length > 0 },
    );
    for (const r of rows) this.outbox.add(r);
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
      if (!this.outbox.mailEnabled)
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
      fromHeight: this.ports.height(),
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
    const pending = this.outbox.pendingBySub();
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
    await this.ports.store.write([{ type: 'del', key: id, sublevel: this.subsDb }, ...this.outbox.dropFor(id)]);
    this.subs.delete(id);
    ids.delete(id);
    if (ids.size === 0) this.byToken.delete(rec.tokenHash);
    this.index.remove(rec);
  }
}
