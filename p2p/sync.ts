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
 * sealed block it gossiped (p2p/peerHeads.ts).
 */
import type { Libp2p, PeerId } from '@libp2p/interface';
import type { Block } from '../core/block.ts';
import type { NetworkPorts } from '../node/ports.ts';
import { betterTip } from '../node/writer/reorg.ts';
import type { P2pOptions } from './options.ts';
import { decode, encode, OversizedError, readAll, StalledError } from './wire.ts';
import { type PeerStatus, serveSync } from './syncServer.ts';
import { checkAnswer, isPeerFault, NotHeld, PeerFault, Refusal } from './answerCheck.ts';
import { batchesOf, runPipeline } from '../node/verification/blockPipeline.ts';
import { ancestorsIn, assumedItems } from './assumeValid.ts';
import { VerifyPool } from '../node/verification/verifyPool.ts';
import { ChainError, errorMessage } from '../core/errors.ts';
import { finalityDepthOf } from '../core/genesis.ts';
import { RequestBuckets, SYNC_REQUESTS_PER_SECOND } from './requestBuckets.ts';
import { BAN_MS, BanList, MAX_BANNED } from './banList.ts';
import { fetchAhead } from './fetchAhead.ts';
import { PeerHeads } from './peerHeads.ts';
import { HeldFromNotes } from './heldFromNotes.ts';

