/**
 * Peers banned for a while: those that served invalid blocks or broke the sync protocol, or were
 * struck too often (a sync request that missed its deadline, or a refusal to serve blocks below the
 * head it claimed). Bounded: when full, the oldest ban or strike record goes first.
 */

/** How long a peer stays banned. */
export const BAN_MS = 10 * 60_000;
/** Most peers banned at once. */
export const MAX_BANNED = 1024;

/** Ban deadlines by peer id. */
export class BanList {
  private readonly until = new Map<string, number>();
  /** Recent strike times by peer id, and the end of the cooldown after the last. */
  private readonly strikes = new Map<string, { at: number[]; coolUntil: number }>();
  /** Bans handed out since start (operators' metrics). */
  total = 0;

  /** True while `peer` is banned (an expired ban is forgotten). */
  has(peer: string, now = Date.now()): boolean {
    const t = this.until.get(peer);
    if (t === undefined) return false;
    if (t > now) return true;
    this.until.delete(peer);
    return false;
  }

  /** Bans `peer` for BAN_MS from `now`. */
  add(peer: string, now = Date.now()): void {
    this.until.delete(peer);
    if (this.until.size >= MAX_BANNED) this.until.delete(this.until.keys().next().value as string);
    this.until.set(peer, now + BAN_MS);
    this.total++;
  }

  /**
   * Counts one strike against `peer` (strikes older than BAN_MS are forgotten): the peer cools
   * down for `cooldownMs`, and on the `maxStrikes`-th strike it is banned and true is answered.
   */
  strike(peer: string, maxStrikes: number, cooldownMs: number, now = Date.now()): boolean {
    const recent = (this.strikes.get(peer)?.at ?? []).filter((t) => t > now - BAN_MS);
    recent.push(now);
    this.strikes.delete(peer);
    if (recent.length >= maxStrikes) {
      this.add(peer, now);
      return true;
    }
    if (this.strikes.size >= MAX_BANNED) this.strikes.delete(this.strikes.keys().next().value as string);
    this.strikes.set(peer, { at: recent, coolUntil: now + cooldownMs });
    return false;
  }

  /** True while `peer` cools down after a strike. */
  cooling(peer: string, now = Date.now()): boolean {
    return (this.strikes.get(peer)?.coolUntil ?? 0) > now;
  }

  /** Peers banned right now. */
  count(now = Date.now()): number {
    let n = 0;
    for (const t of this.until.values()) if (t > now) n++;
    return n;
  }
}
