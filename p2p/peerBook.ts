/**
 * The known-peer book: every address this node may dial, bounded. Addresses the operator gave
 * (`--peer`) are pinned and always kept; learned ones (peer exchange, identify, mDNS) fill the
 * rest, back off exponentially after each failed dial, and are evicted after a run of failures
 * or when the book is full. Each round dials only a few due addresses: no redial storms, whatever
 * a peer advertises. Known peers are those the operator named (pinned) and those that proved
 * themselves by serving blocks this node checked and imported; the connection guard
 * (p2p/connectionGuard.ts) keeps slots for them. An address some peer merely named (even a known
 * one) is dialled, but its peer stays a stranger: a node lists whoever connected to it.
 */
import { makeRoom } from '../core/recency.ts';

/** Bounds of the peer book. */
export interface PeerBookOptions {
  /** Most addresses kept (pinned ones included). */
  maxPeers: number;
  /** Most dials started per round. */
  maxDialsPerRound: number;
  /** Wait after the first failure; doubles with each further one. */
  backoffMs: number;
  /** Longest wait between two dials of one learned address. */
  maxBackoffMs: number;
  /** Longest wait for a pinned (operator-given) address: it comes back soon after a restart. */
  maxPinnedBackoffMs: number;
  /** A learned address is forgotten after this many failures in a row. */
  maxFailures: number;
  /** Most peers remembered as proven (the oldest proof goes first). */
  maxProven: number;
}

/** Defaults. */
const defaultPeerBookOptions: PeerBookOptions = {
  maxPeers: 256,
  maxDialsPerRound: 8,
  backoffMs: 2000,
  maxBackoffMs: 5 * 60_000,
  maxPinnedBackoffMs: 8000,
  maxFailures: 6,
  maxProven: 256,
};

interface Entry {
  addr: string;
  peerId: string;
  pinned: boolean;
  failures: number;
  nextDialAt: number;
}

/** Bounded addresses with backoff. */
export class PeerBook {
  private readonly entries = new Map<string, Entry>();
  /** Peers that served blocks this node checked and imported, oldest first. */
  private readonly proven = new Set<string>();
  private readonly opts: PeerBookOptions;

  constructor(opts: Partial<PeerBookOptions> = {}) {
    this.opts = { ...defaultPeerBookOptions, ...opts };
  }

  /** Addresses kept. */
  get size(): number {
    return this.entries.size;
  }

  /** True when `addr` is kept. */
  has(addr: string): boolean {
    return this.entries.has(addr);
  }

  /** Keeps an address (`pinned`: the operator's, never evicted, and known); false when there is no room. */
  add(addr: string, pinned = false, now = 0): boolean {
    const at = addr.lastIndexOf('/p2p/');
    if (at < 0) return false;
    const kept = this.entries.get(addr);
    if (kept) {
      if (pinned) kept.pinned = true;
      return true;
    }
    if (this.entries.size >= this.opts.maxPeers && !this.evictOne(pinned)) return false;
    this.entries.set(addr, { addr, peerId: addr.slice(at + 5), pinned, failures: 0, nextDialAt: now });
    return true;
  }

  /** Records that `peerId` served blocks this node checked and imported: it is known from now on. */
  prove(peerId: string): void {
    this.proven.delete(peerId);
    makeRoom(this.proven, this.opts.maxProven);
    this.proven.add(peerId);
  }

  /** True when `peerId` is known: it has a pinned address here, or proved itself. */
  knows(peerId: string): boolean {
    if (this.proven.has(peerId)) return true;
    for (const e of this.entries.values()) if (e.pinned && e.peerId === peerId) return true;
    return false;
  }

  /** Up to `maxDialsPerRound` addresses due for a dial, not connected, soonest due first. */
  due(now: number, connected: ReadonlySet<string>): string[] {
    const out: Entry[] = [];
    for (const e of this.entries.values()) if (e.nextDialAt <= now && !connected.has(e.peerId)) out.push(e);
    out.sort((a, b) => a.nextDialAt - b.nextDialAt || Number(b.pinned) - Number(a.pinned));
    return out.slice(0, this.opts.maxDialsPerRound).map((e) => e.addr);
  }

  /** Records a dial's outcome: success resets the backoff; failure doubles it or evicts. */
  dialed(addr: string, ok: boolean, now: number): void {
    const e = this.entries.get(addr);
    if (!e) return;
    if (ok) {
      e.failures = 0;
      e.nextDialAt = now + this.opts.backoffMs;
      return;
    }
    e.failures++;
    if (!e.pinned && e.failures >= this.opts.maxFailures) {
      this.entries.delete(addr);
      return;
    }
    const cap = e.pinned ? this.opts.maxPinnedBackoffMs : this.opts.maxBackoffMs;
    e.nextDialAt = now + Math.min(cap, this.opts.backoffMs * 2 ** (e.failures - 1));
  }

  /** Makes room: drops the learned address that failed most (oldest first on ties). */
  private evictOne(forPinned: boolean): boolean {
    let worst: Entry | null = null;
    for (const e of this.entries.values()) if (!e.pinned && (!worst || e.failures > worst.failures)) worst = e;
    // A learned address never pushes out one that works; a pinned one always gets in.
    if (!worst || (!forPinned && worst.failures === 0)) return false;
    this.entries.delete(worst.addr);
    return true;
  }
}
