/**
 * The best head the node's peers have shown, for readiness (GET /api/health "behind"). A peer's
 * head counts only with evidence, of two kinds kept apart:
 * - sealed: a block at that height sealed by its slot's authority (hash, slot owner and signature
 *   checked against the genesis, and no more than one slot ahead of the local clock) that the peer
 *   gossiped. It proves the network reached that height whatever the peer does next, so it is kept
 *   when a sync with that peer ends short (a peer may relay blocks it cannot serve): it is
 *   superseded by a higher one, ages out `ttlMs` after it was last shown, and is forgotten when
 *   the peer disconnects or is banned. Once the node reaches it, it no longer makes it behind.
 * - claimed: the head a peer's sync status names, once the node imported verified blocks from it,
 *   and only while the peer serves it: a sync that ends short of it (a refusal, `heldFrom`, a
 *   stall) drops it, and the next verified import notes it again.
 * A bare claim counts for nothing (a lying peer would drain every follower it reaches).
 */

/** How long a sealed head counts after its peer last showed it, unless options say otherwise. */
export const SEALED_HEAD_TTL_MS = 60_000;

/** Heights shown by connected peers: at most one sealed and one claimed per peer. */
export class PeerHeads {
  private readonly claims = new Map<string, number>();
  private readonly sealed = new Map<string, { height: number; at: number }>();
  /** Most peers remembered per kind (the connection cap bounds it already; this keeps the maps bounded anyway). */
  private readonly max: number;
  private readonly ttlMs: number;

  constructor(max = 1024, ttlMs = SEALED_HEAD_TTL_MS) {
    this.max = max;
    this.ttlMs = ttlMs;
  }

  /** Records that the node imported verified blocks from `peer` toward the head `height` it claims. */
  noteClaim(peer: string, height: number): void {
    if (!valid(height)) return;
    const known = this.claims.get(peer);
    if (known !== undefined && known >= height) return;
    if (known === undefined && this.claims.size >= this.max) return;
    this.claims.set(peer, height);
  }

  /** Records that `peer` gossiped a block at `height` sealed by its slot's authority (checked by the caller). */
  noteSealed(peer: string, height: number, now = Date.now()): void {
    if (!valid(height)) return;
    const known = this.sealed.get(peer);
    // A lower height does not replace a higher one that still counts; the same height shown again is fresh again.
    if (known !== undefined && known.height > height && now - known.at < this.ttlMs) return;
    if (known === undefined && this.sealed.size >= this.max) this.expire(now);
    if (known === undefined && this.sealed.size >= this.max) return;
    this.sealed.set(peer, { height, at: now });
  }

  /** Drops `peer`'s claimed head (a sync with it ended short of it); its sealed evidence stays. */
  forgetClaim(peer: string): void {
    this.claims.delete(peer);
  }

  /** Forgets a peer entirely (disconnected or banned). */
  forget(peer: string): void {
    this.claims.delete(peer);
    this.sealed.delete(peer);
  }

  /** The best height any connected peer showed with evidence that still counts; null when none did. */
  best(now = Date.now()): number | null {
    this.expire(now);
    let best: number | null = null;
    for (const h of this.claims.values()) if (best === null || h > best) best = h;
    for (const { height } of this.sealed.values()) if (best === null || height > best) best = height;
    return best;
  }

  private expire(now: number): void {
    for (const [peer, { at }] of this.sealed) if (now - at >= this.ttlMs) this.sealed.delete(peer);
  }
}

function valid(height: number): boolean {
  return Number.isSafeInteger(height) && height >= 0;
}
