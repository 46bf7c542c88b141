/**
 * Gossipsub's options for the node: bounds on what a peer can make it hold, and peer scoring.
 *
 * Bounds (gossipsub 14 defaults are unbounded):
 * - `maxInboundDataLength`: one RPC frame at most the largest block message plus 64 KiB of
 *   envelope; a longer frame is refused by the length-prefix decoder before it is buffered whole.
 * - `decodeRpcLimits`: counts inside one frame (messages, subscriptions, control ids), so a frame
 *   of tiny entries cannot decode into millions of objects.
 * - `awaitRpcHandler` and `awaitRpcMessageHandler`: each peer's RPCs and their messages are
 *   handled one after another. The next frame is read only when the last one is done, so a
 *   flooding peer is held back by the muxer's flow control (its stream window), not queued here.
 * - `maxOutboundBufferSize`: bytes queued to one slow peer; beyond, gossip to it is dropped (it
 *   catches up through sync).
 * - `allowedTopics`: only the chain's two topics are tracked.
 * - `msgIdFn`: a message's id is the SHA-256 of its topic and data, not its sender and sequence
 *   number, so the same data signed again (under any identity) is a duplicate once its signature
 *   checked out. `fastMsgIdFn`, gossipsub's first look, keys a signed message by its topic, origin,
 *   sequence number and signature (which covers the data), so a copy of the same bytes is dropped
 *   before its signature or data is read, without hashing its megabytes; gossipsub files that key
 *   only after the signature checked out, so no forged copy can shadow a genuine message. A peer
 *   that keeps sending copies is banned (p2p/replayGuard.ts); replays with other bytes cost the
 *   sender through the stale-gossip budget (p2p/staleGossip.ts).
 * Validations in flight across peers are capped by the caller (p2p/validationGate.ts).
 *
 * Scoring: every rejected message costs its sender (squared, decaying 1% a second); a peer that
 * keeps sending invalid blocks or transactions stops being gossiped to, then is graylisted (its
 * RPCs are dropped before any of their messages is looked at). Gossipsub still lets up to 128
 * messages a second through from a peer whose last computed score was not negative.
 */
import { createHash } from 'node:crypto';
import type { GossipsubOpts } from '@chainsafe/libp2p-gossipsub';
import { createPeerScoreParams, createPeerScoreThresholds, createTopicScoreParams } from '@chainsafe/libp2p-gossipsub/score';
import type { P2pOptions } from './options.ts';

/** Peers scored below this get none of the node's own publications. */
export const PUBLISH_THRESHOLD = -200;

/** Envelope room around a gossiped message's data (signature, key, seqno, topic, framing). */
const ENVELOPE_BYTES = 64 * 1024;

/** Counts bounded inside one RPC frame (gossipsub's decodeRpcLimits). */
const GOSSIP_DECODE_LIMITS = {
  /** Subscriptions announced in one frame (the node uses 2 topics). */
  maxSubscriptions: 16,
  /** Messages in one frame (an IWANT answer may bundle several). */
  maxMessages: 256,
  /** Message ids in IHAVE / IWANT entries of one frame (gossipsub's own IHAVE cap is 5,000). */
  maxIhaveMessageIDs: 5000,
  maxIwantMessageIDs: 5000,
  /** Ids in IDONTWANT entries of one frame (gossipsub sends at most 512 a heartbeat). */
  maxIdontwantMessageIDs: 512,
  /** GRAFT, PRUNE, IHAVE, IWANT and IDONTWANT entries of one frame. */
  maxControlMessages: 64,
  /** Peer records in one PRUNE (peer exchange is off; gossipsub sends at most 16). */
  maxPeerInfos: 16,
};

/**
 * What good behaviour earns, bounded so no credit outweighs one invalid block (-100) or three
 * invalid transactions (-180). gossipsub's defaults count time in the mesh per millisecond
 * (+3,600 at its cap) and expect 20 deliveries per decay interval from every mesh peer (a
 * penalty for any honest peer of a chain with one block a slot), so both are set here:
 * +0.01 a second in the mesh up to +36, +1 per first delivery up to +50, no delivery quota.
 */
const CREDIT = {
  topicWeight: 1,
  timeInMeshWeight: 0.01,
  timeInMeshQuantum: 1000,
  timeInMeshCap: 3600,
  firstMessageDeliveriesWeight: 1,
  firstMessageDeliveriesCap: 50,
  meshMessageDeliveriesWeight: 0,
  meshFailurePenaltyWeight: 0,
};

/** A message's id: the hash of its topic and data (replayed bytes are duplicates whoever sends them). */
function contentId(topic: string | undefined | null, data: Uint8Array | undefined | null): Buffer {
  return createHash('sha256')
    .update(topic ?? '')
    .update('\n')
    .update(data ?? new Uint8Array(0))
    .digest();
}

/**
 * gossipsub's first-look key of a message: for a signed one, a hash of its topic, origin, sequence
 * number and signature, each behind its length (a few hundred bytes, whatever the data's size);
 * for an unsigned one (refused by the signature policy anyway), its content id.
 */
function fastId(rpc: {
  topic?: string | null;
  data?: Uint8Array | null;
  from?: Uint8Array | null;
  seqno?: Uint8Array | null;
  signature?: Uint8Array | null;
}): string {
  const { from, seqno, signature } = rpc;
  if (!from?.length || !seqno?.length || !signature?.length) return contentId(rpc.topic, rpc.data).toString('base64');
  const h = createHash('sha256').update(`${rpc.topic ?? ''}\n${from.length} ${seqno.length} ${signature.length}\n`);
  return h.update(from).update(seqno).update(signature).digest('base64');
}

/** The gossipsub options for a chain's `topics`. */
export function gossipOptions(topics: { block: string; tx: string }, opts: P2pOptions): Partial<GossipsubOpts> {
  return {
    allowPublishToZeroTopicPeers: true,
    // Gossipsub's default (2 min), set here so p2p/txAnnouncer.ts can rely on it.
    seenTTL: opts.gossipSeenTtlMs,
    emitSelf: false,
    allowedTopics: [topics.block, topics.tx],
    msgIdFn: (msg) => contentId(msg.topic, msg.data),
    fastMsgIdFn: fastId,
    maxInboundDataLength: opts.maxBlockBytes + ENVELOPE_BYTES,
    decodeRpcLimits: GOSSIP_DECODE_LIMITS,
    awaitRpcHandler: true,
    awaitRpcMessageHandler: true,
    maxOutboundBufferSize: opts.maxOutboundGossipBytes,
    scoreParams: createPeerScoreParams({
      topics: {
        [topics.block]: createTopicScoreParams({ ...CREDIT, invalidMessageDeliveriesWeight: -100, invalidMessageDeliveriesDecay: 0.99 }),
        [topics.tx]: createTopicScoreParams({ ...CREDIT, invalidMessageDeliveriesWeight: -20, invalidMessageDeliveriesDecay: 0.99 }),
      },
    }),
    scoreThresholds: createPeerScoreThresholds({ gossipThreshold: -100, publishThreshold: PUBLISH_THRESHOLD, graylistThreshold: -400 }),
  };
}
