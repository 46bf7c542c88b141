/**
 * Evidence of a chain further ahead for readiness tests: a block sealed by its slot's authority
 * (a real attestation) at a height the receiver lacks, and a gossip peer that publishes it. A
 * receiver that cannot fetch the blocks between (the peer serves no sync protocol) stays behind
 * for as long as that peer stays connected.
 */
import { multiaddr } from '@multiformats/multiaddr';
import { attest, blockHash, type Block } from '../../core/block.ts';
import type { KeyPair } from '../../core/keys.ts';
import { encode } from '../../p2p/wire.ts';
import { hostileLibp2p } from './hostilePeer.ts';

/** An empty block at `index` stamped `timestamp`, sealed by `authority` (its slot's owner: a one-authority chain). */
function sealedBlock(index: number, authority: KeyPair, timestamp: number): Block {
  const header = {
    index,
    previousHash: 'ab'.repeat(32),
    timestamp,
    proposer: authority.address,
    txRoot: '0'.repeat(64),
    stateRoot: '0'.repeat(64),
    tokensBurned: '0',
    tokensConsumed: '0',
  };
  const hash = blockHash(header);
  return { ...header, hash, transactions: [], attestations: [attest(hash, authority)] };
}

/** A gossip peer connected to `target` (a multiaddr with /p2p/): `show` publishes a sealed block at `height`. */
export async function aheadPeer(target: string, genesisHash: string, authority: KeyPair) {
  const peer = await hostileLibp2p(true);
  const topic = `/ombra/${genesisHash.slice(0, 16)}/block/1`;
  peer.services.pubsub.subscribe(topic);
  await peer.dial(multiaddr(target));
  return {
    /** Publishes a sealed block at `height`, stamped now unless told (again: gossip needs the subscription to have arrived). */
    show: (height: number, timestamp = Date.now()) =>
      peer.services.pubsub.publish(topic, encode(sealedBlock(height, authority, timestamp))).catch(() => undefined),
    stop: () => peer.stop(),
  };
}
