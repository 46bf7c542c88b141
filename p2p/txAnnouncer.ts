/**
 * Pending transactions are announced until mined. A transaction the node took from its API (or
 * restored from its pending log after a restart) is published on the transaction topic when a
 * peer would receive it; while none would (no peer subscribed, or none scored at or above the
 * publish threshold), it is held back rather than published to nobody, and published as soon as a
 * peer subscribes. A transaction still pending some block times after the node took it (from its
 * API or from gossip) is published again, oldest first and a few a round.
 *
 * Why publishing the same bytes again works: message ids are content hashes (p2p/gossipConfig.ts),
 * so gossipsub drops identical bytes as duplicates, and refuses to publish them ("duplicate"),
 * while the id is in its seen cache. That cache keeps an id for `gossipSeenTtlMs`; a transaction is
 * therefore published again at most once per that time (plus a heartbeat of slack), when every
 * peer that saw it has forgotten the id and validates it afresh: a peer that lacks it admits and
 * forwards it, a peer that holds it finds it stale (p2p/staleGossip.ts). The few a round keep
 * those well inside each peer's stale-gossip budget. A transaction never published (restored,
 * or taken while no peer listened) is not in any seen cache: it goes out at once.
 *
 * A sender's transactions go out in nonce order, never into a gap: one whose predecessor (the same
 * sender's nonce before it) is pending here, never published or published at least
 * `reannounceAfterMs` ago, is held back until that predecessor is mined or published again. A peer
 * that lacks the predecessor ignores the successor (NONCE_GAP) and its seen cache keeps the id, so
 * a successor published into that gap could not reach it again for `republishAfterMs`: every later
 * transaction of the sender, taken by this node alone (the others answer NONCE_GAP), would wait
 * its own seen-cache lifetime and a place among the few republished a round, and under steady load
 * the sender's backlog would never drain.
 */
import type { SignedTx } from '../core/tx/handler.ts';
import { type Logger, silentLogger } from '../node/log.ts';
import { PUBLISH_THRESHOLD } from './gossipConfig.ts';
import type { P2pOptions } from './options.ts';
import { encode } from './wire.ts';
import { errorMessage } from '../core/errors.ts';

/** What the announcer needs of gossipsub. */
export interface TxGossip {
  publish(topic: string, data: Uint8Array): Promise<{ recipients: unknown[] }>;
  getSubscribers(topic: string): { toString(): string }[];
  getScore(peerId: string): number;
}

/** Re-announcement settings (p2p/options.ts holds the defaults). */
export interface TxAnnouncerOptions {
  /** A transaction pending this long since the node took it is published again. */
  reannounceAfterMs: number;
  /** At least this long between two publications of one transaction (gossipsub's seen-cache TTL and slack). */
  republishAfterMs: number;
  /** Transactions published again per round at most, oldest first. */
  perRound: number;
  /** Transactions never published yet (restored, or taken while no peer listened) published per round or subscription at most. */
  flushPerRound: number;
  /** Peers scored below this get nothing from a publication (gossipsub's publish threshold). */
  publishThreshold: number;
}

/** The announcer's settings from the network's options and the chain's block time. */
export function announcerOptions(opts: P2pOptions, blockTimeMs: number): TxAnnouncerOptions {
  return {
    reannounceAfterMs: opts.reannounceAfterBlocks * blockTimeMs,
    // A heartbeat's slack: the seen cache is pruned once a second, not at the instant an id expires.
    republishAfterMs: opts.gossipSeenTtlMs + 2000,
    perRound: opts.reannouncePerRound,
    flushPerRound: opts.announceBacklogPerRound,
    publishThreshold: PUBLISH_THRESHOLD,
  };
}

interface Held {
  /** When the node took it (local clock). */
  since: number;
  /** When it was last published (or came in by gossip); null: never. */
  at: number | null;
  /** Its sender and nonce (see `slotOf`). */
  slot: string;
}

/** A sender's nonce as one key (`from` may be signed in any case). */
function slotOf(from: string, nonce: number): string {
  return `${from.toLowerCase()}:${nonce}`;
}

/** Announces the node's pending transactions until they leave its mempool. */
export class TxAnnouncer {
  private readonly gossip: TxGossip;
  private readonly topic: string;
  private readonly pending: () => SignedTx[];
  private readonly opts: TxAnnouncerOptions;
  private readonly held = new Map<string, Held>();
  /** The hash held for each sender and nonce. */
  private readonly bySlot = new Map<string, string>();
  private readonly log: Pick<Logger, 'info' | 'debug'>;
  /** Held transactions never published, as last counted (a flush counts them again). */
  private backlog = 0;
  /** Publications so far: first ones and repeats. */
  readonly counts = { published: 0, republished: 0 };

