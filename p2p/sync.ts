/**
 * Sync over request/response streams: `status` answers a peer's head and the peers it knows;
 * `blocks` answers up to `syncBatch` stored blocks of a range. A node behind a peer's better
 * chain fetches the missing blocks and imports each as if gossiped, or reorganises when the
 * peer's chain forks from its own.
 */
import type { Libp2p, PeerId } from '@libp2p/interface';
import type { Block } from '../core/block.ts';
import type { NetworkPorts } from '../node/ports.ts';
import { betterTip } from '../node/reorg.ts';
import type { P2pOptions } from './options.ts';
import { decode, encode, readAll } from './wire.ts';
import { batchesOf, blockItems, runPipeline } from '../node/blockPipeline.ts';
import { VerifyPool } from '../node/verifyPool.ts';
import { ChainError } from '../core/errors.ts';
import { finalityDepthOf } from '../core/genesis.ts';

/** How long a peer that served invalid blocks stays banned. */
const BAN_MS = 10 * 60_000;
/** Sync requests a peer may make per second (burst: twice as many). */
const SYNC_REQUESTS_PER_SECOND = 20;
/** Most peers banned at once (also the most request buckets kept). */
const MAX_BANNED = 1024;

/** Catch-ups of at least this many blocks verify signatures in worker threads. */
const SYNC_WORKERS_FROM = 64;

