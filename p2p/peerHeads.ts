/**
 * The best head the node's peers have shown, for readiness (GET /api/health "behind"). A peer's
 * head counts only with evidence: a block sealed by its slot's authority that the peer gossiped,
 * or a claimed head from which the node already imported verified blocks, while the peer serves
 * it. A bare claim counts for nothing (a lying peer would drain every follower it reaches), and a
 * peer's head is forgotten when a sync with it ends short of that head (p2p/sync.ts), and when it
 * disconnects or is struck or banned.
 */

/** Heights shown by connected peers, at most one per peer. */
export class PeerHeads {
  private readonly heights = new Map<string, number>();
  /** Most peers remembered (the connection cap bounds it already; this keeps the map bounded anyway). */
  private readonly max: number;

  constructor(max = 1024) {
    this.max = max;
  }

  /** Records that `peer` showed, with evidence, a chain reaching `height`. */
  note(peer: string, height: number): void {
    if (!Number.isSafeInteger(height) || height < 0) return;
    const known = this.heights.get(peer);
    if (known !== undefined && known >= height) return;
    if (known === undefined && this.heights.size >= this.max) return;
    this.heights.set(peer, height);
  }

  /** Forgets a peer (disconnected, struck or banned). */
  forget(peer: string): void {
    this.heights.delete(peer);
  }

  /** The best height any connected peer showed; null when none showed one. */
  best(): number | null {
    let best: number | null = null;
    for (const h of this.heights.values()) if (best === null || h > best) best = h;
    return best;
  }
}
