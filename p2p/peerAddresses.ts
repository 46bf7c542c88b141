/**
 * Where connected peers can be dialled, for the API's peer list and the sync status a node serves
 * (p2p/syncServer.ts): the listen addresses each peer announced (identify), a few per peer; before
 * it has, the addresses this node dialled it on. An inbound connection's remote address is an
 * ephemeral outbound port of the peer, never listed.
 */
import type { Libp2p } from '@libp2p/interface';

/** Listen addresses kept per peer (a peer chooses how many it announces). */
const MAX_LISTEN_ADDRS = 8;

/** Dialable addresses served to peers at most. */
const MAX_SERVED = 50;

/** A multiaddr without its trailing `/p2p/<id>` (the peer id is served beside it). */
const withoutPeerId = (a: string): string => a.replace(/\/p2p\/[^/]+$/, '');

/** What each connected peer said it listens on, and the addresses to dial peers on. */
export class PeerAddresses {
  private readonly p2p: Pick<Libp2p, 'getPeers' | 'getConnections' | 'peerStore'>;
  /** What each connected peer said it listens on (identify), a few addresses each. */
  private readonly listenAddrs = new Map<string, string[]>();

  constructor(p2p: Pick<Libp2p, 'getPeers' | 'getConnections' | 'peerStore'>) {
    this.p2p = p2p;
  }

  /** A peer told what it listens on (identify). */
  identified(peerId: string, addrs: readonly { toString(): string }[]): void {
    this.listenAddrs.set(
      peerId,
      addrs.slice(0, MAX_LISTEN_ADDRS).map((a) => withoutPeerId(a.toString())),
    );
  }

  /** A peer disconnected. */
  forget(peerId: string): void {
    this.listenAddrs.delete(peerId);
  }

  /** Connected peers and where they can be dialled. */
  peers(): { peerId: string; addresses: string[] }[] {
    return this.p2p.getPeers().map((id) => {
      const peerId = id.toString();
      const dialled = () =>
        this.p2p
          .getConnections(id)
          .filter((c) => c.direction === 'outbound')
          .map((c) => withoutPeerId(c.remoteAddr.toString()));
      return { peerId, addresses: [...new Set(this.listenAddrs.get(peerId) ?? dialled())] };
    });
  }

  /** Dialable addresses of connected peers (their listen addresses, learned by identify). */
  async dialable(): Promise<string[]> {
    const out: string[] = [];
    for (const id of this.p2p.getPeers()) {
      const peer = await this.p2p.peerStore.get(id).catch(() => null);
      for (const a of peer?.addresses ?? []) out.push(`${a.multiaddr.toString()}/p2p/${id}`);
    }
    return out.slice(0, MAX_SERVED);
  }
}
