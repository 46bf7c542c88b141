/**
 * The `blocks` channel of /api/ws resumed from a client's last block:
 * `{action: "subscribe", channel: "blocks", since: "<height>:<hash>"}` (a bare height is taken
 * too). As GET /api/chain/events does with Last-Event-ID (api/streams/chainEventStream.ts): when
 * the log holds another block at that height the client first gets a `reorg` naming its dropped
 * blocks (node/writer/reorgJournal.ts), then every block it missed from the log, then the live
 * feed, with no gap and no repeat. Live events that arrive meanwhile wait in a bounded buffer.
 */
import { ChainError, errorMessage } from '../../core/errors.ts';
import type { ChainEvent } from '../../projections/events.ts';
import { replacedAt } from './chainEventStream.ts';
import type { StreamHub } from './streamHub.ts';
import { reorgMessage } from './wsMessages.ts';

/** What the resume needs of its WebSocket session. */
export interface ResumeSession {
  /** Queues a message; false once the session is gone. */
  send(frame: string): boolean;
  /** Resolves when the session's buffer can take more (a replay is paced by the client). */
  room(): Promise<void>;
  /** Drops a client that cannot keep up. */
  slowConsumer(): void;
}

/** A resume cursor: `<height>` or `<height>:<hash>` (the SSE stream's event ids). */
const CURSOR = /^([0-9]{1,15})(?::([0-9a-f]{64}))?$/;

/** What the cursor parses to: the client's last height and, when named, its hash. */
function parseSince(since: string): { height: number; hash?: string } {
  const m = CURSOR.exec(since.trim());
  if (!m) throw new ChainError('INVALID_PARAMS', 'since must be "<height>" or "<height>:<block hash>" (a block event\'s id)');
  return m[2] === undefined ? { height: Number(m[1]) } : { height: Number(m[1]), hash: m[2] };
}

/** One session's resumed `blocks` channel: what it sent last, and what waits while the log is replayed. */
export class BlockResume {
  private readonly hub: StreamHub;
  private readonly session: ResumeSession;
  private lastSent: number;
  private held: string | undefined;
  private catchingUp = false;
  private pending: ChainEvent[] = [];
  closed = false;

  /** Throws INVALID_PARAMS for a cursor further back than maxResumeBlocks. */
  constructor(hub: StreamHub, since: string, session: ResumeSession) {
    this.hub = hub;
    this.session = session;
    const { height, hash } = parseSince(since);
    const head = hub.ports.chain.head().index;
    const max = hub.options.maxResumeBlocks;
    if (head - height > max) throw new ChainError('INVALID_PARAMS', `since ${height} is more than ${max} blocks behind the head (${head})`);
    // A cursor past the head (a client failing over from a node further ahead) waits for the blocks after it.
    this.lastSent = height;
    this.held = height <= head ? hash : undefined;
  }

  /** Starts the replay (after the subscription was acknowledged). */
  start(): void {
    void this.catchUp();
  }

  /** A live event for the channel: buffered while replaying, else sent unless already sent. */
  onEvent(e: ChainEvent): void {
    if (this.closed) return;
    if (this.catchingUp) {
      this.pending.push(e);
      if (this.pending.length > this.hub.options.maxBufferedMessages) this.session.slowConsumer();
      return;
    }
    this.deliver(e);
  }

  private deliver(e: ChainEvent): void {
    if (e.type === 'reorg') {
      this.session.send(JSON.stringify(reorgMessage(e)));
      // The new branch's blocks follow on the feed from fromHeight.
      this.lastSent = Math.min(this.lastSent, e.fromHeight - 1);
      return;
    }
    if (e.type !== 'block' || e.replay || e.block.index <= this.lastSent) return;
    // A hole can only mean events were lost upstream: fill it from the log rather than skip.
    if (e.block.index > this.lastSent + 1) {
      if (!this.catchingUp) void this.catchUp();
      return;
    }
    this.lastSent = e.block.index;
    this.session.send(this.hub.memo(e, 'api:blocks', () => [JSON.stringify({ type: 'block', data: e.block })])[0]);
  }

  private async catchUp(): Promise<void> {
    this.catchingUp = true;
    const { chain, blocks, log } = this.hub.ports;
    try {
      if (this.held !== undefined) await this.replaced(this.held);
      this.held = undefined;
      while (!this.closed && this.lastSent < chain.head().index) {
        for await (const block of blocks.range(this.lastSent + 1, chain.head().index)) {
          if (this.closed) return;
          if (block.index !== this.lastSent + 1) continue;
          await this.session.room();
          if (this.closed || !this.session.send(JSON.stringify({ type: 'block', data: block }))) return;
          this.lastSent = block.index;
        }
      }
    } catch (err) {
      if (!this.closed) log.warn('websocket resume failed', { error: errorMessage(err) });
      this.closed = true;
      return;
    } finally {
      this.catchingUp = false;
    }
    while (!this.catchingUp && !this.closed) {
      const e = this.pending.shift();
      if (!e) break;
      this.deliver(e);
    }
    if (!this.catchingUp) this.pending = [];
  }

  /** The client's block `held` at lastSent is not the log's: a reorg naming what it lost, and the replay goes back below it. */
  private async replaced(held: string): Promise<void> {
    const e = await replacedAt(this.hub.ports, this.lastSent, held);
    if (e === null || !this.session.send(JSON.stringify(reorgMessage(e)))) return;
    this.lastSent = e.fromHeight - 1;
  }
}
