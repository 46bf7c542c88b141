/**
 * A reactor: a node-local consumer of committed blocks that the projection runner drives like a
 * projection (its rows and saved position in one batch, catch-up from the block log, the undo log on
 * reorganisations) but that is not a read model: its output depends on node-local data (alert
 * subscriptions), so `replay` does not rebuild it and a new one starts at the head, not at genesis.
 */
import type { Block } from '../core/block.ts';
import type { ChainInfo } from './events.ts';
import type { Step } from './projection.ts';

/** A node-local block consumer run by the projection runner. */
export interface Reactor<S = unknown> {
  readonly name: string;
  /** Bump to make the reactor drop its rows and start again at the head. */
  readonly version: number;
  init(info: ChainInfo): S;
  /** Loads the state from the reactor's rows (at start and after a reorganisation stepped them back). */
  restore(rows: AsyncIterable<[string, unknown]>, info: ChainInfo): Promise<S>;
  /** One committed block: the next state and the rows to write with its saved position. */
  react(state: S, block: Block): Step<S>;
  /** Called once the rows of the blocks folded so far are durable. */
  written?(state: S): void;
}
