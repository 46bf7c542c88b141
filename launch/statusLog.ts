/**
 * What a running node says at info level, like geth's: a line per batch of produced or imported
 * blocks (at most one a second per source, so a fast catch-up is a few lines, not one per block),
 * peers joining and leaving, sync start and end, and a status line every 30 s. It only reacts to
 * the node's typed event feed and its ports; nothing inside the node logs for it.
 */
import type { Subscription } from 'rxjs';
import type { Logger } from '../node/log.ts';
import type { ChainEvent } from '../projections/events.ts';

/** How often it speaks. */
export interface StatusLogOptions {
  /** Between status lines (0: none). */
  statusIntervalMs: number;
  /** Least time between two block lines of one source. */
  blockLineMs: number;
  clock: () => number;
}

/** Defaults: a status line every 30 s, block lines at most once a second per source. */
export const defaultStatusLogOptions: StatusLogOptions = { statusIntervalMs: 30_000, blockLineMs: 1000, clock: Date.now };

/** What it watches: the event feed, the head, the mempool and the peer count. */
export interface StatusPorts {
  feed: { events$: { subscribe(fn: (e: ChainEvent) => void): Subscription } };
  chain: { head(): { index: number } };
  mempool: { size: number };
  network: { peerCount(): number };
}

/** Blocks of one source since its last line. */
interface Batch {
  blocks: number;
  txs: number;
  height: number;
  since: number;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The reactor: `start` subscribes and starts the status timer, `stop` ends both. */
export class StatusLog {
  private readonly ports: StatusPorts;
  private readonly log: Logger;
  private readonly opts: StatusLogOptions;
  private sub: Subscription | null = null;
  private status: NodeJS.Timeout | null = null;
  private readonly batches = new Map<'local' | 'peer', { open: Batch | null; lastLine: number; timer: NodeJS.Timeout | null }>();
  /** Blocks and transactions since the last status line. */
  private window = { blocks: 0, txs: 0, since: 0 };
  private syncFrom: number | null = null;

  constructor(ports: StatusPorts, log: Logger, opts: Partial<StatusLogOptions> = {}) {
    this.ports = ports;
    this.log = log;
    this.opts = { ...defaultStatusLogOptions, ...opts };
  }

  /** Lifecycle: follows the feed and starts the status timer. */
  async start(): Promise<void> {
    this.window.since = this.opts.clock();
    this.sub = this.ports.feed.events$.subscribe((e) => {
      if (e.type === 'block' && !e.replay && (e.source === 'local' || e.source === 'peer'))
        this.onBlock(e.source, e.block.index, e.block.transactions.length);
    });
    if (this.opts.statusIntervalMs > 0) {
      this.status = setInterval(() => this.statusLine(), this.opts.statusIntervalMs);
      this.status.unref();
    }
  }

  /** Lifecycle: flushes open batches and stops. */
  async stop(): Promise<void> {
    this.sub?.unsubscribe();
    this.sub = null;
    if (this.status) clearInterval(this.status);
    for (const source of this.batches.keys()) this.flush(source);
  }

  /** A peer connected or left. */
  peerChanged(change: { peer: string; event: 'connect' | 'disconnect'; reason?: string }): void {
    const peers = this.ports.network.peerCount();
    if (change.event === 'connect') this.log.info('peer connected', { peer: change.peer, peers });
    else this.log.info('peer disconnected', { peer: change.peer, reason: change.reason ?? 'connection closed', peers });
  }

  /** Sync progress (height imported, target): logs its start and its end. */
  syncProgress(height: number, target: number): void {
    if (this.syncFrom === null && height < target) {
      this.syncFrom = height;
      this.log.info('sync started', { height, target, behind: target - height });
    } else if (this.syncFrom !== null && height >= target) {
      this.log.info('sync finished', { height, blocks: height - this.syncFrom });
      this.syncFrom = null;
    }
  }

  private onBlock(source: 'local' | 'peer', height: number, txs: number): void {
    const now = this.opts.clock();
    this.window.blocks++;
    this.window.txs += txs;
    let b = this.batches.get(source);
    if (!b) {
      b = { open: null, lastLine: Number.NEGATIVE_INFINITY, timer: null };
      this.batches.set(source, b);
    }
    b.open ??= { blocks: 0, txs: 0, height, since: Number.isFinite(b.lastLine) ? b.lastLine : now };
    b.open.blocks++;
    b.open.txs += txs;
    b.open.height = height;
    const due = b.lastLine + this.opts.blockLineMs;
    if (now >= due) this.flush(source);
    else if (!b.timer) {
      b.timer = setTimeout(() => this.flush(source), due - now);
      b.timer.unref();
    }
  }

  /** Writes the open batch of `source` as one line. */
  private flush(source: 'local' | 'peer'): void {
    const b = this.batches.get(source);
    if (!b) return;
    if (b.timer) clearTimeout(b.timer);
    b.timer = null;
    const batch = b.open;
    if (!batch) return;
    const now = this.opts.clock();
    const seconds = Math.max((now - batch.since) / 1000, 0.001);
    const fields = { height: batch.height, blocks: batch.blocks, txs: batch.txs };
    const msg = source === 'local' ? 'produced' : 'imported';
    if (batch.blocks === 1) this.log.info(`${msg} block`, fields);
    else
      this.log.info(`${msg} blocks`, {
        ...fields,
        blocksPerSecond: round(batch.blocks / seconds),
        txPerSecond: round(batch.txs / seconds),
      });
    b.open = null;
    b.lastLine = now;
  }

  /** The periodic status line. */
  private statusLine(): void {
    const now = this.opts.clock();
    const seconds = Math.max((now - this.window.since) / 1000, 0.001);
    this.log.info('status', {
      height: this.ports.chain.head().index,
      peers: this.ports.network.peerCount(),
      mempool: this.ports.mempool.size,
      blocksPerSecond: round(this.window.blocks / seconds),
      txPerSecond: round(this.window.txs / seconds),
      ...(this.syncFrom !== null ? { syncing: true } : {}),
    });
    this.window = { blocks: 0, txs: 0, since: now };
  }
}
