/**
 * The p2p layer: libp2p over TCP with noise and yamux, gossipsub topics for blocks and
 * transactions, and the sync protocols. Gossip validators call the node's own validation (the
 * same validateTx the API uses) and answer accept, ignore or reject. It publishes what the node
 * produced or admitted from its API, reacting to the node's event feed.
 */
import { TopicValidatorResult, type PrivateKey } from '@libp2p/interface';
import { multiaddr } from '@multiformats/multiaddr';
import type { Subscription } from 'rxjs';
import type { Component, NetworkPorts, NetworkView, PeerGuardStats } from '../node/ports.ts';
import { defaultP2pOptions, type P2pOptions } from './options.ts';
import { type OmbraLibp2p, startLibp2p } from './libp2pNode.ts';
import { Syncer } from './sync.ts';
import { isPeerFault, NotHeld } from './answerCheck.ts';
import type { Block } from '../core/block.ts';
import { encode } from './wire.ts';
import { PeerBook } from './peerBook.ts';
import { ValidationGate } from './validationGate.ts';
import { ConnectionGuard, KNOWN_PEER_TAG } from './connectionGuard.ts';
import { StaleGossipBudget } from './staleGossip.ts';
import { GossipValidator } from './gossipValidator.ts';
import { ReplayGuard } from './replayGuard.ts';
import { announcerOptions, TxAnnouncer } from './txAnnouncer.ts';
import { errorMessage } from '../core/errors.ts';

/** Listen addresses kept per peer (a peer chooses how many it announces). */
const MAX_LISTEN_ADDRS = 8;