/** Catch-ups of at least this many blocks verify signatures in worker threads. */
const SYNC_WORKERS_FROM = 64;

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
  /** Requests this node may still make of each peer (client side: it paces itself the same way). */
  private readonly asking = new RequestBuckets(SYNC_REQUESTS_PER_SECOND, MAX_BANNED);
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
  /** When the running sync's peer showed a better chain than ours (its status), until that sync ends; null otherwise. */
  private behindSince: number | null = null;
  /** The head height behind() last saw, and since when (production is held only while it moves). */
  private headSeen = { index: -1, at: 0 };
  /** Peers connected whose first sync (status, then any catch-up) has not ended yet, with when they connected. */
  private readonly fresh = new Map<string, number>();

  constructor(ports: NetworkPorts, p2p: Libp2p, opts: P2pOptions) {
    this.ports = ports;
    this.p2p = p2p;
    this.opts = opts;
    this.protocols = syncProtocols(ports.chain.info.genesisBlock.hash);
    this.heldFrom = new HeldFromNotes(opts.syncStrikeCooldownMs);
    this.heads = new PeerHeads(undefined, opts.sealedHeadTtlMs);
  }

  /** Registers the two protocol handlers. */
  register(knownPeers: () => Promise<string[]>): Promise<void> {
    return serveSync(this.p2p, this.protocols, this.ports, this.opts, this.asked, knownPeers);
  }

  /** Asks and reads the whole answer; an oversized or malformed one is the peer's fault (a ban). */
  private async ask(peer: PeerId, protocol: string, body: unknown, max: number): Promise<unknown> {
    const timeoutMs = this.opts.syncRequestTimeoutMs;
    const stream = await this.p2p.dialProtocol(peer, protocol, { signal: AbortSignal.timeout(timeoutMs) }).catch((e: unknown) => {
      throw e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')
        ? new StalledError(`opened no ${protocol} stream within ${timeoutMs} ms`)
        : e;
    });
    let bytes: Uint8Array;
    try {
      await stream.sink([encode(body)]);
      bytes = await readAll(stream, max, { timeoutMs, minBytesPerSecond: this.opts.syncMinBytesPerSecond });
    } catch (e) {
      if (e instanceof OversizedError) throw new PeerFault(`answered ${protocol} with ${e.message}`);
      throw e;
    }
    const answer = decode(bytes, max);
    if (answer !== undefined) return answer;
    // A peer that died mid-answer (its connection is gone) leaves a cut answer through no breach;
    // an empty answer on a live connection is a strike, a malformed one a breach.
    if (!this.p2p.getConnections(peer).some((c) => c.status === 'open')) throw new Error(`connection closed during ${protocol}`);
    if (bytes.byteLength === 0) throw new StalledError(`answered ${protocol} with nothing`);
    throw new PeerFault(`answered ${protocol} with malformed JSON`);
  }

  /** A peer's head. */
  async status(peer: PeerId): Promise<PeerStatus | undefined> {
    const s = (await this.ask(peer, this.protocols.status, {}, 1024 * 1024)) as PeerStatus | undefined;
    return s && typeof s.height === 'number' && typeof s.headHash === 'string' ? s : undefined;
  }

  /** A range of a peer's blocks (at most syncBatch): a checked prefix of it (p2p/answerCheck.ts). */
  async fetch(peer: PeerId, from: number, to: number): Promise<Block[]> {
    await this.asking.wait(peer.toString());
    const answer = await this.ask(peer, this.protocols.blocks, { from, to }, this.opts.maxSyncResponseBytes);
    return checkAnswer(answer, from, to, this.ports.chain.genesis);
  }

  /** What peers said of the blocks they hold (started from a checkpoint). */
  private readonly heldFrom: HeldFromNotes;

  /** False while `peer` recently said it holds no block `from` (p2p/heldFromNotes.ts). */
  holds(peer: PeerId, from: number, now = Date.now()): boolean {
    return this.heldFrom.holds(peer.toString(), from, now);
  }

  /**
   * Notes that `peer` refused a range it does not hold: its claimed head no longer counts, and
   * another peer is asked; one that refuses blocks it said before it holds is struck. True when
   * it was struck.
   */
  noteNotHeld(peer: PeerId, e: NotHeld): boolean {
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
  canAsk(peer: PeerId, now = Date.now()): boolean {
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
   * True while this node should not build on its head (node/writer/producer.ts): a peer showed a
   * higher head with evidence (p2p/peerHeads.ts), or a peer's status showed a better chain and the
   * sync taking it is running, or a peer connected whose status is not known yet. A block built
   * now would be on a stale head: it loses, and while it is built and gossiped the sync fetching
   * the better chain is refused ("the chain holds another block", "the head moved"). A bare claim
   * or a silent new peer holds production for at most one request deadline: a peer that stalls is
   * struck by then, and a liar cannot stop an authority for longer.
   */
  behind(now = Date.now()): boolean {
    const head = this.ports.chain.head().index;
    if (head !== this.headSeen.index) this.headSeen = { index: head, at: now };
    // Whatever holds production may not hold it for more than a few request deadlines while the
    // head does not move: a claim that outlived its peer (a CI run saw an authority halted for
    // good after a stalling liar was banned) must not stop the chain.
    if (now - this.headSeen.at > 3 * this.opts.syncRequestTimeoutMs) return false;
    return this.held(now);
  }

  private held(now: number): boolean {
    const best = this.heads.best(now);
    if (best !== null && best > this.ports.chain.head().index) return true;
    const deadline = this.opts.syncRequestTimeoutMs;
    if (this.behindSince !== null && now - this.behindSince < deadline) return true;
    for (const [peer, at] of this.fresh) {
      if (now - at < deadline) return true;
      this.fresh.delete(peer);
    }
    return false;
  }

  /** A peer connected: until its first sync ends (or one request deadline passes), the node counts as possibly behind. */
  noteConnected(peer: PeerId, now = Date.now()): void {
    if (this.fresh.size < 1024) this.fresh.set(peer.toString(), now);
  }

  /** A peer disconnected: it no longer holds production back. */
  noteDisconnected(peer: PeerId): void {
    this.fresh.delete(peer.toString());
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
        this.behindSince = null;
        this.fresh.delete(peer.toString());
        // A peer that connected while this sync ran was not asked yet: it is next.
        const waiting = this.p2p.getPeers().find((p) => this.fresh.has(p.toString()) && this.canAsk(p));
        if (waiting) setImmediate(() => void this.poke(waiting));
      });
    return this.running;
  }

  /** Fetches and imports a peer's better chain. */
  private async syncWith(peer: PeerId): Promise<void> {
    const st = await this.status(peer);
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
    this.behindSince = Date.now();
    try {
      const ancestor = await this.commonAncestor(peer, Math.min(head.index, st.height));
      if (ancestor === head.index) await this.catchUp(peer, ancestor, st.height);
      else await this.takeBranch(peer, ancestor, head, st.height);
    } catch (e) {
      // Holding no block up to the head it claimed is no checkpoint: it claimed what it lacks.
      if (e instanceof NotHeld && e.first > st.height + 1)
        throw new Refusal(`says it holds blocks from ${e.first} only, above the head ${st.height} it claimed`);
      throw e;
    }
  }

  /** Imports a peer's blocks after our head up to `target`, each verified batch in one synced write. */
  private async catchUp(peer: PeerId, ancestor: number, target: number): Promise<void> {
    // Undo records follow what was verified, never the claimed target: the runner keeps them for
    // the blocks near the log's head or near the top of the next batch once its signatures passed.
    // Long catch-ups verify signatures ahead in worker threads (the node's one pipeline).
    const pool = target - ancestor >= SYNC_WORKERS_FROM ? new VerifyPool() : null;
    try {
      const assumed = new WeakSet<Block>();
      const fetched = this.fetchRange(peer, ancestor + 1, target, assumed);
      // Each verified batch is imported with one synced write (group commit).
      const group: { raw: unknown; verified: boolean; txBytes?: number; trusted: boolean }[] = [];
      await runPipeline(
        batchesOf(assumedItems(fetched, assumed)),
        pool,
        // Blocks at or below the head go in too: importBlocks skips the ones the chain holds and
        // refuses (HeadMovedError, no ban) a different one, such as a block this node produced meanwhile.
        ({ block, txBytes, assumed: trusted }, verified) => {
          group.push({ raw: block, verified, txBytes, trusted: trusted === true });
        },
        async (ahead) => {
          const blocks = group.splice(0);
          if (blocks.length === 0) return;
          const imported = await this.ports.chain.importBlocks(
            blocks.map((b) => b.raw),
            blocks.map((b) => b.verified),
            // Measured by the batching already: not serialised again.
            blocks.map((b) => b.txBytes),
            // The next batch's blocks passed their signature checks: the head is heading there,
            // so blocks deeper than the undo depth below them keep no undo records.
            { horizon: ahead.verifiedTop, trusted: blocks.map((b) => b.trusted) },
          );
          if (imported.length === 0) return;
          // Verified blocks came in and the claimed head is still ahead: evidence the node is behind.
          // It lasts at most one request deadline past the last import (then a strike ends the sync).
          const top = imported[imported.length - 1].index;
          this.onProven(peer);
          this.heads.noteClaim(peer.toString(), target);
          this.syncing = target > top + 1;
          if (this.syncing) this.onProgress(top, target);
        },
        // Two batches verified ahead: the next one's verdicts are in when this one is imported.
        { lookahead: pool !== null },
      );
    } finally {
      await pool?.close();
    }
  }

  /**
   * A competing branch from `ancestor`: never below finality, and only as long as it takes to beat
   * ours (one block past our head, at most finality + 1 blocks in memory); the rest follows as a
   * plain catch-up. The node validates it on a copy of the ancestor's state before anything moves.
   */
  private async takeBranch(peer: PeerId, ancestor: number, head: Block, height: number): Promise<void> {
    const finality = finalityDepthOf(this.ports.chain.genesis);
    if (head.index - ancestor > finality) {
      throw new ChainError('INVALID_BLOCK', `offers a branch from ${ancestor}, more than ${finality} blocks below our head ${head.index}`);
    }
    const target = Math.min(height, head.index + 1);
    const branch: Block[] = [];
    for await (const b of this.fetchRange(peer, ancestor + 1, target)) branch.push(b);
    if (branch.length !== target - ancestor)
      throw new ChainError('INVALID_BLOCK', `claimed height ${height} but served ${branch.length} blocks`);
    // The rest of a longer chain comes as a plain catch-up on the next sync round. The branch was
    // judged against `head`: if gossip moved it meanwhile, the node refuses without blaming the peer.
    await this.ports.chain.reorg(ancestor, branch, head.hash);
    this.onProven(peer);
  }

  /**
   * A peer's blocks from..to, with the next batch asked for while one is consumed (p2p/fetchAhead.ts).
   * With `assumed`, the blocks of an answer up to the assume-valid block, when it holds it, go in
   * that set (p2p/assumeValid.ts).
   */
  private fetchRange(peer: PeerId, from: number, to: number, assumed?: WeakSet<Block>): AsyncGenerator<Block> {
    const hash = this.opts.assumeValid;
    return fetchAhead(from, to, this.opts.syncBatch, async (lo, hi) => {
      const blocks = await this.fetch(peer, lo, hi);
      if (assumed && hash) for (const b of ancestorsIn(blocks, hash)) assumed.add(b);
      return blocks;
    });
  }

  /**
   * The highest height at which our chain and the peer's agree, looked for no deeper than finality.
   * Answers may be prefixes of what was asked (bounded by bytes), so a window is read to its end
   * before its highest match counts; the usual case, a peer ahead on our chain, costs one block.
   */
  private async commonAncestor(peer: PeerId, top: number): Promise<number> {
    const floor = Math.max(0, this.ports.chain.head().index - finalityDepthOf(this.ports.chain.genesis));
    if (top >= floor && (await this.agrees((await this.fetch(peer, top, top))[0]))) return top;
    for (let hi = top - 1; hi >= floor; ) {
      const lo = Math.max(floor, hi - this.opts.syncBatch + 1);
      let match = -1;
      for await (const b of this.fetchRange(peer, lo, hi)) if (await this.agrees(b)) match = b.index;
      if (match >= 0) return match;
      hi = lo - 1;
    }
    throw new ChainError('INVALID_BLOCK', `shares no block with us within the finality depth (down to ${floor})`);
  }

  /** True when a peer's block is the one we hold at its height. */
  private async agrees(theirs: Block): Promise<boolean> {
    const ours = await this.ports.blocks.block(theirs.index);
    return ours !== undefined && ours.hash === theirs.hash;
  }
}
