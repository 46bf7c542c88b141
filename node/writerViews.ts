/**
 * What the node (node/node.ts) shows of its one writer (node/writer/writer.ts): the store, the
 * read models, the mempool and the other parts it hands to the rest, read-only.
 */
import type { Subject } from 'rxjs';
import type { Genesis } from '../core/genesis.ts';
import type { ChainEvent, ChainInfo } from '../projections/events.ts';
import type { ProjectionRunner } from '../projections/runner.ts';
import type { HealthMonitor } from './healthMonitor.ts';
import type { Logger } from './log.ts';
import type { Mempool } from './mempool/mempool.ts';
import type { ChainStore } from './store/chainStore.ts';
import type { EvidenceStore } from './writer/evidence.ts';
import type { Writer } from './writer/writer.ts';

/** The writer's parts, as the node's getters. */
export abstract class WriterViews {
  protected readonly w: Writer;

  protected constructor(w: Writer) {
    this.w = w;
  }

  /** The block log. */
  get store(): ChainStore {
    return this.w.store;
  }

  /** The read models (projections and reactors). */
  get runner(): ProjectionRunner {
    return this.w.runner;
  }

  /** Pending transactions. */
  get mempool(): Mempool {
    return this.w.mempool;
  }

  /** Outcomes of block production and import, for health. */
  get healthMonitor(): HealthMonitor {
    return this.w.healthMonitor;
  }

  /** Equivocations seen (node-local): the second block of a slot is never built upon. */
  get evidence(): EvidenceStore {
    return this.w.evidence;
  }

  get genesis(): Genesis {
    return this.w.genesis;
  }

  get info(): ChainInfo {
    return this.w.info;
  }

  /** The one event feed: committed blocks, reorganisations, admitted transactions. */
  get events$(): Subject<ChainEvent> {
    return this.w.events$;
  }

  get log(): Logger {
    return this.w.log;
  }

  get clock(): () => number {
    return this.w.clock;
  }

  /** Blocks the last catch-up re-folded (0 after a clean restart: saved positions were current). */
  get lastCatchUp(): { from: number; to: number; blocks: number } {
    return this.w.lastCatchUp;
  }
}
