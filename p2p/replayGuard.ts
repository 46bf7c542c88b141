/**
 * Gossip replays. gossipsub drops a message it has seen before its signature or data is looked at
 * (message ids are content hashes, p2p/gossipConfig.ts), but it neither blames nor stops the peer
 * that sent it: a replayer could make the node read, decrypt and hash the same megabytes for as
 * long as it likes. An honest peer sends a message once, and again only when asked (gossipsub's
 * IWANT retransmissions, at most 3 a message); so each copy a peer sends of a message it sent
 * before costs it from its stale-gossip budget (p2p/staleGossip.ts), and a peer that sends one
 * message more than MAX_COPIES times within COPY_WINDOW_MS, or spends its budget on copies, is
 * banned and hung up on. (A message re-announced now and then, minutes apart, is no replay; nor
 * are the copies a node reads late through its own stall: p2p/stallWatch.ts.)
 */
import type { GossipSub } from '@chainsafe/libp2p-gossipsub';
import type { StaleGossipBudget } from './staleGossip.ts';
import { makeRoom } from '../core/recency.ts';

/** Duplicates of one message one peer may send within COPY_WINDOW_MS (its first copy and gossipsub's retransmissions). */
export const MAX_COPIES = 4;
/** How long copies of one message from one peer are counted together. */
export const COPY_WINDOW_MS = 60_000;
/** Peer and message pairs remembered (the oldest goes first). */
const MAX_TRACKED = 16_384;

/** Counts the copies each peer sends of messages the node has seen. */
export class ReplayGuard {
  private readonly stale: StaleGossipBudget;
  /** Copies by peer and message, and when the first of them came. */
  private readonly copies = new Map<string, { n: number; since: number }>();
  constructor(stale: StaleGossipBudget) {
    this.stale = stale;
  }

  /** Records a duplicate of `msgId` from `peer`; why the peer is to be banned, or null. */
  duplicate(peer: string, msgId: string, now = Date.now()): string | null {
    // Read late through the node's own stall (the budget's own test): neither counted nor charged.
    if (this.stale.forgives()) return null;
    const key = `${peer} ${msgId}`;
    const kept = this.copies.get(key);
    const since = kept && now - kept.since < COPY_WINDOW_MS ? kept.since : now;
    const n = since === kept?.since ? kept.n + 1 : 1;
    this.copies.delete(key);
    makeRoom(this.copies, MAX_TRACKED);
    this.copies.set(key, { n, since });
    if (n > MAX_COPIES) return `sent one gossip message ${n} times`;
    // Its first copy may be the one that crossed another peer's: free. Later ones are replays.
    if (n > 1 && !this.stale.allow(peer)) return 'replayed gossip beyond its stale-gossip budget';
    return null;
  }

  /** Hooks gossipsub's duplicate path (the peer score's record of it): `ban` gets each peer to ban and why. */
  watch(pubsub: unknown, ban: (peer: string, why: string) => void): void {
    const score = (pubsub as GossipSub).score;
    const duplicate = score.duplicateMessage.bind(score);
    score.duplicateMessage = (from, msgIdStr, topic) => {
      duplicate(from, msgIdStr, topic);
      const why = this.duplicate(from, msgIdStr);
      if (why) ban(from, why);
    };
  }
}
