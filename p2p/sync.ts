/**
 * Sync over request/response streams (served by p2p/syncServer.ts): a node behind a peer's
 * better chain fetches the missing blocks and imports each as if gossiped, or reorganises when
 * the peer's chain forks from its own. Every answer is checked before use (p2p/answerCheck.ts);
 * a peer that serves invalid blocks or oversized or malformed answers is banned. Every request has
 * a deadline (and a minimum rate for large answers): a peer that stalls, trickles, or refuses blocks
 * below the head it claimed is struck, left alone for a cooldown while another peer is asked, and
 * banned on repeat. The node counts as syncing only after a peer's blocks were verified and
 * imported, so a claimed head alone never makes it refuse transactions; and a peer's claimed head
 * counts for readiness only while it serves it (a sync that ends short of it drops it), unlike a
 * sealed block it gossiped (p2p/peerHeads.ts). This file judges peers and runs one sync at a time;
 * requests are made by p2p/syncClient.ts, a better chain is taken by p2p/chainFetcher.ts, and
 * whether an authority holds its slot meanwhile is p2p/productionHold.ts's to say.
 */
import type { Libp2p, PeerId } from '@libp2p/interface';
import type { Block } from '../core/block.ts';
import type { NetworkPorts } from '../node/ports.ts';
import { betterTip } from '../node/writer/reorg.ts';
import type { P2pOptions } from './options.ts';
import { StalledError } from './wire.ts';
import { serveSync } from './syncServer.ts';
import { isPeerFault, NotHeld, Refusal } from './answerCheck.ts';
import { ChainError, errorMessage } from '../core/errors.ts';
import { RequestBuckets, SYNC_REQUESTS_PER_SECOND } from './requestBuckets.ts';
import { BAN_MS, BanList, MAX_BANNED } from './banList.ts';
import { PeerHeads } from './peerHeads.ts';
import { HeldFromNotes } from './heldFromNotes.ts';
import { SyncClient } from './syncClient.ts';
import { ChainFetcher } from './chainFetcher.ts';
import { ProductionHold } from './productionHold.ts';

/** Protocol ids for a chain (its genesis hash keeps chains apart). */
export function syncProtocols(genesisHash: string) {
  const id = genesisHash.slice(0, 16);
  return { status: `/ombra/${id}/status/1`, blocks: `/ombra/${id}/blocks/1` };
}

/** Serves and runs sync for one node. */
export class Syncer {
  private readonly ports: NetworkPorts;
  private readonly p2p: Libp2p;
  private readonly opts: P2pOptions;
  private readonly protocols: ReturnType<typeof syncProtocols>;
  private running: Promise<void> | null = null;
  /** Peers that served invalid blocks or broke the protocol. */
  readonly banned = new BanList();
  /** Requests each asking peer may still make (server side). */
  private readonly asked = new RequestBuckets(SYNC_REQUESTS_PER_SECOND, MAX_BANNED);
  /** Asks peers over the sync protocols (p2p/syncClient.ts). */
  private readonly client: SyncClient;
  /** Takes a peer's better chain (p2p/chainFetcher.ts). */
  private readonly fetcher: ChainFetcher;
  /** What holds an authority's production while a peer is, or may be, ahead (p2p/productionHold.ts). */
  private readonly hold: ProductionHold;
  /** What peers said of the blocks they hold (started from a checkpoint). */
  private readonly heldFrom: HeldFromNotes;
  /** True while importing a better chain more than one block ahead, once its first blocks were imported. */
  syncing = false;
  /** Heads peers showed with evidence (readiness): a struck peer's claim is dropped, a banned peer's all. */
  readonly heads: PeerHeads;
  /** Set once an import was refused for a full data dir: writes stay stopped until a restart (node/store/storageFence.ts), so fetching more is waste. */
  private writesStopped = false;
  /** Called after a peer was struck (the network asks another one at once). */
  onStruck: (peer: PeerId) => void = () => undefined;
  /** Called with multiaddrs a peer told us about, and that peer. */
  onPeersLearned: (addrs: string[], from: PeerId) => void = () => undefined;
  /** Called when blocks a peer served were checked and imported (it proved itself). */
  onProven: (peer: PeerId) => void = () => undefined;
  /** Called after each block imported while syncing (more than one block behind): height, target. */
  onProgress: (height: number, target: number) => void = () => undefined;