  /** `pending`: the mempool in arrival order; what is in it now was never published (restored). */
  constructor(
    gossip: TxGossip,
    topic: string,
    pending: () => SignedTx[],
    opts: TxAnnouncerOptions,
    log: Pick<Logger, 'info' | 'debug'> = silentLogger,
    now = Date.now(),
  ) {
    this.gossip = gossip;
    this.topic = topic;
    this.pending = pending;
    this.opts = opts;
    this.log = log;
    for (const tx of pending()) this.hold(tx, now, null);
    this.backlog = this.held.size;
  }

  /** Peers a transaction published now would reach. */
  recipients(): number {
    return this.gossip.getSubscribers(this.topic).filter((p) => this.gossip.getScore(p.toString()) >= this.opts.publishThreshold).length;
  }

  /** A transaction the node admitted: from its API (published now if anyone listens) or from gossip (already out there). */
  admitted(tx: SignedTx, fromGossip: boolean, now = Date.now()): void {
    // Counted once (a round counts again exactly).
    if (!fromGossip && this.held.get(tx.hash)?.at !== null) this.backlog++;
    const h = this.hold(tx, now, fromGossip ? now : null);
    if (!fromGossip && !this.waits(tx, now) && this.recipients() > 0) this.publish(tx, h, now, false);
  }

  /** Publishes what was never published, in arrival order, up to `flushPerRound`. */
  flush(now = Date.now()): void {
    this.flushFrom(this.pending(), now);
  }

  /**
   * One round: forgets what left the mempool, publishes what was never published, then publishes
   * again up to `perRound` of the oldest that stayed pending past `reannounceAfterMs` and were not
   * published for `republishAfterMs`, and after them the successors held back behind them.
   */
  round(now = Date.now()): void {
    const pending = this.pending();
    this.flushFrom(pending, now);
    if (this.recipients() === 0) return;
    let n = 0;
    for (const tx of pending) {
      if (n >= this.opts.perRound) break;
      const h = this.held.get(tx.hash);
      if (!h || h.at === null || now - h.since < this.opts.reannounceAfterMs || now - h.at < this.opts.republishAfterMs) continue;
      // Its predecessor is stuck too: published again first (earlier in this loop), or it would be wasted.
      if (this.waits(tx, now)) continue;
      this.publish(tx, h, now, true);
      n++;
    }
    if (n === 0) return;
    this.log.debug('announced pending transactions again', { count: n });
    // Successors held back behind what just went out again follow it now, in order.
    if (this.backlog > 0) this.flushFrom(pending, now);
  }

  /** Matches what is held to `pending` (forgets what left, counts the backlog), then publishes the backlog's first `flushPerRound`. */
  private flushFrom(pending: readonly SignedTx[], now: number): void {
    const live = new Set<string>();
    for (const tx of pending) {
      live.add(tx.hash);
      // Back in the pool without an event (a reorganisation's): the network had it, so it waits its turn.
      if (!this.held.has(tx.hash)) this.hold(tx, now, now);
    }
    this.backlog = 0;
    for (const [hash, h] of this.held) {
      if (!live.has(hash)) this.forget(hash, h);
      else if (h.at === null) this.backlog++;
    }
    if (this.backlog === 0 || this.recipients() === 0) return;
    let n = 0;
    for (const tx of pending) {
      if (n >= this.opts.flushPerRound) break;
      const h = this.held.get(tx.hash);
      if (h?.at !== null || this.waits(tx, now)) continue;
      this.publish(tx, h, now, false);
      n++;
    }
    // Restored after a restart, or held back while no peer listened: the operator sees them go out.
    if (n > 0) this.log.info('announced pending transactions', { count: n, left: this.backlog });
  }

  /**
   * True while `tx` must not go out: the sender's transaction before it is pending here and was
   * never published, or was published (or came in) at least `reannounceAfterMs` ago and is still
   * not mined, so peers may lack it.
   */
  private waits(tx: SignedTx, now: number): boolean {
    const before = this.bySlot.get(slotOf(tx.from, tx.nonce - 1));
    const p = before === undefined ? undefined : this.held.get(before);
    return p !== undefined && (p.at === null || now - p.at >= this.opts.reannounceAfterMs);
  }

  private hold(tx: SignedTx, since: number, at: number | null): Held {
    const h: Held = { since, at, slot: slotOf(tx.from, tx.nonce) };
    this.held.set(tx.hash, h);
    this.bySlot.set(h.slot, tx.hash);
    return h;
  }

  private forget(hash: string, h: Held): void {
    this.held.delete(hash);
    // A replacement (same sender and nonce, another hash) keeps its slot.
    if (this.bySlot.get(h.slot) === hash) this.bySlot.delete(h.slot);
  }

  /** Transactions held that were never published, as last counted (a flush or round counts them again). */
  unannounced(): number {
    return this.backlog;
  }

  private publish(tx: SignedTx, h: Held, now: number, again: boolean): void {
    if (h.at === null) this.backlog--;
    h.at = now;
    if (again) this.counts.republished++;
    else this.counts.published++;
    this.gossip
      .publish(this.topic, encode(tx))
      .catch((e: unknown) => this.log.debug('publish failed', { topic: this.topic, hash: tx.hash, error: errorMessage(e) }));
  }
}
