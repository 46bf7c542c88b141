/**
 * The gossip topic validators: a transaction goes through the node's own submitTx (the API's
 * validation), a block is checked for its seal first (junk bans its sender) and then imported
 * or handed to sync. Malformed or invalid messages are rejected (gossipsub scores the sender);
 * out-of-date ones ignored; ones the node already has are free within the sender's stale-gossip
 * budget (p2p/staleGossip.ts) and rejected beyond it, unless the node itself learned them just
 * now (p2p/lateGossip.ts: late through the node's own lag, excused once per peer).
 */
import { TopicValidatorResult, type PeerId } from '@libp2p/interface';
import type { Block } from '../core/block.ts';
import { ChainError } from '../core/errors.ts';
import { MempoolPolicyError } from '../node/mempool/mempoolOptions.ts';
import type { NetworkPorts } from '../node/ports.ts';
import { betterTip } from '../node/writer/reorg.ts';
import { sealFault } from './answerCheck.ts';
import type { P2pOptions } from './options.ts';
import { LateGossip } from './lateGossip.ts';
import type { StaleGossipBudget } from './staleGossip.ts';
import type { Syncer } from './sync.ts';
import { decode } from './wire.ts';
import { fieldOf } from '../core/encoding.ts';

/** Codes that mean "out of date or not now", not misbehaviour. */
const IGNORABLE = new Set(['NONCE_GAP', 'MEMPOOL_FULL', 'SYNCING', 'DISK_FULL']);
/** Codes that mean "already known": free within a peer's stale-gossip budget, rejected beyond. */
const STALE = new Set(['DUPLICATE_TX', 'STALE_NONCE']);

/** Validates gossip for one node and keeps what it rejected. */
export class GossipValidator {
  private readonly ports: NetworkPorts;
  private readonly opts: P2pOptions;
  private readonly syncer: Pick<Syncer, 'isBanned' | 'ban' | 'poke' | 'heads'>;
  private readonly stale: StaleGossipBudget;
  /** Rejected gossip, for operators and tests (the last 1,000). */
  readonly rejected: { topic: string; reason: string }[] = [];
  /** Rejections so far, by topic (operators' metrics). */
  readonly rejectedCount = { block: 0, tx: 0 };
  /** What the node learned recently: stale gossip of it is late through the node's own lag. */
  readonly late: LateGossip;

  constructor(
    ports: NetworkPorts,
    opts: P2pOptions,
    syncer: Pick<Syncer, 'isBanned' | 'ban' | 'poke' | 'heads'>,
    stale: StaleGossipBudget,
  ) {
    this.ports = ports;
    this.opts = opts;
    this.syncer = syncer;
    this.stale = stale;
    this.late = new LateGossip(opts.lateGossipGraceMs);
  }

  /** A block the node just took (imported, synced, produced): it and its transactions are known from now. */
  learn(b: Block, now = Date.now()): void {
    this.late.learn([b.hash, ...b.transactions.map((t) => t.hash)], now);
  }

  private reject(topic: 'block' | 'tx', reason: string): TopicValidatorResult {
    this.rejectedCount[topic]++;
    this.rejected.push({ topic, reason });
    if (this.rejected.length > 1000) this.rejected.shift();
    this.ports.log.warn('rejected gossip', { topic, reason });
    return TopicValidatorResult.Reject;
  }

  /**
   * Stale gossip from `peer`: ignored when the node learned `key` only just now (the first copy
   * from each peer), else ignored within its budget and rejected (a score penalty) beyond.
   */
  private staleFrom(peer: PeerId, topic: 'block' | 'tx', what: string, key: unknown): TopicValidatorResult {
    if (typeof key === 'string' && this.late.excuse(peer.toString(), key)) return TopicValidatorResult.Ignore;
    return this.stale.allow(peer.toString()) ? TopicValidatorResult.Ignore : this.reject(topic, `stale beyond the budget: ${what}`);
  }

