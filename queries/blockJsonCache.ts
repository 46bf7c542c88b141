/**
 * Recently read blocks kept as their JSON, by height and by hash: explorers hammer the latest
 * blocks, and a cached one is answered without a LevelDB read, a serialisation or a promise.
 * A stored block at a height only changes in a reorganisation, which bumps the chain's epoch;
 * the cache empties when it sees a new epoch, and a block read while the epoch moved is not kept.
 * It is bounded by count and by bytes: blocks of up to 3 MB of transactions would otherwise
 * make 256 of them most of a gigabyte of heap.
 */
import type { Block } from '../core/block.ts';

/** The cache's bounds (oldest read first out when either would be passed). */
export interface BlockJsonCacheOptions {
  /** Most blocks kept (0: none). */
  maxBlocks: number;
  /** Most bytes of JSON kept, as the heap holds it (a block larger than this is answered, not kept). */
  maxBytes: number;
}

/** 256 blocks, at most 32 MiB of JSON. */
const defaultBlockJsonCacheOptions: BlockJsonCacheOptions = { maxBlocks: 256, maxBytes: 32 * 1024 * 1024 };

/** The heap bytes of a string: V8 keeps Latin-1 text a byte a character, anything else two. */
function stringBytes(s: string): number {
  return /[\u0100-\uffff]/.test(s) ? s.length * 2 : s.length;
}

/** Where the cache reads blocks and the epoch. */
export interface BlockJsonSource {
  block(index: number): Promise<Block | undefined>;
  /** Counts reorganisations. */
  epoch(): number;
}

/** The cache of one node's block JSON. */
export class BlockJsonCache {
  private readonly src: BlockJsonSource;
  private readonly opts: BlockJsonCacheOptions;
  private readonly byHeight = new Map<number, { hash: string; json: string; bytes: number }>();
  private readonly byHash = new Map<string, number>();
  private epoch = 0;
  private bytes = 0;

  constructor(src: BlockJsonSource, options: Partial<BlockJsonCacheOptions> = {}) {
    this.src = src;
    this.opts = { ...defaultBlockJsonCacheOptions, ...options };
  }

  /** Blocks and bytes held (tests, metrics). */
  size(): { blocks: number; bytes: number } {
    return { blocks: this.byHeight.size, bytes: this.bytes };
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
    const { maxBlocks, maxBytes } = this.opts;
    if (maxBlocks === 0 || this.byHeight.has(index)) return;
    const bytes = stringBytes(json);
    if (bytes > maxBytes) return;
    while (this.byHeight.size > 0 && (this.byHeight.size >= maxBlocks || this.bytes + bytes > maxBytes)) {
      const first = this.byHeight.entries().next();
      if (first.done) break;
      const [oldest, entry] = first.value;
      this.byHeight.delete(oldest);
      this.byHash.delete(entry.hash);
      this.bytes -= entry.bytes;
    }
    this.byHeight.set(index, { hash, json, bytes });
    this.byHash.set(hash, index);
    this.bytes += bytes;
  }

  /** Empties the cache when the chain has reorganised since it last looked. */
  private sync(): void {
    const epoch = this.src.epoch();
    if (epoch === this.epoch) return;
    this.byHeight.clear();
    this.byHash.clear();
    this.bytes = 0;
    this.epoch = epoch;
  }
}
