/**
 * The chain's two gossip topics, blocks and transactions (the genesis hash keeps chains apart).
 * Each message is checked by the node's own validation (p2p/gossipValidator.ts) under a cap on
 * validations in flight per topic (p2p/validationGate.ts): beyond it a message is ignored unread,
 * with no penalty for the sender and no forwarding. What the node publishes goes out on them.
 */
import { TopicValidatorResult } from '@libp2p/interface';
import type { GossipValidator } from './gossipValidator.ts';
import type { OmbraLibp2p } from './libp2pNode.ts';
import type { P2pOptions } from './options.ts';
import { ValidationGate } from './validationGate.ts';
import { encode } from './wire.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../node/log.ts';

/** Gossipsub as far as the topics need it. */
type Pubsub = OmbraLibp2p['services']['pubsub'];

/** The block and transaction topics, with their caps on validations in flight. */
export class GossipTopics {
  /** The topics' names. */
  readonly names: { block: string; tx: string };
  /** Caps on gossip validations in flight, by topic. */
  private readonly gates: { block: ValidationGate; tx: ValidationGate };
  private readonly log: Logger;

  constructor(genesisHash: string, opts: Pick<P2pOptions, 'maxBlockValidations' | 'maxTxValidations'>, log: Logger) {
    const id = genesisHash.slice(0, 16);
    this.names = { block: `/ombra/${id}/block/1`, tx: `/ombra/${id}/tx/1` };
    this.gates = { block: new ValidationGate(opts.maxBlockValidations), tx: new ValidationGate(opts.maxTxValidations) };
    this.log = log;
  }

  /** Has `judge` validate each topic's messages within the caps, and subscribes to both topics. */
  subscribe(pubsub: Pick<Pubsub, 'topicValidators' | 'subscribe'>, judge: Pick<GossipValidator, 'onTx' | 'onBlock'>): void {
    // Beyond the caps a message is ignored unread: no penalty for the sender, no forwarding.
    pubsub.topicValidators.set(this.names.tx, (peer, msg) =>
      this.gates.tx.run(() => judge.onTx(peer, msg.data), TopicValidatorResult.Ignore),
    );
    pubsub.topicValidators.set(this.names.block, (peer, msg) =>
      this.gates.block.run(() => judge.onBlock(peer, msg.data), TopicValidatorResult.Ignore),
    );
    pubsub.subscribe(this.names.tx);
    pubsub.subscribe(this.names.block);
  }

  /** Messages ignored unread because a cap was full, by topic (operators' metrics). */
  dropped(): { block: number; tx: number } {
    return { block: this.gates.block.dropped, tx: this.gates.tx.dropped };
  }

  /** Publishes `v` on `topic`; a failure is only logged (gossip is best effort: sync fetches what it missed). */
  publish(pubsub: Pick<Pubsub, 'publish'>, topic: keyof GossipTopics['names'], v: unknown): void {
    const name = this.names[topic];
    pubsub.publish(name, encode(v)).catch((e: unknown) => this.log.debug('publish failed', { topic: name, error: errorMessage(e) }));
  }
}
