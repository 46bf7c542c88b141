/**
 * The block log's reads (node/store/chainStore.ts writes it): one block, a range parsed or as
 * its stored JSON, by height up to the head.
 */
import type { Block } from '../../core/block.ts';
import { heightKey } from '../../core/encoding.ts';
import { present } from '../../core/errors.ts';
import type { Rows } from '../../projections/store.ts';

/** The head of the log. */
export interface Head {
  index: number;
  hash: string;
}

/** Reads of the block log, over the `blocks` rows and the head its store keeps. */
export abstract class BlockReads {
  /** Blocks by height key (core/encoding.ts heightKey). */
  abstract readonly blocks: Rows;
  /** The head the store last wrote (null before genesis). */
  protected headCache: Head | null = null;

  /** The head, or null before genesis is written. */
  head(): Head | null {
    return this.headCache;
  }

  /** One block by height. */
  async block(index: number): Promise<Block | undefined> {
    if (!Number.isSafeInteger(index) || index < 0 || !this.headCache || index > this.headCache.index) return undefined;
    return (await this.blocks.get(heightKey(index))) as Block | undefined;
  }

  /** The block at `index`, which the caller knows is in the log (the head, a stored ancestor). */
  async storedBlock(index: number): Promise<Block> {
    return present(await this.block(index), `block ${index} of the log`);
  }

  /**
   * Blocks `from..to` inclusive as their stored JSON text, unparsed (sync serves them as they are:
   * no parse and re-serialisation a block).
   */
  async blocksJsonIn(from: number, to: number): Promise<string[]> {
    // One read of the whole range: no promise a value.
    return (await this.blocks.values({ gte: heightKey(from), lte: heightKey(to), valueEncoding: 'utf8' }).all()) as string[];
  }

  /** Blocks `from..to` inclusive as their stored JSON's UTF-8 bytes, streamed in order from one snapshot. */
  async *rangeJsonBytes(from: number, to: number): AsyncGenerator<Uint8Array> {
    for await (const value of this.blocks.values({ gte: heightKey(from), lte: heightKey(to), valueEncoding: 'view' }))
      yield value as Uint8Array;
  }

  /** Blocks `from..to` inclusive, in order. */
  async *range(from: number, to: number): AsyncGenerator<Block> {
    for await (const value of this.blocks.values({ gte: heightKey(from), lte: heightKey(to) })) yield value as Block;
  }

  /** Several blocks by height (missing ones skipped). */
  async blocksIn(from: number, to: number): Promise<Block[]> {
    const out: Block[] = [];
    for await (const b of this.range(from, to)) out.push(b);
    return out;
  }
}
