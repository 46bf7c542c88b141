/**
 * The height through which this node verified every signature of its block log itself, with a
 * running digest of the stored bytes of blocks 1..that height. Signatures are covered by no hash
 * or root of the protocol: without the digest a signature changed in the stored log would pass a
 * rebuild that skips signature checks below that height (`ombra replay`, docs/replay.md). The
 * mark is written in the same LevelDB batch as the blocks it covers (node/store/chainStore.ts), and the
 * digest at every multiple of `DIGEST_EVERY` is kept too, so a replay checks the log a stretch at
 * a time and a cut of the log (a reorganisation, a repair) falls back to a digest it holds.
 */
import { createHash, hash } from 'node:crypto';
import { heightKey } from '../../core/encoding.ts';

/** The digest of no block (height 0: block 0 is checked against the genesis file instead). */
export const VERIFIED_SEED = createHash('sha256').update('ombra verified log v1').digest('hex');

/** Heights at which the running digest is stored for good (a replay checks each). */
export const DIGEST_EVERY = 1024;

/** Recent digests kept in memory, so a reorganisation below the mark keeps it exact. */
const RECENT = 4096;

/** Through which height every signature was verified here, and the digest of blocks 1..height. */
export interface VerifiedMark {
  height: number;
  digest: string;
}

/** The running digest after one more block's stored JSON (its text, or the text's UTF-8 bytes). */
export function nextDigest(digest: string, json: string | Uint8Array): string {
  // Text hashes as one string: the same bytes (UTF-8 of a concatenation is the concatenation of
  // the UTF-8s), without a hash object a block.
  if (typeof json === 'string') return hash('sha256', digest + json, 'hex');
  return createHash('sha256').update(digest).update(json).digest('hex');
}

/** A sublevel's store operations, as ChainStore.write takes them. */
type Op = { type: 'put' | 'del'; sublevel: unknown; key: string; value?: unknown };

/** A move of the mark: its ops, and the digest after each block it covers. */
export interface Extension {
  ops: Op[];
  steps: string[];
}

/** What `VerifiedLog` reads and writes: the meta sublevel and the sublevel of kept digests. */
interface Subs {
  meta: unknown;
  digests: { get(key: string): Promise<unknown> };
}

/** The mark, its pending moves, and the recent digests. */
export class VerifiedLog {
  /** The mark as last committed. */
  mark: VerifiedMark;
  /** Whether the data dir held a mark (a log written before the mark existed has none). */
  recorded: boolean;
  private readonly recent = new Map<number, string>();
  private readonly subs: Subs;

  constructor(subs: Subs, stored: VerifiedMark | undefined) {
    this.subs = subs;
    this.recorded = stored !== undefined;
    this.mark = stored ?? { height: 0, digest: VERIFIED_SEED };
  }

  /**
   * The mark after appending `texts` (blocks head+1.., their stored JSON) on `head`, with `checked`
   * telling which had every signature verified here: the mark moves only while it is the head and
   * the blocks were checked (a block taken on trust, or a log without a mark, leaves it behind for
   * a replay to verify). Returns the ops to write with the blocks, and the move to commit after.
   * `from`: the mark a cut in the same batch leaves (node/store/chainStore.ts, replaceSuffix).
   */
  extend(head: number, texts: readonly string[], checked: (i: number) => boolean, from: VerifiedMark = this.mark): Extension {
    let { height, digest } = from;
    const ops: Op[] = [];
    const steps: string[] = [];
    if (height !== head) return { ops, steps };
    for (let i = 0; i < texts.length && checked(i); i++) {
      digest = nextDigest(digest, texts[i]);
      steps.push(digest);
      height++;
      if (height % DIGEST_EVERY === 0) ops.push({ type: 'put', sublevel: this.subs.digests, key: heightKey(height), value: digest });
    }
    if (steps.length) ops.push({ type: 'put', sublevel: this.subs.meta, key: 'verified', value: { height, digest } });
    return { ops, steps };
  }

  /** Commits a move written with `extend`'s ops. */
  commit(move: Extension): void {
    if (move.steps.length === 0) return;
    let height = this.mark.height;
    for (const digest of move.steps) this.remember(++height, digest);
    this.mark = { height, digest: move.steps[move.steps.length - 1] };
  }

  private remember(height: number, digest: string): void {
    this.recent.set(height, digest);
    this.recent.delete(height - RECENT);
  }

  /**
   * The mark after the log is cut back to `height` (blocks above it replaced or dropped): the
   * exact digest when it is recent, else the last kept digest at or below it (a replay verifies
   * the rest). Returns the ops to write with the cut.
   */
  async cutTo(height: number): Promise<{ ops: Op[]; next: VerifiedMark }> {
    const old = this.mark;
    if (old.height <= height) return { ops: [], next: old };
    let next: VerifiedMark;
    const recent = this.recent.get(height);
    if (recent !== undefined) next = { height, digest: recent };
    else {
      const kept = height - (height % DIGEST_EVERY);
      const digest = kept === 0 ? VERIFIED_SEED : ((await this.subs.digests.get(heightKey(kept))) as string | undefined);
      next = digest === undefined ? { height: 0, digest: VERIFIED_SEED } : { height: kept, digest };
    }
    const ops: Op[] = [{ type: 'put', sublevel: this.subs.meta, key: 'verified', value: next }];
    for (let h = next.height - (next.height % DIGEST_EVERY) + DIGEST_EVERY; h <= old.height; h += DIGEST_EVERY)
      ops.push({ type: 'del', sublevel: this.subs.digests, key: heightKey(h) });
    return { ops, next };
  }

  /** Commits a cut written with `cutTo`'s ops. */
  commitCut(next: VerifiedMark): void {
    for (const h of this.recent.keys()) if (h > next.height) this.recent.delete(h);
    this.mark = next;
  }

  /** The digest kept at a multiple of DIGEST_EVERY, if any. */
  async keptAt(height: number): Promise<string | undefined> {
    return (await this.subs.digests.get(heightKey(height))) as string | undefined;
  }

  /**
   * The ops that record a replay's verification of blocks 1..mark.height (with the digests it
   * computed at every multiple of DIGEST_EVERY).
   */
  recordOps(mark: VerifiedMark, kept: ReadonlyMap<number, string>): Op[] {
    const ops: Op[] = [];
    for (const [h, digest] of kept)
      if (h <= mark.height) ops.push({ type: 'put', sublevel: this.subs.digests, key: heightKey(h), value: digest });
    ops.push({ type: 'put', sublevel: this.subs.meta, key: 'verified', value: mark });
    return ops;
  }

  /** Commits a replay's record. */
  commitRecord(mark: VerifiedMark): void {
    this.recent.clear();
    this.mark = mark;
    this.remember(mark.height, mark.digest);
    this.recorded = true;
  }
}