  /** Validates a gossiped transaction as the API would. */
  async onTx(peer: PeerId, data: Uint8Array): Promise<TopicValidatorResult> {
    if (this.stale.spent(peer.toString())) return this.reject('tx', 'stale gossip budget spent');
    const raw = decode(data, this.opts.maxTxBytes);
    if (raw === undefined) return this.reject('tx', 'malformed or oversized');
    try {
      await this.ports.chain.submitTx(raw, 'gossip');
      this.stale.earn(peer.toString());
      return TopicValidatorResult.Accept;
    } catch (e) {
      if (e instanceof ChainError && STALE.has(e.code)) return this.staleFrom(peer, 'tx', e.code, fieldOf(raw, 'hash'));
      if (e instanceof MempoolPolicyError || (e instanceof ChainError && IGNORABLE.has(e.code))) return TopicValidatorResult.Ignore;
      return this.reject('tx', e instanceof ChainError ? `${e.code}: ${e.message}` : 'invalid');
    }
  }

  /** Validates a gossiped block: junk bans its sender, the next block is imported, one ahead starts a sync. */
  async onBlock(peer: PeerId, data: Uint8Array): Promise<TopicValidatorResult> {
    if (this.syncer.isBanned(peer)) return this.reject('block', 'sender is banned');
    if (this.stale.spent(peer.toString())) return this.reject('block', 'stale gossip budget spent');
    // A block that is malformed or not sealed by its slot's authority is junk whatever the
    // receiver's state: honest peers validate before they forward, so its sender is banned and hung
    // up on before it can send more (and before the block waits for the write queue or starts a sync).
    const raw = decode(data, this.opts.maxBlockBytes);
    const fault = raw === undefined ? 'malformed or oversized' : sealFault(raw, this.ports.chain.genesis);
    if (fault) {
      void this.syncer.ban(peer, `gossiped a junk block: ${fault}`);
      return this.reject('block', fault);
    }
    const b = raw as Block;
    const head = this.ports.chain.head();
    if (b.index === head.index + 1 && b.previousHash === head.hash) {
      try {
        await this.ports.chain.importBlock(b);
        this.stale.earn(peer.toString());
        return TopicValidatorResult.Accept;
      } catch (e) {
        // This node cannot write (node/store/storageFence.ts): nothing wrong with the block or its sender.
        if (e instanceof ChainError && e.code === 'DISK_FULL') return TopicValidatorResult.Ignore;
        // Raced with another import of the same height: nothing wrong with the sender, unless it
        // is the same authority's second block for that slot.
        if (this.ports.chain.head().index >= b.index) {
          return (await this.ports.chain.noteCompetingBlock(b)) ? this.reject('block', 'equivocation') : TopicValidatorResult.Ignore;
        }
        return this.reject('block', e instanceof Error ? e.message : 'invalid');
      }
    }
    // A second block for a slot we hold, attested by its authority: evidence, never built upon.
    if (b.index <= head.index && (await this.ports.chain.noteCompetingBlock(b))) return this.reject('block', 'equivocation');
    if (
      b.index > head.index ||
      (b.index === head.index && b.hash !== head.hash && betterTip(b, head, this.ports.chain.genesis.blockTimeMs))
    ) {
      // Ahead of us, or a competing tip that would win: fetch and validate through sync. Its seal
      // (checked above) is the evidence that the network reaches its height (readiness: GET
      // /api/health), kept apart from claims and whatever the peer's sync answers are, unless it
      // is stamped more than one slot ahead of our clock (no import would take it: core/applyBlock.ts).
      const now = Date.now();
      if (b.timestamp <= now + this.ports.chain.genesis.blockTimeMs) this.syncer.heads.noteSealed(peer.toString(), b.index, now);
      void this.syncer.poke(peer);
      return TopicValidatorResult.Ignore;
    }
    // At or below our head and no better: a block we hold, or one that already lost.
    return this.staleFrom(peer, 'block', `block ${b.index} at head ${head.index}`, b.hash);
  }
}