  constructor(ports: NetworkPorts, p2p: Libp2p, opts: P2pOptions) {
    this.ports = ports;
    this.p2p = p2p;
    this.opts = opts;
    this.protocols = syncProtocols(ports.chain.info.genesisBlock.hash);
    this.heldFrom = new HeldFromNotes(opts.syncStrikeCooldownMs);
    this.heads = new PeerHeads(undefined, opts.sealedHeadTtlMs);
    this.client = new SyncClient(p2p, this.protocols, opts, ports.chain.genesis);
    this.fetcher = new ChainFetcher(ports, opts, this.client, {
      onProven: (peer) => this.onProven(peer),
      onImported: (peer, top, target) => {
        this.heads.noteClaim(peer.toString(), target);
        this.syncing = target > top + 1;
        if (this.syncing) this.onProgress(top, target);
      },
    });
    const freshMs = 2 * ports.chain.genesis.blockTimeMs; // a silent new peer holds a slot this long at most
    this.hold = new ProductionHold(() => ports.chain.head().index, this.heads, opts.syncRequestTimeoutMs, freshMs);
  }

  /** Registers the two protocol handlers. */
  register(knownPeers: () => Promise<string[]>): Promise<void> {
    return serveSync(this.p2p, this.protocols, this.ports, this.opts, this.asked, knownPeers);
  }

  /**
   * A connected peer that may be asked for blocks from `from`, at random: not banned, not cooling
   * down after a strike, not one that recently said it holds no block that low (p2p/heldFromNotes.ts);
   * undefined when none may.
   */
  pick(from: number): PeerId | undefined {
    const peers = this.p2p.getPeers().filter((p) => this.canAsk(p) && this.heldFrom.holds(p.toString(), from, Date.now()));
    return peers.length ? peers[Math.floor(Math.random() * peers.length)] : undefined;
  }

  /**
   * Blocks from..to (a checked prefix of at most syncBatch) from one peer that may be asked (pick):
   * for history this node does not hold. A peer that serves invalid blocks is banned; the caller retries.
   */
  async fetchHistory(from: number, to: number): Promise<Block[]> {
    const peer = this.pick(from);
    if (!peer) throw new Error('no peer to fetch history from');
    try {
      return await this.client.fetch(peer, from, Math.min(to, from + this.opts.syncBatch - 1));
    } catch (e) {
      if (isPeerFault(e)) await this.ban(peer, errorMessage(e));
      if (e instanceof NotHeld) this.noteNotHeld(peer, e);
      throw e;
    }
  }

  /**
   * Notes that `peer` refused a range it does not hold: its claimed head no longer counts, and
   * another peer is asked; one that refuses blocks it said before it holds is struck. True when
   * it was struck.
   */
  private noteNotHeld(peer: PeerId, e: NotHeld): boolean {
    const id = peer.toString();
    this.heads.forgetClaim(id);
    const contradiction = this.heldFrom.note(id, e.first, e.from);
    if (contradiction) {
      void this.strike(peer, contradiction);
      return true;
    }
    this.ports.log.info('peer holds no blocks this low (it started from a checkpoint); asking another', { peer: id, heldFrom: e.first });
    return false;
  }

  /** True while `peer` may be asked to sync: neither banned nor cooling down after a strike. */
  private canAsk(peer: PeerId, now = Date.now()): boolean {
    const id = peer.toString();
    return !this.banned.has(id, now) && !this.banned.cooling(id, now);
  }

  /** Strikes a slow or refusing peer: a cooldown, a ban on repeat (p2p/banList.ts). */
  private async strike(peer: PeerId, why: string): Promise<void> {
    const id = peer.toString();
    this.heads.forgetClaim(id);
    if (this.banned.strike(id, this.opts.maxSyncStrikes, this.opts.syncStrikeCooldownMs)) {
      await this.ban(peer, `struck ${this.opts.maxSyncStrikes} times; last: ${why}`);
    } else {
      this.ports.log.warn('peer struck: too slow or refused blocks below the head it claimed', { peer: id, why });
    }
    this.onStruck(peer);
  }