/** A peer's answer to `status`. */
export interface PeerStatus {
  genesisHash: string;
  height: number;
  headHash: string;
  headTimestamp: number;
  peers: string[];
}

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
  private readonly banned = new Map<string, number>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  /** True while importing a better chain that is more than one block ahead. */
  syncing = false;
  /** Called with multiaddrs a peer told us about. */
  onPeersLearned: (addrs: string[]) => void = () => undefined;
  /** Called after each block imported while syncing (more than one block behind): height, target. */
  onProgress: (height: number, target: number) => void = () => undefined;

  constructor(ports: NetworkPorts, p2p: Libp2p, opts: P2pOptions) {
    this.ports = ports;
    this.p2p = p2p;
    this.opts = opts;
    this.protocols = syncProtocols(ports.chain.info.genesisBlock.hash);
  }

  /** Registers the two protocol handlers. */
  async register(knownPeers: () => Promise<string[]>): Promise<void> {
    await this.p2p.handle(this.protocols.status, async ({ stream }) => {
      const head = this.ports.chain.head();
      const status: PeerStatus = {
        genesisHash: this.ports.chain.info.genesisBlock.hash,
        height: head.index,
        headHash: head.hash,
        headTimestamp: head.timestamp,
        peers: await knownPeers().catch(() => []),
      };
      await stream.sink([encode(status)]).catch(() => undefined);
    });
    await this.p2p.handle(this.protocols.blocks, async ({ stream, connection }) => {
      try {
        if (!this.admitRequest(connection.remotePeer.toString())) {
          await stream.sink([encode({ error: 'too many sync requests; slow down' })]);
          return;
        }
        const req = decode(await readAll(stream, 1024), 1024) as { from?: unknown; to?: unknown } | undefined;
        const from = Number(req?.from);
        const to = Number(req?.to);
        if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to < from || to - from + 1 > this.opts.syncBatch) {
          await stream.sink([encode({ error: `ranges are from..to, at most ${this.opts.syncBatch} blocks` })]);
          return;
        }
        // Bounded by bytes too: a prefix of the range, at least one block (the asker continues).
        const blocks = await this.ports.blocks.blocksIn(from, to);
        let bytes = 0;
        let n = 0;
        while (n < blocks.length) {
          bytes += JSON.stringify(blocks[n]).length;
          if (n > 0 && bytes > this.opts.maxSyncResponseBytes - 65_536) break;
          n++;
        }
        await stream.sink([encode({ blocks: n === blocks.length ? blocks : blocks.slice(0, n) })]);
      } catch {
        stream.abort(new Error('bad sync request'));
      }
    });
  }

  private async ask(peer: PeerId, protocol: string, body: unknown, max: number): Promise<unknown> {
    const stream = await this.p2p.dialProtocol(peer, protocol, { signal: AbortSignal.timeout(10_000) });
    await stream.sink([encode(body)]);
    return decode(await readAll(stream, max), max);
  }

  /** A peer's head. */
  async status(peer: PeerId): Promise<PeerStatus | undefined> {
    const s = (await this.ask(peer, this.protocols.status, {}, 1024 * 1024)) as PeerStatus | undefined;
    return s && typeof s.height === 'number' && typeof s.headHash === 'string' ? s : undefined;
  }

  /** A range of a peer's blocks (at most syncBatch). */
  async fetch(peer: PeerId, from: number, to: number): Promise<Block[]> {
    const r = (await this.ask(peer, this.protocols.blocks, { from, to }, this.opts.maxSyncResponseBytes)) as
      | { blocks?: Block[] }
      | undefined;
    if (!r || !Array.isArray(r.blocks)) throw new Error(`peer ${peer} answered no blocks for ${from}..${to}`);
    // A prefix of the range, in order (a server may stop early to bound its answer's bytes).
    const blocks = r.blocks;
    if (blocks.length === 0 && from <= to) throw new ChainError('INVALID_BLOCK', `answered an empty range for ${from}..${to}`);
    if (blocks.length > to - from + 1) throw new ChainError('INVALID_BLOCK', `answered ${blocks.length} blocks for ${from}..${to}`);
    blocks.forEach((b, i) => {
      if (typeof b !== 'object' || b === null || b.index !== from + i)
        throw new ChainError('INVALID_BLOCK', `answered a block out of order for ${from + i}`);
    });
    return blocks;
  }

  /** A token bucket per asking peer: SYNC_REQUESTS_PER_SECOND, with a burst of twice that. */
  private admitRequest(peer: string): boolean {
    const now = Date.now();
    let b = this.buckets.get(peer);
    if (!b) {
      if (this.buckets.size >= MAX_BANNED) this.buckets.delete(this.buckets.keys().next().value as string);
      b = { tokens: 2 * SYNC_REQUESTS_PER_SECOND, at: now };
      this.buckets.set(peer, b);
    }
    b.tokens = Math.min(2 * SYNC_REQUESTS_PER_SECOND, b.tokens + ((now - b.at) / 1000) * SYNC_REQUESTS_PER_SECOND);
    b.at = now;
    if (b.tokens < 1) return false;
    b.tokens--;
    return true;
  }

  /** True while `peer` is banned for serving invalid blocks. */
  isBanned(peer: PeerId): boolean {
    const until = this.banned.get(peer.toString());
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.banned.delete(peer.toString());
    return false;
  }

  /** Bans a peer that served an invalid block or branch, and hangs up. */
  private async ban(peer: PeerId, why: string): Promise<void> {
    // Bounded: the oldest ban goes first when the book is full.
    if (this.banned.size >= MAX_BANNED) this.banned.delete(this.banned.keys().next().value as string);
    this.banned.set(peer.toString(), Date.now() + BAN_MS);
    this.ports.log.warn('peer banned: it served invalid blocks', { peer: peer.toString(), why, minutes: BAN_MS / 60_000 });
    await this.p2p.hangUp(peer).catch(() => undefined);
  }

  /** Syncs with `peer` unless a sync is already running or the peer is banned. */
  poke(peer: PeerId): Promise<void> {
    if (this.isBanned(peer)) {
      void this.p2p.hangUp(peer).catch(() => undefined);
      return Promise.resolve();
    }
    this.running ??= this.syncWith(peer)
      .catch(async (e: unknown) => {
        if (e instanceof ChainError && e.code === 'INVALID_BLOCK') await this.ban(peer, e.message);
        else this.ports.log.warn('sync failed', { peer: peer.toString(), error: (e as Error).message });
      })
      .finally(() => {
        this.running = null;
        this.syncing = false;
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
    this.onPeersLearned(Array.isArray(st.peers) ? st.peers.filter((a) => typeof a === 'string').slice(0, 50) : []);
    const head = this.ports.chain.head();
    if (!betterTip({ index: st.height, timestamp: st.headTimestamp, hash: st.headHash }, head, this.ports.chain.genesis.blockTimeMs))
      return;
    this.syncing = st.height > head.index + 1;
    const ancestor = await this.commonAncestor(peer, Math.min(head.index, st.height));
    if (ancestor === head.index) {
      // Blocks far below the target need no undo records: only the last ones can be reorganised.
      this.ports.syncTarget(st.height);
      // Long catch-ups verify signatures ahead in worker threads (the node's one pipeline).
      const pool = st.height - ancestor >= SYNC_WORKERS_FROM ? new VerifyPool() : null;
      try {
        const fetched = this.fetchRange(peer, ancestor + 1, st.height);
        // Each verified batch is imported with one synced write (group commit).
        const group: { raw: unknown; verified: boolean }[] = [];
        await runPipeline(
          batchesOf(blockItems(fetched)),
          pool,
          ({ block }, verified) => {
            if ((block as Block).index > this.ports.chain.head().index) group.push({ raw: block, verified });
          },
          async () => {
            const blocks = group.splice(0);
            if (blocks.length === 0) return;
            const imported = await this.ports.chain.importBlocks(
              blocks.map((b) => b.raw),
              blocks.map((b) => b.verified),
            );
            if (this.syncing) this.onProgress(imported[imported.length - 1].index, st.height);
          },
        );
      } finally {
        this.ports.syncTarget(0);
        await pool?.close();
      }
      return;
    }
    // A competing branch: never below finality, and only as long as it takes to beat ours (one
    // block past our head, at most finality + 1 blocks in memory); the rest follows as a plain
    // catch-up. The node validates it on a copy of the ancestor's state before anything moves.
    const finality = finalityDepthOf(this.ports.chain.genesis);
    if (head.index - ancestor > finality) {
      throw new ChainError('INVALID_BLOCK', `offers a branch from ${ancestor}, more than ${finality} blocks below our head ${head.index}`);
    }
    const target = Math.min(st.height, head.index + 1);
    const branch: Block[] = [];
    for await (const b of this.fetchRange(peer, ancestor + 1, target)) branch.push(b);
    if (branch.length !== target - ancestor)
      throw new ChainError('INVALID_BLOCK', `claimed height ${st.height} but served ${branch.length} blocks`);
    // The rest of a longer chain comes as a plain catch-up on the next sync round. The branch was
    // judged against `head`: if gossip moved it meanwhile, the node refuses without blaming the peer.
    await this.ports.chain.reorg(ancestor, branch, head.hash);
  }

  /** A peer's blocks from..to, fetched batch by batch as they are consumed. */
  private async *fetchRange(peer: PeerId, from: number, to: number): AsyncGenerator<Block> {
    for (let lo = from; lo <= to; ) {
      const blocks = await this.fetch(peer, lo, Math.min(to, lo + this.opts.syncBatch - 1));
      yield* blocks;
      lo += blocks.length;
    }
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
