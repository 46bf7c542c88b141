/**
 * The p2p layer: libp2p over TCP with noise and yamux, gossipsub topics for blocks and
 * transactions, and the sync protocols. Gossip validators call the node's own validation (the
 * same validateTx the API uses) and answer accept, ignore or reject. It publishes what the node
 * produced or admitted from its API, reacting to the node's event feed.
 */
import type { PrivateKey } from '@libp2p/interface';
import type { Subscription } from 'rxjs';
import type { Component, NetworkPorts, NetworkView, PeerGuardStats } from '../node/ports.ts';
import { defaultP2pOptions, type P2pOptions } from './options.ts';
import { type OmbraLibp2p, startLibp2p } from './libp2pNode.ts';
import { Syncer } from './sync.ts';
import type { Block } from '../core/block.ts';
import { PeerBook } from './peerBook.ts';
import { ConnectionGuard } from './connectionGuard.ts';
import { StaleGossipBudget } from './staleGossip.ts';
import { StallWatch } from './stallWatch.ts';
import { GossipValidator } from './gossipValidator.ts';
import { ReplayGuard } from './replayGuard.ts';
import { announcerOptions, TxAnnouncer } from './txAnnouncer.ts';
import { PeerDialer } from './peerDialer.ts';
import { PeerAddresses } from './peerAddresses.ts';
import { GossipTopics } from './gossipTopics.ts';

/** What the network tells its owner, given at construction (nothing is set on it after start). */
export interface P2pHooks {
  /** Progress of a sync more than one block behind: height imported, target height. */
  onSyncProgress?: (height: number, target: number) => void;
  /** A peer connected or disconnected (with why, when this node hung up on it). */
  onPeerChange?: (change: { peer: string; event: 'connect' | 'disconnect'; reason?: string }) => void;
}

/** A node's network presence. */
export class P2pNetwork implements NetworkView, Component {
  private readonly ports: NetworkPorts;
  private readonly key: PrivateKey;
  private readonly opts: P2pOptions;
  private p2p!: OmbraLibp2p;
  private syncer!: Syncer;
  private readonly book = new PeerBook();
  private readonly timers: NodeJS.Timeout[] = [];
  private sub: Subscription | null = null;
  /** Remembers and dials peers (p2p/peerDialer.ts); set at start. */
  private dialer!: PeerDialer;
  /** Where connected peers can be dialled (p2p/peerAddresses.ts); set at start. */
  private addrs!: PeerAddresses;
  private readonly hooks: P2pHooks;
  /** The block and transaction topics, with their caps on validations in flight (p2p/gossipTopics.ts). */
  private readonly topics: GossipTopics;
  /** The topic validators (p2p/gossipValidator.ts); set once sync runs. */
  private validator!: GossipValidator;
  /** Pending transactions, announced until mined (p2p/txAnnouncer.ts); set at start. */
  private announcer!: TxAnnouncer;
  /** A block came from a peer since start (the node has seen the network's chain). */
  private heard = false;
  /** Each peer's allowance of gossip the node already has. */
  readonly stale: StaleGossipBudget;
  /** Per-IP and stranger caps on inbound connections. */
  readonly guard: ConnectionGuard;
  /** Copies each peer sends of gossip already seen (p2p/replayGuard.ts). */
  readonly replays: ReplayGuard;
  /** This node's own stalls: gossip read late through one is not its peers' fault. */
  readonly stalls = new StallWatch();

  constructor(ports: NetworkPorts, key: PrivateKey, opts: Partial<P2pOptions> = {}, hooks: P2pHooks = {}) {
    this.ports = ports;
    this.key = key;
    this.hooks = { ...hooks };
    this.opts = { ...defaultP2pOptions, ...opts };
    this.topics = new GossipTopics(ports.chain.info.genesisBlock.hash, this.opts, ports.log);
    this.stale = new StaleGossipBudget(this.opts.staleGossipPerMinute, () => this.stalls.forgiving());
    this.replays = new ReplayGuard(this.stale);
    this.guard = new ConnectionGuard(
      this.opts,
      (peer) => this.book.knows(peer),
      () => this.p2p?.getConnections() ?? [],
      (peer) => this.syncer?.banned.has(peer) ?? false,
    );
  }

