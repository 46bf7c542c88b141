/**
 * The p2p layer: libp2p over TCP with noise and yamux, gossipsub topics for blocks and
 * transactions, and the sync protocols. Gossip validators call the node's own validation (the
 * same validateTx the API uses) and answer accept, ignore or reject. It publishes what the node
 * produced or admitted from its API, reacting to the node's event feed.
 */
import { gossipsub, type GossipsubEvents } from '@chainsafe/libp2p-gossipsub';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { identify } from '@libp2p/identify';
import { mdns } from '@libp2p/mdns';
import { TopicValidatorResult, type Libp2p, type PeerId, type PrivateKey, type PubSub } from '@libp2p/interface';
import { tcp } from '@libp2p/tcp';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import type { Subscription } from 'rxjs';
import type { Block } from '../core/block.ts';
import { ChainError } from '../core/errors.ts';
import { MempoolPolicyError } from '../node/mempool.ts';
import type { NetworkPorts, NetworkView, PeerGuardStats } from '../node/ports.ts';
import { betterTip } from '../node/reorg.ts';
import { defaultP2pOptions, type P2pOptions } from './options.ts';
import { Syncer } from './sync.ts';
import { decode, encode } from './wire.ts';
import { PeerBook } from './peerBook.ts';
import { gossipOptions } from './gossipConfig.ts';
import { ValidationGate } from './validationGate.ts';
import { sealFault } from './answerCheck.ts';

/** Codes that mean "already known or out of date", not misbehaviour. */
/** Listen addresses kept per peer (a peer chooses how many it announces). */
const MAX_LISTEN_ADDRS = 8;

/** A multiaddr without its trailing `/p2p/<id>` (the peer id is served beside it). */
const withoutPeerId = (a: string): string => a.replace(/\/p2p\/[^/]+$/, '');

const IGNORABLE = new Set(['DUPLICATE_TX', 'STALE_NONCE', 'NONCE_GAP', 'MEMPOOL_FULL', 'SYNCING']);

/** A node's network presence. */
export class P2pNetwork implements NetworkView {
  private readonly ports: NetworkPorts;
  private readonly key: PrivateKey;
  private readonly opts: P2pOptions;
  private p2p!: Libp2p<{ pubsub: PubSub<GossipsubEvents> }>;
  private syncer!: Syncer;
  private readonly book = new PeerBook();
  private readonly timers: NodeJS.Timeout[] = [];
  private sub: Subscription | null = null;
  /** What each connected peer said it listens on (identify), a few addresses each. */
  private readonly listenAddrs = new Map<string, string[]>();
  private topics = { block: '', tx: '' };
  /** Progress of a sync more than one block behind: height imported, target height. */
  onSyncProgress: (height: number, target: number) => void = () => undefined;
  /** Caps on gossip validations in flight, by topic. */
  private readonly gates: { block: ValidationGate; tx: ValidationGate };
  /** Rejected gossip, for operators and tests. */
  readonly rejected: { topic: string; reason: string }[] = [];
  private readonly rejectedCount = { block: 0, tx: 0 };

  constructor(ports: NetworkPorts, key: PrivateKey, opts: Partial<P2pOptions> = {}) {
    this.ports = ports;
    this.key = key;
    this.opts = { ...defaultP2pOptions, ...opts };
    this.gates = { block: new ValidationGate(this.opts.maxBlockValidations), tx: new ValidationGate(this.opts.maxTxValidations) };
  }

  async start(): Promise<void> {
    const id = this.ports.chain.info.genesisBlock.hash.slice(0, 16);
    this.topics = { block: `/ombra/${id}/block/1`, tx: `/ombra/${id}/tx/1` };
    this.p2p = await createLibp2p({
      privateKey: this.key,
      addresses: { listen: [`/ip4/${this.opts.host}/tcp/${this.opts.port}`] },
      transports: [tcp()],
      connectionEncrypters: [noise()],
      // Data frames of up to 1 MiB instead of 64 KiB: the receiver answers every frame it reads
      // with a window update (a write of its own), so a sync answer of hundreds of KB costs a
      // handful of frames and updates instead of one per 64 KiB. Frames stay bounded by the
      // receiver's window, as yamux requires; peers with the default read them the same way.
      streamMuxers: [yamux({ maxMessageSize: 1024 * 1024 })],
      peerDiscovery: this.opts.mdns ? [mdns()] : [],
      services: {
        identify: identify(),
        // Bounded queues and peer scoring (p2p/gossipConfig.ts).
        pubsub: gossipsub(gossipOptions(this.topics, this.opts)),
      },
      connectionManager: { maxConnections: this.opts.maxConnections },
    });
    this.syncer = new Syncer(this.ports, this.p2p, this.opts);
    this.syncer.onPeersLearned = (addrs) => {
      for (const a of addrs) this.remember(a);
    };
    this.syncer.onProgress = (height, target) => this.onSyncProgress(height, target);
    await this.syncer.register(() => this.peerAddresses());
    const pubsub = this.p2p.services.pubsub;
    // Beyond the caps a message is ignored unread: no penalty for the sender, no forwarding.
    pubsub.topicValidators.set(this.topics.tx, (_peer, msg) => this.gates.tx.run(() => this.onTx(msg.data), TopicValidatorResult.Ignore));
    pubsub.topicValidators.set(this.topics.block, (peer, msg) =>
      this.gates.block.run(() => this.onBlock(peer, msg.data), TopicValidatorResult.Ignore),
    );
    pubsub.subscribe(this.topics.tx);
    pubsub.subscribe(this.topics.block);
    this.sub = this.ports.feed.events$.subscribe((e) => {
      if (e.type === 'tx' && e.source !== 'gossip') this.publish(this.topics.tx, e.tx);
      if (e.type === 'block' && e.source === 'local') this.publish(this.topics.block, e.block);
    });
    this.p2p.addEventListener('peer:connect', (e) => void this.syncer.poke(e.detail));
    this.p2p.addEventListener('peer:identify', (e) =>
      this.listenAddrs.set(
        e.detail.peerId.toString(),
        e.detail.listenAddrs.slice(0, MAX_LISTEN_ADDRS).map((a) => withoutPeerId(a.toString())),
      ),
    );
    this.p2p.addEventListener('peer:disconnect', (e) => this.listenAddrs.delete(e.detail.toString()));
    // Discovered peers (mDNS) are dialled like the ones we were given.
    this.p2p.addEventListener('peer:discovery', (e) => {
      for (const a of e.detail.multiaddrs) this.remember(`${a.toString()}/p2p/${e.detail.id}`);
    });
    for (const a of this.opts.peers) this.remember(a, true);
    this.timers.push(setInterval(() => this.redial(), this.opts.redialIntervalMs));
    this.timers.push(setInterval(() => this.syncRound(), this.opts.syncIntervalMs));
    this.redial();
  }