/** A multiaddr without its trailing `/p2p/<id>` (the peer id is served beside it). */
const withoutPeerId = (a: string): string => a.replace(/\/p2p\/[^/]+$/, '');

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
  /** What each connected peer said it listens on (identify), a few addresses each. */
  private readonly listenAddrs = new Map<string, string[]>();
  private topics = { block: '', tx: '' };
  private readonly onSyncProgress: NonNullable<P2pHooks['onSyncProgress']>;
  private readonly onPeerChange: NonNullable<P2pHooks['onPeerChange']>;
  /** Caps on gossip validations in flight, by topic. */
  private readonly gates: { block: ValidationGate; tx: ValidationGate };
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

  constructor(ports: NetworkPorts, key: PrivateKey, opts: Partial<P2pOptions> = {}, hooks: P2pHooks = {}) {
    this.ports = ports;
    this.key = key;
    this.onSyncProgress = hooks.onSyncProgress ?? (() => undefined);
    this.onPeerChange = hooks.onPeerChange ?? (() => undefined);
    this.opts = { ...defaultP2pOptions, ...opts };
    this.gates = { block: new ValidationGate(this.opts.maxBlockValidations), tx: new ValidationGate(this.opts.maxTxValidations) };
    this.stale = new StaleGossipBudget(this.opts.staleGossipPerMinute);
    this.replays = new ReplayGuard(this.stale);
    this.guard = new ConnectionGuard(
      this.opts,
      (peer) => this.book.knows(peer),
      () => this.p2p?.getConnections() ?? [],
    );
  }

  async start(): Promise<void> {
    const id = this.ports.chain.info.genesisBlock.hash.slice(0, 16);
    this.topics = { block: `/ombra/${id}/block/1`, tx: `/ombra/${id}/tx/1` };
    this.p2p = await startLibp2p(this.key, this.opts, this.topics, this.guard.gater());
    this.p2p.addEventListener('connection:open', (e) => {
      if (this.guard.check(e.detail)) return;
      // Known peers are pruned last when the node is over its connection cap.
      const peer = e.detail.remotePeer;
      if (this.book.knows(peer.toString()))
        void this.p2p.peerStore.merge(peer, { tags: { [KNOWN_PEER_TAG]: { value: 100 } } }).catch(() => undefined);
    });
    this.syncer = new Syncer(this.ports, this.p2p, this.opts);
    // Peers a peer names are dialled, but stay strangers: a node names whoever connected to it.
    this.syncer.onPeersLearned = (addrs) => {
      for (const a of addrs) this.remember(a);
    };
    // A peer whose blocks were checked and imported is known from then on (kept slots, pruned last).
    this.syncer.onProven = (peer) => {
      this.book.prove(peer.toString());
      void this.p2p.peerStore.merge(peer, { tags: { [KNOWN_PEER_TAG]: { value: 100 } } }).catch(() => undefined);
    };
    this.syncer.onStruck = () => this.syncRound();
    this.syncer.onProgress = (height, target) => this.onSyncProgress(height, target);
    await this.syncer.register(() => this.peerAddresses());
    this.validator = new GossipValidator(this.ports, this.opts, this.syncer, this.stale);
    const pubsub = this.p2p.services.pubsub;
    // Copies of seen messages are dropped unread; a peer that keeps sending them is banned.
    this.replays.watch(pubsub, (id, why) => {
      const peer = this.p2p.getPeers().find((p) => p.toString() === id);
      if (peer && !this.syncer.isBanned(peer)) void this.syncer.ban(peer, `replayed gossip: ${why}`);
    });
    // Beyond the caps a message is ignored unread: no penalty for the sender, no forwarding.
    pubsub.topicValidators.set(this.topics.tx, (peer, msg) =>
      this.gates.tx.run(() => this.validator.onTx(peer, msg.data), TopicValidatorResult.Ignore),
    );
    pubsub.topicValidators.set(this.topics.block, (peer, msg) =>
      this.gates.block.run(() => this.validator.onBlock(peer, msg.data), TopicValidatorResult.Ignore),
    );
    pubsub.subscribe(this.topics.tx);
    pubsub.subscribe(this.topics.block);
    // What the mempool holds now was restored from the pending log: never published.
    this.announcer = new TxAnnouncer(
      pubsub,
      this.topics.tx,
      () => this.ports.mempool.list(),
      announcerOptions(this.opts, this.ports.chain.genesis.blockTimeMs),
      this.ports.log,
    );
    // A peer that joins the transaction topic gets what was never published (restored after a restart).
    pubsub.addEventListener('subscription-change', (e) => {
      if (e.detail.subscriptions.some((s) => s.subscribe && s.topic === this.topics.tx) && this.inStep()) this.announcer.flush();
    });
    this.sub = this.ports.feed.events$.subscribe((e) => {
      if (e.type === 'tx') this.announcer.admitted(e.tx, e.source === 'gossip');
      if (e.type === 'block') this.validator.learn(e.block);
      if (e.type === 'block' && e.source === 'peer') this.heard = true;
      // After a block's revalidation of the pool (mined and invalidated transactions left): what was restored goes out.
      if (e.type === 'mempool' && this.announcer.unannounced() > 0 && this.inStep()) this.announcer.flush();
      if (e.type === 'block' && e.source === 'local') this.publish(this.topics.block, e.block);
    });
    this.p2p.addEventListener('peer:connect', (e) => {
      this.onPeerChange({ peer: e.detail.toString(), event: 'connect' });
      this.syncer.noteConnected(e.detail);
      void this.syncer.poke(e.detail);
    });
    this.p2p.addEventListener('peer:identify', (e) =>
      this.listenAddrs.set(
        e.detail.peerId.toString(),
        e.detail.listenAddrs.slice(0, MAX_LISTEN_ADDRS).map((a) => withoutPeerId(a.toString())),
      ),
    );
    this.p2p.addEventListener('peer:disconnect', (e) => {
      this.listenAddrs.delete(e.detail.toString());
      this.syncer.noteDisconnected(e.detail);
      this.onPeerChange({
        peer: e.detail.toString(),
        event: 'disconnect',
        reason: this.syncer.isBanned(e.detail) ? 'banned: it served invalid blocks or broke the sync protocol' : 'connection closed',
      });
    });
    // Discovered peers (mDNS) are dialled like the ones we were given.
    this.p2p.addEventListener('peer:discovery', (e) => {
      for (const a of e.detail.multiaddrs) this.remember(`${a.toString()}/p2p/${e.detail.id}`);
    });
    for (const a of this.opts.peers) this.remember(a, true);
    this.timers.push(setInterval(() => this.redial(), this.opts.redialIntervalMs));
    this.timers.push(setInterval(() => this.syncRound(), this.opts.syncIntervalMs));
    this.timers.push(setInterval(() => this.inStep() && this.announcer.round(), this.opts.reannounceIntervalMs));
    this.redial();
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
    const next = this.ports.chain.head().index + 1;
    const peers = this.p2p.getPeers().filter((p) => this.syncer.canAsk(p) && this.syncer.holds(p, next));
    if (peers.length) void this.syncer.poke(peers[Math.floor(Math.random() * peers.length)]);
  }

  private publish(topic: string, v: unknown): void {
    this.p2p.services.pubsub
      .publish(topic, encode(v))
      .catch((e: unknown) => this.ports.log.debug('publish failed', { topic, error: errorMessage(e) }));
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
   * asked, through the sync protocol: for history this node does not hold (a checkpoint's
   * background verification). A peer that serves invalid blocks is banned; the caller retries.
   */
  async fetchHistory(from: number, to: number): Promise<Block[]> {
    const peers = this.p2p?.getPeers().filter((p) => this.syncer.canAsk(p) && this.syncer.holds(p, from)) ?? [];
    if (peers.length === 0) throw new Error('no peer to fetch history from');
    const peer = peers[Math.floor(Math.random() * peers.length)];
    try {
      return await this.syncer.fetch(peer, from, Math.min(to, from + this.opts.syncBatch - 1));
    } catch (e) {
      if (isPeerFault(e)) await this.syncer.ban(peer, errorMessage(e));
      if (e instanceof NotHeld) this.syncer.noteNotHeld(peer, e);
      throw e;
    }
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.sub?.unsubscribe();
    await this.p2p?.stop();
  }
}