  async start(): Promise<void> {
    this.stalls.onStall = (ms) =>
      this.ports.log.info('this node stalled; gossip read late is not held against its peers', { seconds: Math.round(ms) / 1000 });
    this.stalls.start();
    this.p2p = await startLibp2p(this.key, this.opts, this.topics.names, this.guard.gater());
    this.dialer = new PeerDialer(this.book, this.p2p);
    this.addrs = new PeerAddresses(this.p2p);
    this.p2p.addEventListener('connection:open', (e) => {
      // Known peers are pruned last when the node is over its connection cap.
      if (!this.guard.check(e.detail)) this.dialer.connected(e.detail.remotePeer);
    });
    this.syncer = new Syncer(this.ports, this.p2p, this.opts);
    // Peers a peer names are dialled, but stay strangers: a node names whoever connected to it.
    this.syncer.onPeersLearned = (addrs) => {
      for (const a of addrs) this.dialer.remember(a);
    };
    // A peer whose blocks were checked and imported is known from then on (kept slots, pruned last).
    this.syncer.onProven = (peer) => this.dialer.proven(peer);
    this.syncer.onStruck = () => this.syncRound();
    this.syncer.onProgress = (height, target) => this.hooks.onSyncProgress?.(height, target);
    await this.syncer.register(() => this.addrs.dialable());
    this.validator = new GossipValidator(this.ports, this.opts, this.syncer, this.stale);
    const pubsub = this.p2p.services.pubsub;
    // Copies of seen messages are dropped unread; a peer that keeps sending them is banned.
    this.replays.watch(pubsub, (id, why) => {
      const peer = this.p2p.getPeers().find((p) => p.toString() === id);
      if (peer && !this.syncer.isBanned(peer)) void this.syncer.ban(peer, `replayed gossip: ${why}`);
    });
    this.topics.subscribe(pubsub, this.validator);
    // What the mempool holds now was restored from the pending log: never published.
    this.announcer = new TxAnnouncer(
      pubsub,
      this.topics.names.tx,
      () => this.ports.mempool.list(),
      announcerOptions(this.opts, this.ports.chain.genesis.blockTimeMs),
      this.ports.log,
    );
    // A peer that joins the transaction topic gets what was never published (restored after a restart).
    pubsub.addEventListener('subscription-change', (e) => {
      if (e.detail.subscriptions.some((s) => s.subscribe && s.topic === this.topics.names.tx) && this.inStep()) this.announcer.flush();
    });
    this.sub = this.ports.feed.events$.subscribe((e) => {
      if (e.type === 'tx') this.announcer.admitted(e.tx, e.source === 'gossip');
      if (e.type === 'block') this.validator.learn(e.block);
      if (e.type === 'block' && e.source === 'peer') this.heard = true;
      // After a block's revalidation of the pool (mined and invalidated transactions left): what was restored goes out.
      if (e.type === 'mempool' && this.announcer.unannounced() > 0 && this.inStep()) this.announcer.flush();
      if (e.type === 'block' && e.source === 'local') this.topics.publish(this.p2p.services.pubsub, 'block', e.block);
    });
    this.p2p.addEventListener('peer:connect', (e) => {
      this.hooks.onPeerChange?.({ peer: e.detail.toString(), event: 'connect' });
      this.syncer.noteConnected(e.detail);
      void this.syncer.poke(e.detail);
    });
    this.p2p.addEventListener('peer:identify', (e) => this.addrs.identified(e.detail.peerId.toString(), e.detail.listenAddrs));
    this.p2p.addEventListener('peer:disconnect', (e) => {
      this.addrs.forget(e.detail.toString());
      this.syncer.noteDisconnected(e.detail);
      this.hooks.onPeerChange?.({
        peer: e.detail.toString(),
        event: 'disconnect',
        reason: this.syncer.isBanned(e.detail) ? 'banned: it served invalid blocks or broke the sync protocol' : 'connection closed',
      });
    });
    // Discovered peers (mDNS) are dialled like the ones we were given.
    this.p2p.addEventListener('peer:discovery', (e) => {
      for (const a of e.detail.multiaddrs) this.dialer.remember(`${a.toString()}/p2p/${e.detail.id}`);
    });
    for (const a of this.opts.peers) this.dialer.remember(a, true);
    this.timers.push(setInterval(() => this.dialer.redial(), this.opts.redialIntervalMs));
    this.timers.push(setInterval(() => this.syncRound(), this.opts.syncIntervalMs));
    this.timers.push(setInterval(() => this.inStep() && this.announcer.round(), this.opts.reannounceIntervalMs));
    this.dialer.redial();
  }