  /** Adds a peer to keep connected to, and dials it now. */
  connect(addr: string): void {
    this.remember(addr, true);
    this.redial();
  }

  /** Keeps an address in the bounded peer book (`pinned`: given by the operator). */
  private remember(addr: string, pinned = false): void {
    if (!addr.includes('/p2p/') || addr.endsWith(`/p2p/${this.p2p.peerId}`)) return;
    this.book.add(addr, pinned, Date.now());
  }

  /** Dials the few addresses that are due (bounded per round, with backoff after failures). */
  private redial(): void {
    const connected = new Set(this.p2p.getPeers().map((p) => p.toString()));
    for (const a of this.book.due(Date.now(), connected)) {
      let ma: ReturnType<typeof multiaddr>;
      try {
        ma = multiaddr(a);
      } catch {
        this.book.dialed(a, false, Date.now());
        continue;
      }
      this.p2p.dial(ma, { signal: AbortSignal.timeout(3000) }).then(
        () => this.book.dialed(a, true, Date.now()),
        () => this.book.dialed(a, false, Date.now()),
      );
    }
  }

  /** Bans and dropped gossip so far (operators' metrics). */
  guardStats(): PeerGuardStats {
    return {
      banned: this.syncer?.banned.count() ?? 0,
      bans: this.syncer?.banned.total ?? 0,
      gossipDropped: { block: this.gates.block.dropped, tx: this.gates.tx.dropped },
      gossipRejected: { ...this.rejectedCount },
    };
  }

  /** Addresses in the peer book (operators and tests). */
  knownPeerCount(): number {
    return this.book.size;
  }

  private syncRound(): void {
    const peers = this.p2p.getPeers();
    if (peers.length) void this.syncer.poke(peers[Math.floor(Math.random() * peers.length)]);
  }

  private publish(topic: string, v: unknown): void {
    this.p2p.services.pubsub
      .publish(topic, encode(v))
      .catch((e: unknown) => this.ports.log.debug('publish failed', { topic, error: (e as Error).message }));
  }

  private reject(topic: 'block' | 'tx', reason: string): TopicValidatorResult {
    this.rejectedCount[topic]++;
    this.rejected.push({ topic, reason });
    if (this.rejected.length > 1000) this.rejected.shift();
    this.ports.log.warn('rejected gossip', { topic, reason });
    return TopicValidatorResult.Reject;
  }

  private async onTx(data: Uint8Array): Promise<TopicValidatorResult> {
    const raw = decode(data, this.opts.maxTxBytes);
    if (raw === undefined) return this.reject('tx', 'malformed or oversized');
    try {
      await this.ports.chain.submitTx(raw, 'gossip');
      return TopicValidatorResult.Accept;
    } catch (e) {
      if (e instanceof MempoolPolicyError || (e instanceof ChainError && IGNORABLE.has(e.code))) return TopicValidatorResult.Ignore;
      return this.reject('tx', e instanceof ChainError ? `${e.code}: ${e.message}` : 'invalid');
    }
  }

  private async onBlock(peer: PeerId, data: Uint8Array): Promise<TopicValidatorResult> {
    if (this.syncer.isBanned(peer)) return this.reject('block', 'sender is banned');
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
        return TopicValidatorResult.Accept;
      } catch (e) {
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
      // Ahead of us, or a competing tip that would win: fetch and validate through sync.
      void this.syncer.poke(peer);
    }
    return TopicValidatorResult.Ignore;
  }

  /** Dialable addresses of connected peers (their listen addresses, learned by identify). */
  private async peerAddresses(): Promise<string[]> {
    const out: string[] = [];
    for (const id of this.p2p.getPeers()) {
      const peer = await this.p2p.peerStore.get(id).catch(() => null);
      for (const a of peer?.addresses ?? []) out.push(`${a.multiaddr.toString()}/p2p/${id}`);
    }
    return out.slice(0, 50);
  }

  peerCount(): number {
    return this.p2p?.getPeers().length ?? 0;
  }

  /**
   * Connected peers and where they can be dialled: the listen addresses each announced
   * (identify); before it has, the addresses we dialled it on. An inbound connection's remote
   * address is an ephemeral outbound port of the peer, never listed.
   */
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

  peerId(): string | null {
    return this.p2p?.peerId.toString() ?? null;
  }

  addresses(): string[] {
    return this.p2p?.getMultiaddrs().map((m) => m.toString()) ?? [];
  }

  syncing(): boolean {
    return this.syncer?.syncing ?? false;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.sub?.unsubscribe();
    await this.p2p?.stop();
  }
}
