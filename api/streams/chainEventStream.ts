/**
 * GET /api/chain/events for one client: `hello`, then every missed block from the log (when
 * resuming), then the live feed, with no gap and no duplicate.
 *
 * The race between reading the log and going live is closed by order: subscribe first and
 * buffer, read the head, replay the log up to it, then drain the buffer skipping heights
 * already sent. A block appended after the subscription is always on the live feed (the node
 * moves its head and emits in the same tick), so log + buffer cover every height exactly once.
 *
 * A resume names the client's last block by height and hash (`Last-Event-ID: <height>:<hash>`,
 * the id of every block frame). When the log holds another block there, the node switched
 * branch since: the client first gets a `reorg` naming its dropped blocks (from the node's
 * journal of switches, node/writer/reorgJournal.ts), then the new branch's blocks.
 */
import type { ServerResponse } from 'node:http';
import type { StreamPorts } from '../../node/ports.ts';
import type { ChainEvent, ReorgEvent } from '../../projections/events.ts';
import { blockFrame, cursorId, reorgFrame, sseFrame, txData } from './sseFrames.ts';
import type { StreamHub } from './streamHub.ts';
import { SseStream, type Destroyable } from './sseStream.ts';

/** Where a client resumes: the first height it is missing, and the hash of the block before it when it named one. */
export interface ResumePoint {
  from: number;
  /** The hash of the client's block at `from - 1` (Last-Event-ID `<height>:<hash>`). */
  hash?: string;
}

/** The chain event stream of one subscriber. */
export class ChainEventStream extends SseStream {
  /** Highest block height sent (or known to the client). */
  private lastSent: number;
  private catchingUp = false;
  private pending: ChainEvent[] = [];

  /**
   * `from` is the first height the client is missing (Last-Event-ID + 1 or ?fromHeight), or
   * null for a live-only stream. A `from` past the head, by at most maxResumeBlocks, is a client
   * that failed over from a node further ahead: it gets blocks from `from` on as they arrive, none
   * twice. One further past cannot be this chain's and resumes at the head.
   */
  constructor(hub: StreamHub, resume: ResumePoint | null, socket?: Destroyable, res?: ServerResponse) {
    super(hub, socket, res);
    const { chain } = hub.ports;
    this.detach = hub.subscribe({
      event: (e) => this.onEvent(e),
      ping: (t) => this.heartbeat(hub.memo(t, 'sse', () => sseFrame('ping', { ts: t.ts }))),
      end: () => this.end(),
    });
    // Read after subscribing: every height above this one will arrive on the live feed.
    const head = chain.head();
    const from = resume?.from ?? null;
    const believable = from !== null && from - 1 - head.index <= hub.options.maxResumeBlocks;
    this.lastSent = from === null ? head.index : believable ? from - 1 : head.index;
    // hello's id is the cursor the client holds: a reconnect before any block resumes from it.
    const held = believable ? resume?.hash : head.hash;
    this.send(
      sseFrame('hello', { height: head.index, latestBlockHash: head.hash }, this.lastSent >= 0 ? cursorId(this.lastSent, held) : undefined),
    );
    // A named block the log holds (at or below the head) is checked before anything is replayed.
    const check = believable && resume?.hash !== undefined && this.lastSent <= head.index && this.lastSent >= 0 ? resume.hash : null;
    if (check !== null) void this.catchUp(check);
    else if (this.lastSent < head.index) void this.catchUp();
  }

  private onEvent(e: ChainEvent): void {
    if (this.catchingUp) {
      this.pending.push(e);
      if (this.pending.length > this.hub.options.maxBufferedMessages) this.slowConsumer();
      return;
    }
    this.deliver(e);
  }

