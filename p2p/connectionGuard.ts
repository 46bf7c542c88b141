/**
 * Connection slots an inbound flood cannot take all of. Strangers (peers the peer book does not
 * know: neither given with `--peer` nor proven by serving blocks this node imported) share
 * `maxConnections - reservedKnownConnections` slots, at most `maxConnectionsPerIp` of them from one
 * remote IPv4 address or IPv6 /64; known peers always get in, and the connection pruner closes strangers first (known
 * peers carry a high tag value). Throwaway identities from one host so hold a few slots at most,
 * and the node's own network always has room.
 *
 * The gater refuses early (after the handshake, when the remote peer id is known); concurrent
 * handshakes can race past it, so each opened connection is counted again and closed when over.
 * A banned peer is refused both ways while its ban lasts: it was hung up on at the ban, and
 * without this it dialled again every round (or was dialled, being a known peer), each time a
 * handshake and a hang-up, and its failed sync requests logged (every ~3 s for 10 minutes in the
 * soak of 2026-11-28); refused, its dials fail and back off.
 */
import type { Connection, ConnectionGater, MultiaddrConnection, PeerId } from '@libp2p/interface';
import type { Multiaddr } from '@multiformats/multiaddr';
import { quotaBucketOf } from '../node/cidr.ts';

/** The guard's bounds (from P2pOptions). */
export interface ConnectionGuardOptions {
  maxConnections: number;
  maxConnectionsPerIp: number;
  reservedKnownConnections: number;
}

/** The tag libp2p's pruner reads: known peers are pruned last. */
export const KNOWN_PEER_TAG = 'ombra-known-peer';

/**
 * The per-IP bucket of an address, as the HTTP edge counts clients (node/cidr.ts): an IPv4 address,
 * or an IPv6 address's /64 (a host picks any address of its /64 at will); '' when it has none,
 * such as a relay.
 */
function bucketOf(addr: Multiaddr): string {
  try {
    return quotaBucketOf(addr.nodeAddress().address);
  } catch {
    return '';
  }
}

/** Counts open connections against the caps and refuses strangers beyond them. */
export class ConnectionGuard {
  private readonly opts: ConnectionGuardOptions;
  private readonly isKnown: (peer: string) => boolean;
  private readonly connections: () => Connection[];
  private readonly isBanned: (peer: string) => boolean;
  /** Connections refused or closed by the caps (operators and tests). */
  refused = 0;
  /** Connections and dials refused because the peer is banned. */
  refusedBanned = 0;

  constructor(
    opts: ConnectionGuardOptions,
    isKnown: (peer: string) => boolean,
    connections: () => Connection[],
    isBanned: (peer: string) => boolean = () => false,
  ) {
    this.opts = opts;
    this.isKnown = isKnown;
    this.connections = connections;
    this.isBanned = isBanned;
  }

  /** Inbound slots strangers share. */
  get strangerSlots(): number {
    return Math.max(1, this.opts.maxConnections - this.opts.reservedKnownConnections);
  }

  /** The libp2p connection gater: banned peers both ways, inbound strangers beyond the caps, refused after the handshake. */
  gater(): ConnectionGater {
    const banned = (peer: PeerId) => {
      const deny = this.isBanned(peer.toString());
      if (deny) this.refusedBanned++;
      return deny;
    };
    return {
      denyDialPeer: banned,
      denyInboundEncryptedConnection: (peer: PeerId, conn: MultiaddrConnection) => {
        if (banned(peer)) return true;
        const deny = this.over(peer.toString(), bucketOf(conn.remoteAddr), null);
        if (deny) this.refused++;
        return deny;
      },
    };
  }

  /** Closes a just-opened inbound connection that took a stranger past the caps; true when closed. */
  check(conn: Connection): boolean {
    if (conn.direction !== 'inbound' || !this.over(conn.remotePeer.toString(), bucketOf(conn.remoteAddr), conn)) return false;
    this.refused++;
    conn.abort(new Error('too many connections from strangers'));
    return true;
  }

  /** True when a stranger from `bucket` (an IP, an IPv6 /64) has no slot: the other stranger connections already fill one cap. */
  private over(peer: string, bucket: string, self: Connection | null): boolean {
    if (this.isKnown(peer)) return false;
    let strangers = 0;
    let fromIp = 0;
    for (const c of this.connections()) {
      if (c === self || c.direction !== 'inbound' || c.status !== 'open' || this.isKnown(c.remotePeer.toString())) continue;
      // Racing connections are judged in the order they opened: the later ones go.
      if (self && (c.timeline.open > self.timeline.open || (c.timeline.open === self.timeline.open && c.id > self.id))) continue;
      strangers++;
      if (bucket && bucketOf(c.remoteAddr) === bucket) fromIp++;
    }
    return fromIp >= this.opts.maxConnectionsPerIp || strangers >= this.strangerSlots;
  }
}
