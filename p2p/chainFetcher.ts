/**
 * Takes a peer's better chain once p2p/sync.ts decided to: finds where it forks from ours (no
 * deeper than finality), then imports the blocks after our head as if gossiped (a catch-up,
 * signatures verified ahead in worker threads when it is long), or validates the competing branch
 * and reorganises onto it. Blocks come through the sync client (p2p/syncClient.ts), checked
 * before use; what a failure says of the peer is judged by the caller.
 */
import type { PeerId } from '@libp2p/interface';
import type { Block } from '../core/block.ts';
import { ChainError } from '../core/errors.ts';
import { finalityDepthOf } from '../core/genesis.ts';
import type { NetworkPorts } from '../node/ports.ts';
import { batchesOf, runPipeline } from '../node/verification/blockPipeline.ts';
import { VerifyPool } from '../node/verification/verifyPool.ts';
import { ancestorsIn, assumedItems } from './assumeValid.ts';
import { fetchAhead } from './fetchAhead.ts';
import type { P2pOptions } from './options.ts';
import type { SyncClient } from './syncClient.ts';

/** Catch-ups of at least this many blocks verify signatures in worker threads. */
const SYNC_WORKERS_FROM = 64;

/** What the fetcher tells the sync: a peer's blocks were checked and imported. */
export interface ChainFetcherHooks {
  /** Blocks `peer` served were checked and imported (it proved itself). */
  onProven(peer: PeerId): void;
  /** A catch-up from `peer` imported blocks up to `top`, toward the head `target` it claimed. */
  onImported(peer: PeerId, top: number, target: number): void;
}

/** Fetches and imports a peer's better chain. */
export class ChainFetcher {
  private readonly ports: Pick<NetworkPorts, 'chain' | 'blocks'>;
  private readonly opts: Pick<P2pOptions, 'syncBatch' | 'assumeValid'>;
  private readonly client: Pick<SyncClient, 'fetch'>;
  private readonly hooks: ChainFetcherHooks;

  constructor(
    ports: Pick<NetworkPorts, 'chain' | 'blocks'>,
    opts: Pick<P2pOptions, 'syncBatch' | 'assumeValid'>,
    client: Pick<SyncClient, 'fetch'>,
    hooks: ChainFetcherHooks,
  ) {
    this.ports = ports;
    this.opts = opts;
    this.client = client;
    this.hooks = hooks;
  }

  /** Takes `peer`'s chain of `height`, better than ours ending in `head`: a catch-up, or a branch. */
  async take(peer: PeerId, head: Block, height: number): Promise<void> {
    const ancestor = await this.commonAncestor(peer, Math.min(head.index, height));
    if (ancestor === head.index) await this.catchUp(peer, ancestor, height);
    else await this.takeBranch(peer, ancestor, head, height);
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
          this.hooks.onProven(peer);
          this.hooks.onImported(peer, imported[imported.length - 1].index, target);
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
    this.hooks.onProven(peer);
  }

  /**
   * A peer's blocks from..to, with the next batch asked for while one is consumed (p2p/fetchAhead.ts).
   * With `assumed`, the blocks of an answer up to the assume-valid block, when it holds it, go in
   * that set (p2p/assumeValid.ts).
   */
  private fetchRange(peer: PeerId, from: number, to: number, assumed?: WeakSet<Block>): AsyncGenerator<Block> {
    const hash = this.opts.assumeValid;
    return fetchAhead(from, to, this.opts.syncBatch, async (lo, hi) => {
      const blocks = await this.client.fetch(peer, lo, hi);
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
    if (top >= floor && (await this.agrees((await this.client.fetch(peer, top, top))[0]))) return top;
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
