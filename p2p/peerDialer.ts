/**
 * Keeping in touch with peers: the addresses the node knows go in the bounded peer book
 * (p2p/peerBook.ts), the few that are due are dialled each round with backoff after failures, and
 * a peer that proved itself (its blocks were checked and imported) is known from then on: tagged
 * so the connection manager keeps its slot and prunes it last (p2p/connectionGuard.ts).
 */
import type { Libp2p, PeerId } from '@libp2p/interface';
import { multiaddr } from '@multiformats/multiaddr';
import { KNOWN_PEER_TAG } from './connectionGuard.ts';
import type { PeerBook } from './peerBook.ts';

/** How long a dial may take before it counts as failed. */
const DIAL_TIMEOUT_MS = 3000;

/** Remembers and dials peers, and tags the known ones. */
export class PeerDialer {
  private readonly book: PeerBook;
  private readonly p2p: Pick<Libp2p, 'dial' | 'getPeers' | 'peerId' | 'peerStore'>;

  constructor(book: PeerBook, p2p: Pick<Libp2p, 'dial' | 'getPeers' | 'peerId' | 'peerStore'>) {
    this.book = book;
    this.p2p = p2p;
  }

  /** Keeps an address in the bounded peer book (`pinned`: given by the operator). */
  remember(addr: string, pinned = false): void {
    if (!addr.includes('/p2p/') || addr.endsWith(`/p2p/${this.p2p.peerId}`)) return;
    this.book.add(addr, pinned, Date.now());
  }

  /** Dials the few addresses that are due (bounded per round, with backoff after failures). */
  redial(): void {
    const connected = new Set(this.p2p.getPeers().map((p) => p.toString()));
    for (const a of this.book.due(Date.now(), connected)) {
      let ma: ReturnType<typeof multiaddr>;
      try {
        ma = multiaddr(a);
      } catch {
        this.book.dialed(a, false, Date.now());
        continue;
      }
      this.p2p.dial(ma, { signal: AbortSignal.timeout(DIAL_TIMEOUT_MS) }).then(
        () => this.book.dialed(a, true, Date.now()),
        () => this.book.dialed(a, false, Date.now()),
      );
    }
  }

  /** A peer connected: a known one is tagged, so it is pruned last when the node is over its connection cap. */
  connected(peer: PeerId): void {
    if (this.book.knows(peer.toString())) this.tagKnown(peer);
  }

  /** A peer's blocks were checked and imported: it is known from then on (kept slots, pruned last). */
  proven(peer: PeerId): void {
    this.book.prove(peer.toString());
    this.tagKnown(peer);
  }

  private tagKnown(peer: PeerId): void {
    void this.p2p.peerStore.merge(peer, { tags: { [KNOWN_PEER_TAG]: { value: 100 } } }).catch(() => undefined);
  }
}