  /** True while `peer` is banned for serving invalid blocks or breaking the protocol. */
  isBanned(peer: PeerId): boolean {
    return this.banned.has(peer.toString());
  }

  /** Bans a peer that served an invalid block or branch or broke the protocol, and hangs up. */
  async ban(peer: PeerId, why: string): Promise<void> {
    this.banned.add(peer.toString());
    this.heads.forget(peer.toString());
    this.ports.log.warn('peer banned: it served invalid blocks or broke the sync protocol', {
      peer: peer.toString(),
      why,
      minutes: BAN_MS / 60_000,
    });
    await this.p2p.hangUp(peer).catch(() => undefined);
  }

  /**
   * True while this node should not build on its head (node/writer/producer.ts): a peer is, or may
   * be, ahead, for at most a request deadline per claim or silent new peer (p2p/productionHold.ts).
   */
  behind(now = Date.now()): boolean {
    return this.hold.behind(now);
  }

  /** A peer connected: until its first sync ends (or one request deadline passes), the node counts as possibly behind. */
  noteConnected(peer: PeerId, now = Date.now()): void {
    this.hold.connected(peer.toString(), now);
  }

  /** A peer disconnected: it no longer holds production back. */
  noteDisconnected(peer: PeerId): void {
    this.hold.disconnected(peer.toString());
    this.heads.forget(peer.toString());
  }

  /** Syncs with `peer` unless a sync is already running or the peer is banned or cooling down. */
  poke(peer: PeerId): Promise<void> {
    if (this.isBanned(peer)) {
      void this.p2p.hangUp(peer).catch(() => undefined);
      return Promise.resolve();
    }
    if (this.running || this.writesStopped || !this.canAsk(peer)) return this.running ?? Promise.resolve();
    this.running = this.syncWith(peer)
      .catch(async (e: unknown) => {
        // A claimed head counts only while its peer serves the blocks it claims: a sync that
        // ended short of it drops the claim (the next verified import from that peer notes it
        // again). A sealed block the peer gossiped stays evidence: it proves the network's height
        // however the peer answers (p2p/peerHeads.ts).
        this.heads.forgetClaim(peer.toString());
        if (e instanceof ChainError && e.code === 'DISK_FULL') this.writesStopped = true;
        else if (isPeerFault(e)) await this.ban(peer, errorMessage(e));
        else if (e instanceof NotHeld) {
          // Once this sync has ended (running is cleared), another peer is asked.
          if (!this.noteNotHeld(peer, e)) setImmediate(() => this.onStruck(peer));
        } else if (e instanceof StalledError || e instanceof Refusal) await this.strike(peer, e.message);
        else this.ports.log.warn('sync failed', { peer: peer.toString(), error: errorMessage(e) });
      })
      .finally(() => {
        this.running = null;
        this.syncing = false;
        this.hold.syncEnded(peer.toString());
        // A peer that connected while this sync ran was not asked yet: it is next.
        const waiting = this.p2p.getPeers().find((p) => this.hold.isFresh(p.toString()) && this.canAsk(p));
        if (waiting) setImmediate(() => void this.poke(waiting));
      });
    return this.running;
  }

  /** Fetches and imports a peer's better chain. */
  private async syncWith(peer: PeerId): Promise<void> {
    const st = await this.client.status(peer);
    if (!st) return;
    if (st.genesisHash !== this.ports.chain.info.genesisBlock.hash) {
      this.ports.log.warn('peer is on another chain; hanging up', { peer: peer.toString() });
      await this.p2p.hangUp(peer);
      return;
    }
    this.onPeersLearned(Array.isArray(st.peers) ? st.peers.filter((a) => typeof a === 'string').slice(0, 50) : [], peer);
    const head = this.ports.chain.head();
    if (!betterTip({ index: st.height, timestamp: st.headTimestamp, hash: st.headHash }, head, this.ports.chain.genesis.blockTimeMs))
      return;
    this.hold.syncBehind();
    try {
      await this.fetcher.take(peer, head, st.height);
    } catch (e) {
      // Holding no block up to the head it claimed is no checkpoint: it claimed what it lacks.
      if (e instanceof NotHeld && e.first > st.height + 1)
        throw new Refusal(`says it holds blocks from ${e.first} only, above the head ${st.height} it claimed`);
      throw e;
    }
  }
}
