/**
 * Proof-of-authority production: time is cut into slots of blockTimeMs; in each slot it owns,
 * the node builds and appends one block, but only with at least one peer unless exempt (--dev),
 * and never while its peers are, or may be, ahead of it (a reconnected authority syncs first).
 */
import { slotOf, slotOwner } from '../../core/block.ts';
import { ChainError, errorMessage } from '../../core/errors.ts';
import type { KeyPair } from '../../core/keys.ts';
import type { Component, ProducerPorts } from '../ports.ts';

/** Producer settings. */
export interface ProducerOptions {
  key: KeyPair;
  /** Produce even with no connected peer (a --dev node). */
  exemptFromPeers: boolean;
  /** Connected peers right now. */
  peerCount: () => number;
  /**
   * True while peers are, or may be, ahead (p2p/sync.ts `behind`): the slot is skipped rather
   * than spent on a block that loses to their chain and holds up the sync that fetches it.
   */
  behind?: () => boolean;
}

/** Drives block production on a timer aligned to slot boundaries. */
export class Producer implements Component {
  private readonly node: ProducerPorts;
  private readonly opts: ProducerOptions;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private lastSlot = -1;
  private inFlight: Promise<unknown> = Promise.resolve();

  constructor(node: ProducerPorts, opts: ProducerOptions) {
    this.node = node;
    this.opts = opts;
  }

  /** True when this node's key is one of the genesis authorities. */
  isAuthority(): boolean {
    return this.node.genesis.authorities.includes(this.opts.key.address);
  }

  /** Starts producing in this node's slots. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  private schedule(): void {
    if (!this.running) return;
    const bt = this.node.genesis.blockTimeMs;
    const now = this.node.clock();
    // Wake a moment into the next slot so its timestamp is unambiguously inside it.
    const delay = bt - (now % bt) + 5;
    this.timer = setTimeout(() => {
      this.inFlight = this.tick().finally(() => this.schedule());
    }, delay);
  }

  /** Produces a block if the current slot is ours and unused; returns whether it did. */
  async tick(): Promise<boolean> {
    const g = this.node.genesis;
    const now = this.node.clock();
    const slot = slotOf(now, g.blockTimeMs);
    if (slot <= this.lastSlot || slotOwner(g, slot) !== this.opts.key.address) return false;
    if (slot <= slotOf(this.node.head().timestamp, g.blockTimeMs)) return false;
    if (!this.opts.exemptFromPeers && this.opts.peerCount() < 1) return false;
    if (this.opts.behind?.()) {
      this.node.log.debug('slot skipped: catching up with peers first', { slot, head: this.node.head().index });
      return false;
    }
    this.lastSlot = slot;
    try {
      const block = await this.node.produce(this.opts.key, now);
      this.node.log.debug('produced block', { index: block.index, txs: block.transactions.length });
      return true;
    } catch (e) {
      // A full data dir was reported once, when writes stopped (node/store/storageFence.ts); not again each slot.
      if (e instanceof ChainError && e.code === 'DISK_FULL') this.node.log.debug('slot skipped: writes stopped', { slot });
      else this.node.log.error('block production failed', { slot, error: errorMessage(e) });
      return false;
    }
  }

  /** Stops the timer and waits for a block in progress. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
  }
}
