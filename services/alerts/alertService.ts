/**
 * Alert subscriptions and their delivery: node-local data, never chain state. Three parts:
 * the subscriptions (alertBook.ts, in `local:alerts:subs`; made by alertSubscribe.ts), the alert
 * reactor that the projection runner folds every committed block through (alertReactor.ts: saved
 * positions, catch-up and the undo log come from the runner, so alerts follow reorganisations),
 * and the delivery worker that drains the reactor's outbox (alertOutbox.ts).
 */
import type { Block } from '../../core/block.ts';
import { present } from '../../core/errors.ts';
import type { Trigger } from './alertMatch.ts';
import type { Reactor } from '../../projections/reactor.ts';
import type { Rows } from '../../projections/store.ts';
import type { AlertPorts, Component } from '../../node/ports.ts';
import { AlertOutbox } from './alertOutbox.ts';
import { alertReactor, matchRows, type AlertReactorDeps, type AlertReactorState } from './alertReactor.ts';
import { AlertBook } from './alertBook.ts';
import { alertSubscribe, type SubscribeDeps } from './alertSubscribe.ts';
import { ConfirmMailCap } from './confirmMailCap.ts';
import { defaultAlertOptions, type AlertOptions } from './alertTypes.ts';

export type { AlertOptions } from './alertTypes.ts';

/** Alert subscriptions, the reactor that fires them and the worker that delivers them. */
export class AlertService implements Component {
  readonly opts: AlertOptions;
  /** The base URL links point to: the operator's public URL, else the HTTP server's. */
  private readonly publicUrl: () => string;
  private readonly ports: AlertPorts;
  private readonly subsDb: Rows;
  private readonly book: AlertBook;
  private readonly outbox: AlertOutbox;
  private readonly mailCap: ConfirmMailCap;
  private readonly reactor: Reactor<AlertReactorState>;
  private readonly reactorDeps: AlertReactorDeps;
  private readonly subscribeDeps: SubscribeDeps;
  private reactorState: AlertReactorState | null = null;
  private started = false;

  constructor(ports: AlertPorts, options: Partial<AlertOptions> = {}) {
    this.ports = ports;
    this.opts = { ...defaultAlertOptions, ...options };
    const given = options.publicUrl;
    const serverUrl = options.serverUrl;
    this.publicUrl = () => given ?? serverUrl?.() ?? defaultAlertOptions.publicUrl;
    this.subsDb = ports.store.sublevel('local:alerts:subs');
    const rows = ports.store.sublevel('p:alerts');
    this.book = new AlertBook({
      store: ports.store,
      subsDb: this.subsDb,
      outbox: () => this.outbox,
      height: () => ports.height(),
      opts: this.opts,
    });
    const book = this.book;
    this.mailCap = new ConfirmMailCap(ports.store.sublevel('local:alerts:mailcap'), this.opts.maxConfirmMailsPerDay);
    this.outbox = new AlertOutbox(
      {
        store: ports.store,
        rows,
        sent: ports.store.sublevel('local:alerts:sent'),
        subsDb: this.subsDb,
        confirm: ports.store.sublevel('local:alerts:confirm'),
      },
      (id) => book.get(id),
      this.opts,
      (sub) => book.index.remove(sub),
    );
    this.reactorDeps = {
      subs: { lookup: (t, a) => book.index.lookup(t, a), empty: () => book.index.empty(), get: (id) => book.get(id) },
      known: (id) => this.outbox.knows(id),
      pending: (subId) => this.outbox.pendingFor(subId),
      maxOutbox: this.opts.maxOutbox,
      maxPendingPerSub: this.opts.maxPendingPerSub,
      restored: (rows) => this.outbox.replace(rows),
      written: (rows) => {
        for (const r of rows) this.outbox.add(r);
      },
      publicUrl: () => this.publicUrl(),
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
    this.subscribeDeps = {
      opts: this.opts,
      book,
      outbox: this.outbox,
      mailCap: this.mailCap,
      subsDb: this.subsDb,
      store: ports.store,
      height: () => ports.height(),
      publicUrl: () => this.publicUrl(),
    };
  }

  /** Lifecycle: loads subscriptions, joins the runner (caught up from its saved position), starts delivering. */
  async start(): Promise<void> {
    await this.book.load();
    await this.mailCap.load();
    await this.outbox.load();
    await this.book.sweepUnconfirmed();
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
    return this.outbox.pendingFor();
  }

  /** True when e-mail can be sent. */
  get mailEnabled(): boolean {
    return this.outbox.mailEnabled;
  }

  /** An observer of finished attempts with the whole row and result (tests; metrics take `onAttempt` in the options). */
  set onAttempt(fn: AlertOutbox['onAttempt']) {
    this.outbox.onAttempt = fn;
  }

  /**
   * Matches one block outside the chain's fold (tests of matching with synthetic blocks): its
   * deliveries are written and queued like any other; no saved position moves.
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

  // ---- subscriptions ----------------------------------------------------------------------

  /** True when `token` is a known alert token. */
  knowsToken(token: string): boolean {
    return this.book.knowsToken(token);
  }

  /** Creates a subscription (services/alerts/alertSubscribe.ts). */
  subscribe(
    input: { trigger: Trigger; params: { address?: string }; channel: 'webhook' | 'email'; target: string },
    ip: string,
    token?: string,
  ) {
    return alertSubscribe(this.subscribeDeps, input, ip, token);
  }

  /** What a confirmation link would confirm, changing nothing: `{id, trigger, target, expiresAt}`. */
  awaitingConfirmation(linkToken: string) {
    const rec = this.book.awaiting(linkToken);
    return {
      id: rec.id,
      trigger: rec.trigger,
      address: rec.params.address ?? null,
      target: rec.target,
      expiresAt: present(rec.confirmExpiresAt, 'the confirmation link expiry'),
    };
  }

  /** Confirms an e-mail subscription by its link's token. */
  confirm(linkToken: string) {
    return this.book.confirm(linkToken);
  }

  /** Re-enables a disabled subscription of `token`. */
  enable(id: string, token: string) {
    return this.book.enable(id, token);
  }

  /** Rotates the signing secret of a webhook subscription of `token`. */
  rotateSecret(id: string, token: string) {
    return this.book.rotateSecret(id, token);
  }

  /** The subscriptions of a token; UNAUTHORIZED for an unknown one. */
  list(token: string) {
    return this.book.list(token);
  }

  /** Removes a subscription of `token`, with its pending deliveries. */
  async remove(id: string, token: string): Promise<void> {
    await this.book.drop(this.book.owned(id, token));
  }
}
