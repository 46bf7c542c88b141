/**
 * The block log read for a rebuild from genesis under assume-valid (`ombra replay`): every
 * block's stored JSON is folded into the running digest (node/verification/verifiedLog.ts) and parsed; blocks
 * at or below the height through which this node verified every signature itself are marked
 * `assumed` (the pipeline skips their signatures; everything else is checked as always), and the
 * digest is compared with the stored one at every kept height up to that mark, before any block
 * past it is handed on. A mismatch is located: the first block in the stretch that is no valid
 * link (hash, previous hash, txRoot, transaction hashes) or whose signature fails is named, else
 * the stretch itself.
 */
import type { Block } from '../../core/block.ts';
import { heightKey } from '../../core/encoding.ts';
import { ChainError } from '../../core/errors.ts';
import { verifySignature } from '../../core/signature.ts';
import type { PipelineItem } from './blockPipeline.ts';
import type { ChainStore } from '../store/chainStore.ts';
import { linkFault } from '../store/logIntegrity.ts';
import { DIGEST_EVERY, nextDigest, VERIFIED_SEED, type VerifiedMark } from './verifiedLog.ts';

/** Blocks read from the log at once (the rebuild holds at most this many unparsed). */
const READ_CHUNK = 256;

/** Blocks 1..head of `store` as pipeline items, signatures assumed valid through `through` (0: none). */
export class DigestedLog {
  private readonly store: ChainStore;
  private readonly head: number;
  /** Signatures at or below this height are not checked (the store's mark, unless --verify-all). */
  readonly through: number;
  private digest = VERIFIED_SEED;
  private height = 0;
  /** The digests at every multiple of DIGEST_EVERY, as computed on the way. */
  readonly kept = new Map<number, string>();

  /** Items carry their stored bytes (the workers check them: node/verification/blockCheckJob.ts). */
  private readonly withBytes: boolean;

  constructor(store: ChainStore, head: number, opts: { assumeValid: boolean; withBytes?: boolean }) {
    this.store = store;
    this.head = head;
    this.through = opts.assumeValid ? Math.min(store.verified.mark.height, head) : 0;
    this.withBytes = opts.withBytes === true;
  }

  /** The mark the whole log reaches once every block was read and checked. */
  mark(): VerifiedMark {
    return { height: this.height, digest: this.digest };
  }

  /**
   * The items in order, a stored chunk at a time; throws (naming the height) where the log differs
   * from what was verified, before any block of the chunk that holds the difference is handed on.
   */
  async *items(): AsyncGenerator<PipelineItem<undefined>[]> {
    const mark = this.store.verified.mark;
    let checkedTo = 0;
    // As bytes when the workers take them, else as text: the native read makes the string, no
    // buffer a block made and decoded here.
    for await (const chunk of storedChunks(this.store, 1, this.head, this.withBytes ? 'view' : 'utf8')) {
      const items: PipelineItem<undefined>[] = new Array(chunk.length);
      for (let i = 0; i < chunk.length; i++) {
        const bytes = chunk[i];
        const h = ++this.height;
        // The stored bytes themselves: the same the digest took when the blocks were appended.
        this.digest = nextDigest(this.digest, bytes);
        if (h % DIGEST_EVERY === 0) this.kept.set(h, this.digest);
        if (h <= this.through && (h % DIGEST_EVERY === 0 || h === this.through)) {
          const stored = h === mark.height ? mark.digest : await this.store.verified.keptAt(h);
          // A kept digest missing (never written) is no fault: the one at the mark covers it.
          if (stored !== undefined && stored !== this.digest) await this.locate(checkedTo, h);
          if (stored !== undefined) checkedTo = h;
        }
        const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
        // With its bytes: the workers parse them too and check the transactions (blockCheckJob.ts).
        items[i] = {
          block: JSON.parse(text) as unknown,
          meta: undefined,
          assumed: h <= this.through,
          bytes: typeof bytes === 'string' ? undefined : bytes,
        };
      }
      yield items;
    }
  }

  /** Throws for the first block in `lo+1..hi` that is no valid link or whose signatures fail, or for the stretch. */
  private async locate(lo: number, hi: number): Promise<never> {
    const differs = `the stored log differs from what this node verified through height ${this.through}`;
    let parentHash = (await this.store.block(lo))?.hash ?? null;
    for (let h = lo + 1; h <= hi; h++) {
      const b = await this.store.block(h);
      const fault = linkFault(b, h, parentHash);
      if (fault) throw new ChainError('INVALID_BLOCK', `${fault} (${differs})`);
      const bad = badSignature(b as Block);
      if (bad) throw new ChainError('INVALID_BLOCK', `block ${h}: ${bad} signature invalid (${differs})`);
      parentHash = (b as Block).hash;
    }
    throw new ChainError(
      'INVALID_BLOCK',
      `blocks ${lo + 1}..${hi}: the stored bytes differ from the ones this node verified (digest at height ${hi}); \`ombra replay --verify-all\` checks every signature again`,
    );
  }
}

/**
 * Blocks `from..to`'s stored bytes, a chunk at a time from one snapshot: one native read a chunk
 * instead of an iterator step a block. The next chunk is read while this one is handed on: the
 * rebuild otherwise waited for a whole read every few batches (a third of a near-empty rebuild's
 * time on this thread was spent waiting).
 */
async function* storedChunks(store: ChainStore, from: number, to: number, as: 'view' | 'utf8'): AsyncGenerator<(Uint8Array | string)[]> {
  const it = store.blocks.values({ gte: heightKey(from), lte: heightKey(to), valueEncoding: as });
  let reading: Promise<unknown[]> | null = it.nextv(READ_CHUNK);
  try {
    for (;;) {
      const chunk = (await reading) as (Uint8Array | string)[];
      reading = null;
      if (chunk.length === 0) return;
      // One read at a time on an iterator: the next starts once this one has answered.
      reading = it.nextv(READ_CHUNK);
      yield chunk;
    }
  } finally {
    // A read still out when the consumer stops (a fault found, a rebuild abandoned) ends first.
    await reading?.catch(() => undefined);
    await it.close();
  }
}

/** Which signature of a stored block fails (`transaction <hash>`, `attestation`), or null. */
function badSignature(b: Block): string | null {
  // A tampered log may hold anything where a field should be: each is read as text.
  for (const t of b.transactions ?? []) {
    if (!verifySignature(String(t.publicKey), String(t.hash), String(t.signature))) return `transaction ${String(t.hash)}`;
  }
  const a = b.attestations?.[0];
  return a && verifySignature(String(a.publicKey), String(b.hash), String(a.signature)) ? null : 'attestation';
}
