/**
 * The alert subscriptions (`local:alerts:subs`) and their lifecycle: active ones sit in the match
 * index the reactor reads; an unconfirmed e-mail subscription joins it when its link is followed,
 * a disabled one leaves it until its owner re-enables it. Owners are known by their token's hash.
 */
import { randomBytes } from 'node:crypto';
import { ChainError } from '../../core/errors.ts';
import { SubscriptionIndex } from './alertMatch.ts';
import type { ProjectionStore, Rows } from '../../projections/store.ts';
import type { AlertOutbox } from './alertOutbox.ts';
import { newSecret, sha, upgradeRecord } from './alertSecrets.ts';
import { subView, type AlertOptions, type SubRecord } from './alertTypes.ts';
import { sealSecret } from './secretSeal.ts';

/** What the book needs around it. */
export interface AlertBookDeps {
  store: Pick<ProjectionStore, 'write'>;
  subsDb: Rows;
  outbox: () => Pick<AlertOutbox, 'dropFor' | 'pendingBySub'>;
  /** The head height (a subscription that becomes active fires for later blocks only). */
  height: () => number;
  opts: Pick<AlertOptions, 'clock' | 'secretGraceMs' | 'secretsKey'>;
}

/**
 * A new subscription's record: a webhook active with a fresh secret (sealed in the record under
 * `at.secretsKey`; `secret` is it in clear, to show once), an e-mail unconfirmed.
 */
export function newSubRecord(
  input: Pick<SubRecord, 'trigger' | 'params' | 'channel' | 'target'>,
  at: { tokenHash: string; ip: string; now: number; height: number; confirmToken: string | null; ttlMs: number; secretsKey?: Buffer },
): { rec: SubRecord; secret: string } {
  const email = input.channel === 'email';
  const secret = email ? '' : newSecret();
  return { rec: subRecordWith(input, at, sealSecret(at.secretsKey, secret)), secret };
}

function subRecordWith(
  input: Pick<SubRecord, 'trigger' | 'params' | 'channel' | 'target'>,
  at: { tokenHash: string; ip: string; now: number; height: number; confirmToken: string | null; ttlMs: number },
  secret: string,
): SubRecord {
  const email = input.channel === 'email';
  return {
    id: `sub_${randomBytes(8).toString('hex')}`,
    tokenHash: at.tokenHash,
    secret,
    previousSecret: null,
    previousSecretUntil: null,
    status: email ? 'unconfirmed' : 'active',
    confirmHash: at.confirmToken ? sha(at.confirmToken) : null,
    confirmExpiresAt: email ? at.now + at.ttlMs : null,
    consecutiveFailures: 0,
    disabledAt: null,
    disabledReason: null,
    trigger: input.trigger,
    params: input.params,
    channel: input.channel,
    target: input.target,
    createdAt: at.now,
    // Fires for blocks committed after this moment (after confirmation, for e-mail).
    fromHeight: at.height,
    ip: at.ip,
    delivered: 0,
    failed: 0,
    lastDeliveredAt: null,
    lastFailure: null,
  };
}

/** Subscriptions by id, by token and by confirmation link, and the match index of active ones. */
export class AlertBook {
  readonly index = new SubscriptionIndex();
  private readonly deps: AlertBookDeps;
  private readonly subs = new Map<string, SubRecord>();
  private readonly byToken = new Map<string, Set<string>>();
  /** Confirmation link hash -> subscription id (unconfirmed e-mail subscriptions). */
  private readonly byConfirm = new Map<string, string>();

  constructor(deps: AlertBookDeps) {
    this.deps = deps;
  }

  /** Loads the stored subscriptions, rewriting those stored in an older shape. */
  async load(): Promise<void> {
    for await (const v of this.deps.subsDb.values()) {
      const { rec, changed } = upgradeRecord(v as Record<string, unknown>, this.deps.opts.secretsKey);
      if (changed) await this.deps.subsDb.put(rec.id, rec);
      this.add(rec);
    }
  }

  /** A subscription by id. */
  get(id: string): SubRecord | undefined {
    return this.subs.get(id);
  }

  /** Every subscription. */
  all(): IterableIterator<SubRecord> {
    return this.subs.values();
  }

  /** Subscriptions held by a token. */
  countOf(tokenHash: string): number {
    return this.byToken.get(tokenHash)?.size ?? 0;
  }

  /** True when `token` is a known alert token. */
  knowsToken(token: string): boolean {
    return this.countOf(sha(token)) > 0;
  }

  /** Takes a subscription in (already written). */
  add(r: SubRecord): void {
    this.subs.set(r.id, r);
    let set = this.byToken.get(r.tokenHash);
    if (!set) {
      set = new Set();
      this.byToken.set(r.tokenHash, set);
    }
    set.add(r.id);
    if (r.status === 'active') this.index.add(r);
    if (r.confirmHash) this.byConfirm.set(r.confirmHash, r.id);
  }

