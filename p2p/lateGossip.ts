/**
 * Gossip made stale by the node's own lag is no fault of its sender. A node that was paused,
 * partitioned or restarted learns a batch of blocks at once through sync, while its honest peers'
 * gossip of those same blocks and their transactions (sent while it was away, or crossing the
 * sync) is still arriving: every such message is "already known" by the time it is read, through
 * nothing its sender did. Judged by content alone it would spend the sender's stale-gossip budget
 * (p2p/staleGossip.ts) within seconds and cost it peer score until the node stops publishing to
 * it (300 such messages in 7 s after a 10 s pause, issue 39).
 *
 * So staleness is judged against when this node learned the thing: a block or transaction it
 * learned within the last `graceMs` (by its own clock) is excused once per peer, ignored rather
 * than charged. An honest peer sends each message once; a replayer sending one block or
 * transaction in many encodings gets its first copy excused and pays for the rest as before, and
 * anything the node learned earlier is charged as before.
 */

interface Learned {
  /** When the node learned it (local clock). */
  at: number;
  /** Peers excused for it so far. */
  peers: Set<string> | null;
}

/** What the node learned recently, and who was excused for sending it late. */
export class LateGossip {
  private readonly graceMs: number;
  private readonly maxKeys: number;
  /** In the order learned (oldest first). */
  private readonly learned = new Map<string, Learned>();
  /** Late messages excused so far (operators and tests). */
  excused = 0;

  /** Keys are remembered `graceMs`, at most `maxKeys` of them (the oldest are forgotten first). */
  constructor(graceMs: number, maxKeys = 50_000) {
    if (!(graceMs >= 0)) throw new RangeError(`a grace period must be a non-negative number of ms, got ${graceMs}`);
    this.graceMs = graceMs;
    this.maxKeys = maxKeys;
  }

  /** The node just learned `keys` (a block's hash and its transactions' hashes). */
  learn(keys: Iterable<string>, now = Date.now()): void {
    for (const k of keys) {
      // Learned again (a reorganisation): it moves to the end, with a fresh grace period.
      this.learned.delete(k);
      this.learned.set(k, { at: now, peers: null });
    }
    this.prune(now);
  }

  /** True, once per peer, when `peer` sends `key` within the grace period after the node learned it. */
  excuse(peer: string, key: string, now = Date.now()): boolean {
    this.prune(now);
    const l = this.learned.get(key);
    if (!l || l.peers?.has(peer)) return false;
    l.peers ??= new Set();
    l.peers.add(peer);
    this.excused++;
    return true;
  }

  /** Forgets what is past its grace period, and the oldest beyond `maxKeys`. */
  private prune(now: number): void {
    for (const [k, l] of this.learned) {
      if (now - l.at <= this.graceMs && this.learned.size <= this.maxKeys) break;
      this.learned.delete(k);
    }
  }
}