  /**
   * True once the node took a block from a peer since it started, while it is not syncing and at
   * most a block behind peers: only then are pending transactions announced (restored ones the
   * network mined while the node was away leave the mempool as it catches up, instead of reaching
   * peers as stale gossip).
   */
  private inStep(): boolean {
    return this.heard && !this.syncing() && (this.networkHeight() ?? 0) - this.ports.chain.head().index <= 1;
  }

  /** Peers a transaction gossiped now would reach: subscribed to its topic and not scored below the publish threshold. */
  txRecipients(): number {
    return this.announcer?.recipients() ?? 0;
  }

  /** Adds a peer to keep connected to, and dials it now. */
  connect(addr: string): void {
    this.dialer.remember(addr, true);
    this.dialer.redial();
  }

  /** Bans and dropped gossip so far (operators' metrics). */
  guardStats(): PeerGuardStats {
    return {
      banned: this.syncer?.banned.count() ?? 0,
      bans: this.syncer?.banned.total ?? 0,
      gossipDropped: this.topics.dropped(),
      gossipRejected: { ...(this.validator?.rejectedCount ?? { block: 0, tx: 0 }) },
    };
  }

  /** Rejected gossip, latest last (operators and tests). */
  get rejected(): readonly { topic: string; reason: string }[] {
    return this.validator?.rejected ?? [];
  }

  /** Addresses in the peer book (operators and tests). */
  knownPeerCount(): number {
    return this.book.size;
  }

  /**
   * Pokes one peer that may be asked to sync (not banned, not cooling down after a strike, not one
   * that said it holds no blocks past this node's head), at random.
   */
  private syncRound(): void {
    const peer = this.syncer.pick(this.ports.chain.head().index + 1);
    if (peer) void this.syncer.poke(peer);
  }

  peerCount(): number {
    return this.p2p?.getPeers().length ?? 0;
  }

  /** Connected peers and where they can be dialled (p2p/peerAddresses.ts). */
  peers(): { peerId: string; addresses: string[] }[] {
    return this.addrs.peers();
  }

  peerId(): string | null {
    return this.p2p?.peerId.toString() ?? null;
  }

  addresses(): string[] {
    return this.p2p?.getMultiaddrs().map((m) => m.toString()) ?? [];
  }

  networkHeight(): number | null {
    return this.syncer?.heads.best() ?? null;
  }

  syncing(): boolean {
    return this.syncer?.syncing ?? false;
  }

  /** True while a peer is, or may be, ahead of this node: an authority does not produce then (p2p/sync.ts `behind`). */
  behind(): boolean {
    return this.syncer?.behind() ?? false;
  }

  /**
   * Blocks from..to (a checked prefix of at most syncBatch) from one connected peer that may be
   * asked: history this node does not hold (a checkpoint's background verification; p2p/sync.ts).
   */
  fetchHistory(from: number, to: number): Promise<Block[]> {
    return this.syncer ? this.syncer.fetchHistory(from, to) : Promise.reject(new Error('no peer to fetch history from'));
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.stalls.stop();
    this.sub?.unsubscribe();
    await this.p2p?.stop();
  }
}