  /** A subscription of `token`: UNAUTHORIZED for an unknown token, NOT_FOUND for another's id. */
  owned(id: string, token: string): SubRecord {
    const ids = this.ids(token);
    const rec = this.subs.get(id);
    if (!rec || !ids.has(id)) throw new ChainError('NOT_FOUND', `subscription ${id.slice(0, 40)} not found for this token`);
    return rec;
  }

  private ids(token: string): Set<string> {
    const ids = this.byToken.get(sha(token));
    if (!ids || ids.size === 0) throw new ChainError('UNAUTHORIZED', 'missing or unknown X-Alert-Token');
    return ids;
  }

  /** The subscriptions of a token, oldest first; UNAUTHORIZED for an unknown one. */
  list(token: string) {
    const ids = this.ids(token);
    const pending = this.deps.outbox().pendingBySub();
    return [...ids]
      .flatMap((id) => this.subs.get(id) ?? [])
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
      .map((s) => subView(s, pending.get(s.id) ?? 0));
  }

  /** The unconfirmed subscription of a link's token, unchanged; NOT_FOUND for an unknown or expired link. */
  awaiting(linkToken: string): SubRecord {
    const id = /^[0-9a-f]{64}$/.test(linkToken) ? this.byConfirm.get(sha(linkToken)) : undefined;
    const rec = id === undefined ? undefined : this.subs.get(id);
    if (rec?.status !== 'unconfirmed' || (rec.confirmExpiresAt ?? 0) <= this.deps.opts.clock())
      throw new ChainError('NOT_FOUND', 'unknown or expired confirmation link');
    return rec;
  }

  /** Confirms the e-mail subscription of a link's token; NOT_FOUND for an unknown or expired link. */
  async confirm(linkToken: string) {
    const rec = this.awaiting(linkToken);
    if (rec.confirmHash) this.byConfirm.delete(rec.confirmHash);
    Object.assign(rec, { status: 'active', confirmHash: null, confirmExpiresAt: null, consecutiveFailures: 0 });
    rec.fromHeight = this.deps.height();
    // The confirmation mail may still be waiting for a retry: it is no longer needed.
    await this.deps.store.write([
      { type: 'put', key: rec.id, value: rec, sublevel: this.deps.subsDb },
      ...this.deps.outbox().dropFor(rec.id),
    ]);
    this.index.add(rec);
    return { ok: true as const, id: rec.id, confirmed: true as const };
  }

  /** Re-enables a subscription a run of failures disabled; it fires for blocks from now on. */
  async enable(id: string, token: string) {
    const rec = this.owned(id, token);
    if (rec.status === 'unconfirmed')
      throw new ChainError('INVALID_PARAMS', 'this e-mail subscription is not confirmed yet: follow the link it was mailed');
    if (rec.status === 'disabled') {
      Object.assign(rec, { status: 'active', consecutiveFailures: 0, disabledAt: null, disabledReason: null });
      rec.fromHeight = this.deps.height();
      await this.deps.subsDb.put(rec.id, rec);
      this.index.add(rec);
    }
    return { ok: true as const, id: rec.id, enabled: true as const };
  }

  /** Replaces a webhook's signing secret; the replaced one still signs, beside it, for the grace period. */
  async rotateSecret(id: string, token: string) {
    const rec = this.owned(id, token);
    if (rec.channel !== 'webhook') throw new ChainError('INVALID_PARAMS', 'only webhook subscriptions have a signing secret');
    const until = this.deps.opts.clock() + this.deps.opts.secretGraceMs;
    const secret = newSecret();
    Object.assign(rec, { previousSecret: rec.secret, previousSecretUntil: until, secret: sealSecret(this.deps.opts.secretsKey, secret) });
    await this.deps.subsDb.put(rec.id, rec);
    return { id: rec.id, secret, previousSecretValidUntil: until };
  }

  /** Removes unconfirmed e-mail subscriptions whose link expired. */
  async sweepUnconfirmed(): Promise<void> {
    const now = this.deps.opts.clock();
    for (const r of [...this.subs.values()]) if (r.status === 'unconfirmed' && (r.confirmExpiresAt ?? 0) <= now) await this.drop(r);
  }

  /** Removes a subscription with its waiting deliveries. */
  async drop(rec: SubRecord): Promise<void> {
    await this.deps.store.write([{ type: 'del', key: rec.id, sublevel: this.deps.subsDb }, ...this.deps.outbox().dropFor(rec.id)]);
    this.subs.delete(rec.id);
    const ids = this.byToken.get(rec.tokenHash);
    ids?.delete(rec.id);
    if (ids?.size === 0) this.byToken.delete(rec.tokenHash);
    if (rec.confirmHash) this.byConfirm.delete(rec.confirmHash);
    this.index.remove(rec);
  }
}
