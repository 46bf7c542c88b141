/**
 * GET /api/chain/events for one client: `hello`, then every missed block from the log (when
 * resuming), then the live feed, with no gap and no duplicate.
 *
 * The race between reading the log and going live is closed by order: subscribe first and
 * buffer, read the head, replay the log up to it, then drain the buffer skipping heights
 * already sent. A block appended after the subscription is always on the live feed (the node
 * moves its head and emits in the same tick), so log + buffer cover every height exactly once.
 */
import type { ServerResponse } from 'node:http';
import type { ChainEvent, ReorgEvent } from '../../projections/events.ts';
import { blockFrame, reorgFrame, sseFrame, txData } from './sseFrames.ts';
import type { StreamHub } from './streamHub.ts';
import { SseStream, type Destroyable } from './sseStream.ts';

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
  constructor(hub: StreamHub, from: number | null, socket?: Destroyable, res?: ServerResponse) {
    super(hub, socket, res);
    const { chain } = hub.ports;
    this.detach = hub.subscribe({
      event: (e) => this.onEvent(e),
      ping: (t) => this.heartbeat(hub.memo(t, 'sse', () => sseFrame('ping', { ts: t.ts }))),
      end: () => this.end(),
    });
    // Read after subscribing: every height above this one will arrive on the live feed.
    const head = chain.head();
    const believable = from !== null && from - 1 - head.index <= hub.options.maxResumeBlocks;
    this.lastSent = from === null ? head.index : believable ? from - 1 : head.index;
    // hello's id is the height the client holds: a reconnect before any block resumes from it.
    this.send(sseFrame('hello', { height: head.index, latestBlockHash: head.hash }, this.lastSent >= 0 ? this.lastSent : undefined));
    if (this.lastSent < head.index) void this.catchUp();
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

  /** Replays blocks after `lastSent` up to the head from the log, paced by the consumer, then goes live. */
  private async catchUp(): Promise<void> {
    this.catchingUp = true;
    const { chain, blocks, log } = this.hub.ports;
    try {
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
}
