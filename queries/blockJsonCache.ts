/**
 * Recently read blocks kept as their JSON, by height and by hash: explorers hammer the latest
 * blocks, and a cached one is answered without a LevelDB read, a serialisation or a promise.
 * A stored block at a height only changes in a reorganisation, which bumps the chain's epoch;
 * the cache empties when it sees a new epoch, and a block read while the epoch moved is not kept.
 */
import type { Block } from '../core/block.ts';

/** Blocks the cache keeps (oldest read first out). */
const BLOCK_JSON_CACHE = 256;

/** Where the cache reads blocks and the epoch. */
export interface BlockJsonSource {
  block(index: number): Promise<Block | undefined>;
  /** Counts reorganisations. */
  epoch(): number;
}

/** The cache of one node's block JSON. */
export class BlockJsonCache {
  private readonly src: BlockJsonSource;
  private readonly cap: number;
  private readonly byHeight = new Map<number, { hash: string; json: string }>();
  private readonly byHash = new Map<string, number>();
  private epoch = 0;

  constructor(src: BlockJsonSource, cap = BLOCK_JSON_CACHE) {
    this.src = src;
    this.cap = cap;
  }

  /** A block's JSON by height, when cached. */
  cached(index: number): string | undefined {
    this.sync();
    return this.byHeight.get(index)?.json;
  }

  /** A block's JSON by hash, when cached. */
  cachedByHash(hash: string): string | undefined {
    this.sync();
    const index = this.byHash.get(hash);
    return index === undefined ? undefined : this.byHeight.get(index)?.json;
  }

  /** A block's JSON by height: from the cache, else read and kept. */
  async get(index: number): Promise<string | undefined> {
    const hit = this.cached(index);
    if (hit !== undefined) return hit;
    const epoch = this.src.epoch();
    const b = await this.src.block(index);
    if (!b) return undefined;
    const json = JSON.stringify(b);
    // A reorganisation during the read may have replaced the block: answer it, keep nothing.
    if (this.src.epoch() === epoch && this.epoch === epoch) this.keep(index, b.hash, json);
    return json;
  }

  private keep(index: number, hash: string, json: string): void {
    if (this.cap === 0 || this.byHeight.has(index)) return;
    if (this.byHeight.size >= this.cap) {
      const first = this.byHeight.entries().next();
      if (!first.done) {
        const [oldest, entry] = first.value;
        this.byHeight.delete(oldest);
        this.byHash.delete(entry.hash);
      }
    }
    this.byHeight.set(index, { hash, json });
    this.byHash.set(hash, index);
  }

  /** Empties the cache when the chain has reorganised since it last looked. */
  private sync(): void {
    const epoch = this.src.epoch();
    if (epoch === this.epoch) return;
    this.byHeight.clear();
    this.byHash.clear();
    this.epoch = epoch;
  }
}
