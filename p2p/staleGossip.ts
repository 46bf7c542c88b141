/**
 * A budget for stale gossip: transactions and blocks the node already has. Identical bytes are
 * dropped by gossipsub's seen cache before any validation (message ids are content hashes,
 * p2p/gossipConfig.ts); a replay that differs in its bytes reaches the validator, which finds it
 * known. Honest peers send such a message now and then (one that crossed a block on its way), so
 * each peer gets a small budget a minute, and one more for each message it delivered first (a busy
 * honest relay sends far more new messages than late ones; a replayer sends none); beyond it, stale gossip is rejected, and costs the
 * sender peer score like invalid gossip, until gossipsub graylists it. While a peer's budget is
 * spent, all its gossip is rejected before it is read (an honest peer never gets there): what it
 * sends until gossipsub recomputes its score (up to a second) costs the node next to nothing.
 * Stale gossip read late through the node's own stall (p2p/stallWatch.ts) costs nothing.
 */
import { MAX_BANNED } from './banList.ts';
import { RequestBuckets } from './requestBuckets.ts';

/** Per-peer allowance of stale gossip messages. */
export class StaleGossipBudget {
  private readonly buckets: RequestBuckets;
  /** True while the node reads what peers sent during its own stall (p2p/stallWatch.ts): nothing is charged then. */
  readonly forgives: () => boolean;
  /** Stale messages seen within budget, beyond it (rejected), forgiven after the node's own stall, and gossip rejected unread while spent. */
  readonly counts = { allowed: 0, charged: 0, forgiven: 0, unread: 0 };

  /** `perMinute` stale messages a peer (as many in a burst) before they cost it score. */
  constructor(perMinute: number, forgiving: () => boolean = () => false) {
    if (!(perMinute > 0)) throw new RangeError(`a stale gossip budget must be positive, got ${perMinute}`);
    this.buckets = new RequestBuckets(perMinute / 60, MAX_BANNED, perMinute);
    this.forgives = forgiving;
  }

  /** True while `peer` has spent its budget: its gossip is rejected unread (counted). */
  spent(peer: string, now = Date.now()): boolean {
    if (this.buckets.has(peer, now) || this.forgives()) return false;
    this.counts.unread++;
    return true;
  }

  /** Credits `peer` with one stale message for a new message it delivered (up to the budget). */
  earn(peer: string, now = Date.now()): void {
    this.buckets.give(peer, now);
  }

  /** Records one stale message from `peer`; true when it is within the budget (ignore), false when it costs (reject). */
  allow(peer: string, now = Date.now()): boolean {
    if (this.forgives()) {
      this.counts.forgiven++;
      return true;
    }
    const ok = this.buckets.take(peer, now) === 0;
    if (ok) this.counts.allowed++;
    else this.counts.charged++;
    return ok;
  }
}
