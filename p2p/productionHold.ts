/**
 * Whether an authority should skip its slot because a peer is, or may be, ahead of this node
 * (node/writer/producer.ts asks through p2p/sync.ts `behind`). A block built on a stale head loses,
 * and while it is built and gossiped the sync fetching the better chain is refused ("the chain
 * holds another block", "the head moved"); but a liar must not stop an authority for long, so a
 * bare claim holds production for at most one request deadline, a silent new peer for at most two
 * block times, and nothing holds it for more than three deadlines while the head does not move.
 */
import type { PeerHeads } from './peerHeads.ts';

/** Most connected peers whose first sync is awaited (the connection cap bounds it already). */
const MAX_FRESH = 1024;

/** Tracks what holds production: peers' heads with evidence, the running sync, and peers not yet asked. */
export class ProductionHold {
  private readonly headIndex: () => number;
  private readonly heads: Pick<PeerHeads, 'best'>;
  /** One request deadline (syncRequestTimeoutMs). */
  private readonly deadlineMs: number;
  /** How long a peer that connected but was not heard yet holds production. */
  private readonly freshMs: number;
  /** When the running sync's peer showed a better chain than ours (its status), until that sync ends; null otherwise. */
  private behindSince: number | null = null;
  /** The head height behind() last saw, and since when (production is held only while it moves). */
  private headSeen = { index: -1, at: 0 };
  /** Peers connected whose first sync (status, then any catch-up) has not ended yet, with when they connected. */
  private readonly fresh = new Map<string, number>();

  /**
   * `freshMs` (default: one deadline) bounds the hold of a peer not heard yet: a peer that answers
   * its status late (a follower back from a pause, busy with its backlog) says nothing about this
   * node being behind, and held every authority's slots for 6.6 s in a CI run; the peers of an
   * authority back from a cut answer at once, and a better chain their status shows holds by itself.
   */
  constructor(headIndex: () => number, heads: Pick<PeerHeads, 'best'>, deadlineMs: number, freshMs = deadlineMs) {
    this.headIndex = headIndex;
    this.heads = heads;
    this.deadlineMs = deadlineMs;
    this.freshMs = Math.min(freshMs, deadlineMs);
  }

  /**
   * True while this node should not build on its head: a peer showed a higher head with evidence
   * (p2p/peerHeads.ts), or a peer's status showed a better chain and the sync taking it is
   * running, for at most one request deadline each, or a peer connected whose status is not known
   * yet, for at most `freshMs`; none while the head stood still for three deadlines.
   */
  behind(now = Date.now()): boolean {
    const head = this.headIndex();
    if (head !== this.headSeen.index) this.headSeen = { index: head, at: now };
    // Whatever holds production may not hold it for more than a few request deadlines while the
    // head does not move: a claim that outlived its peer (a CI run saw an authority halted for
    // good after a stalling liar was banned) must not stop the chain.
    if (now - this.headSeen.at > 3 * this.deadlineMs) return false;
    return this.held(now);
  }

  private held(now: number): boolean {
    const best = this.heads.best(now);
    if (best !== null && best > this.headIndex()) return true;
    const deadline = this.deadlineMs;
    if (this.behindSince !== null && now - this.behindSince < deadline) return true;
    let held = false;
    for (const [peer, at] of this.fresh) {
      if (now - at < this.freshMs) held = true;
      // Past its hold a peer stays next to be asked (isFresh) until a deadline passes, as before.
      else if (now - at >= deadline) this.fresh.delete(peer);
    }
    return held;
  }

  /** A peer connected: until its first sync ends (or `freshMs` passes), the node counts as possibly behind. */
  connected(peer: string, now = Date.now()): void {
    if (this.fresh.size < MAX_FRESH) this.fresh.set(peer, now);
  }

  /** A peer disconnected: it no longer holds production back. */
  disconnected(peer: string): void {
    this.fresh.delete(peer);
  }

  /** The running sync's peer showed a better chain than ours (its status). */
  syncBehind(now = Date.now()): void {
    this.behindSince = now;
  }

  /** The sync with `peer` ended: neither it nor that peer holds production any more. */
  syncEnded(peer: string): void {
    this.behindSince = null;
    this.fresh.delete(peer);
  }

  /** True while `peer` connected and its first sync has not ended (it is next to be asked). */
  isFresh(peer: string): boolean {
    return this.fresh.has(peer);
  }
}