  private deliver(e: ChainEvent): void {
    if (e.type === 'block') {
      if (e.replay || e.block.index <= this.lastSent) return;
      // A hole can only mean events were lost upstream: fill it from the log rather than skip.
      if (e.block.index > this.lastSent + 1) {
        this.startCatchUp();
        return;
      }
      this.lastSent = e.block.index;
      this.send(this.hub.memo(e, 'sse', () => blockFrame(e.block)));
    } else if (e.type === 'tx') {
      this.send(this.hub.memo(e, 'sse', () => sseFrame('tx', txData(e.tx))));
    } else if (e.type === 'reorg') {
      this.onReorg(e);
    }
  }

  /** Announces the switch, then re-sends the new branch from the common ancestor on. */
  private onReorg(e: ReorgEvent): void {
    if (!this.send(this.hub.memo(e, 'sse', () => reorgFrame(e)))) return;
    this.lastSent = Math.min(this.lastSent, e.fromHeight - 1);
    this.startCatchUp();
  }

  private startCatchUp(): void {
    if (this.catchingUp) return;
    void this.catchUp();
  }

  /**
   * Replays blocks after `lastSent` up to the head from the log, paced by the consumer, then goes
   * live. `held`: the hash of the client's block at `lastSent`, checked against the log first.
   */
  private async catchUp(held: string | null = null): Promise<void> {
    this.catchingUp = true;
    const { chain, blocks, log } = this.hub.ports;
    try {
      if (held !== null) await this.replaced(held);
      while (!this.closed && this.lastSent < chain.head().index) {
        const target = chain.head().index;
        for await (const block of blocks.range(this.lastSent + 1, target)) {
          if (this.closed) return;
          if (block.index !== this.lastSent + 1) continue;
          await this.outbox.room();
          if (this.closed) return;
          this.lastSent = block.index;
          this.send(blockFrame(block));
        }
      }
    } catch (err) {
      // The node closed its database under us: end the stream, the client reconnects.
      if (!this.closed) log.warn('event stream replay failed', { error: (err as Error).message });
      this.end();
      return;
    } finally {
      this.catchingUp = false;
    }
    // Go live: drain what arrived meanwhile (heights already sent are skipped in deliver).
    while (!this.catchingUp && !this.closed) {
      const e = this.pending.shift();
      if (!e) break;
      this.deliver(e);
    }
    if (this.catchingUp) return;
    this.pending = [];
  }

  /**
   * The client holds the block `held` at `lastSent`: when the log has another block there, it is
   * sent a `reorg` naming its blocks the chain dropped, and `lastSent` moves below them.
   */
  private async replaced(held: string): Promise<void> {
    const e = await replacedAt(this.hub.ports, this.lastSent, held);
    if (e === null || this.closed || !this.send(reorgFrame(e))) return;
    this.lastSent = e.fromHeight - 1;
  }
}

/**
 * The reorg a client holding the block `held` at `height` missed, or null when the log holds that
 * block (or none at that height): its dropped blocks from the node's journal of switches, or only
 * `held` when no recorded switch dropped it (a block of another node's branch).
 */
export async function replacedAt(ports: StreamPorts, height: number, held: string): Promise<ReorgEvent | null> {
  const { blocks, reorgs, chain } = ports;
  const ours = await firstOf(blocks.range(height, height));
  if (ours === undefined || ours.hash === held) return null;
  const known = reorgs.replaced(height, held);
  const fromHeight = known?.fromHeight ?? height;
  const ancestor = fromHeight > 0 ? await firstOf(blocks.range(fromHeight - 1, fromHeight - 1)) : undefined;
  const head = chain.head();
  return {
    type: 'reorg',
    fromHeight,
    oldHead: { index: height, hash: held },
    newHead: { index: head.index, hash: head.hash },
    dropped: known?.dropped ?? [held],
    ancestorHash: ancestor?.hash,
  };
}

/** The first item of an async iterable (a one-block range of the log). */
async function firstOf<T>(items: AsyncIterable<T>): Promise<T | undefined> {
  for await (const item of items) return item;
  return undefined;
}
