/**
 * Admission's incremental hashing of pending uploads (node-local, never consulted for a block).
 *
 * Completing an upload (FINALIZE, or the chunk that fills it) is refused unless SHA-256 of its
 * bytes is the declared contentHash. Computed from scratch, every attempt hashes the whole upload
 * inside the write queue, and a refused attempt uses up no nonce, so a sender could repeat it for
 * free. Here each upload keeps a SHA-256 state over its landed chunks 0..k-1 (the longest run from
 * the start), fed as chunks land and copied for each check: a repeated check hashes only the chunks
 * after the run (none once every chunk landed in order, or only the candidate last chunk). A
 * sender whose completions keep failing is bounded too: at most `maxFailures` refused completion
 * checks per `windowMs`, then RATE_LIMITED until the window passes, before any hashing.
 *
 * Safe to reuse across checks because a landed chunk never changes while its upload (same id and
 * start transaction) is pending; a reorganisation can change that, so the node calls `clear`.
 */
import { createHash, type Hash } from 'node:crypto';
import { ChainError } from './errors.ts';
import type { ChunkRef, Upload } from './upload.ts';

/** Bounds of the admission hashes. */
export interface UploadHashesOptions {
  /** Uploads whose hashed runs are kept (least recently checked forgotten first). */
  maxUploads: number;
  /** Refused completion checks one sender may cause per window. */
  maxFailures: number;
  windowMs: number;
}

/** Defaults: 256 uploads, 4 refused completions per sender a minute. */
const defaultUploadHashesOptions: UploadHashesOptions = { maxUploads: 256, maxFailures: 4, windowMs: 60_000 };

interface Run {
  /** Chunks 0..hashed-1 are in `hash`. */
  hashed: number;
  bytes: number;
  hash: Hash;
}

/** A chunk's bytes as state holds it (undefined: not landed, or not loaded yet). */
export type ChunkReader = (index: number) => string | undefined;

/**
 * Feeds chunks `from`..`total`-1 into `h` (`last` standing in for one not landed): the bytes fed,
 * or the first missing index. Past a missing chunk the rest is still read (not hashed), so a state
 * that holds them on disk notes every miss at once and loads them in one round.
 */
export function hashChunks(
  h: Hash,
  from: number,
  total: number,
  read: ChunkReader,
  last?: ChunkRef,
): { bytes: number; missing?: undefined } | { bytes: number; missing: number } {
  let bytes = 0;
  let missing: number | undefined;
  for (let i = from; i < total; i++) {
    const data = last?.index === i ? last.data : read(i);
    missing ??= data === undefined ? i : undefined;
    if (missing !== undefined || data === undefined) continue;
    const b = Buffer.from(data, 'base64');
    h.update(b);
    bytes += b.length;
  }
  return missing === undefined ? { bytes } : { bytes, missing };
}

/** The hashed runs of pending uploads and the senders' failed completions. */
export class UploadHashes {
  private readonly opts: UploadHashesOptions;
  private readonly runs = new Map<string, Run>();
  /** Times of refused completions by sender, within the window. */
  private readonly failures = new Map<string, number[]>();

  constructor(opts: Partial<UploadHashesOptions> = {}) {
    this.opts = { ...defaultUploadHashesOptions, ...opts };
  }

  /** Uploads with a hashed run held. */
  get size(): number {
    return this.runs.size;
  }

  /**
   * Length and hex SHA-256 of upload `u`'s bytes (`last` standing in for a chunk not landed), or
   * the index of the first chunk neither landed nor `last`. Refuses RATE_LIMITED when `from`
   * used up its failed completions.
   */
  digest(
    namespace: string,
    u: Readonly<Upload>,
    read: ChunkReader,
    now: number,
    last?: ChunkRef,
  ): { bytes: number; sha256: string } | number {
    this.checkRate(u.owner, now);
    const key = `${namespace}:${u.id}:${u.txHash}`;
    const run = this.runs.get(key) ?? { hashed: 0, bytes: 0, hash: createHash('sha256') };
    this.runs.delete(key);
    this.runs.set(key, run);
    if (this.runs.size > this.opts.maxUploads) dropOldest(this.runs);
    // Grow the run over chunks that landed since the last check.
    while (run.hashed < u.totalChunks) {
      const data = read(run.hashed);
      if (data === undefined) break;
      const b = Buffer.from(data, 'base64');
      run.hash.update(b);
      run.bytes += b.length;
      run.hashed++;
    }
    const h = run.hash.copy();
    const r = hashChunks(h, run.hashed, u.totalChunks, read, last);
    return r.missing ?? { bytes: run.bytes + r.bytes, sha256: h.digest('hex') };
  }

  /** Notes a refused completion check of `from`'s upload at `now` (ms). */
  failed(from: string, now: number): void {
    const times = this.recent(from, now);
    times.push(now);
    this.failures.delete(from);
    this.failures.set(from, times);
    // As many senders as uploads are remembered; the longest quiet go first.
    if (this.failures.size > this.opts.maxUploads * 16) dropOldest(this.failures);
  }

  /** Forgets every hashed run (a reorganisation may have changed landed chunks). */
  clear(): void {
    this.runs.clear();
  }

  private checkRate(from: string, now: number): void {
    const times = this.recent(from, now);
    if (times.length === 0) this.failures.delete(from);
    if (times.length >= this.opts.maxFailures) {
      const wait = Math.max(1, Math.ceil((times[times.length - this.opts.maxFailures] + this.opts.windowMs - now) / 1000));
      throw new ChainError(
        'RATE_LIMITED',
        `${times.length} completions of ${from}'s uploads were refused in the last ${this.opts.windowMs} ms: try again in ${wait} s`,
      );
    }
  }

  /** `from`'s failures inside the window (older ones dropped). */
  private recent(from: string, now: number): number[] {
    const times = (this.failures.get(from) ?? []).filter((t) => t > now - this.opts.windowMs);
    if (times.length) this.failures.set(from, times);
    return times;
  }
}

/** Deletes the first entry of `map` (the least recently set, as entries are re-set when used). */
function dropOldest(map: Map<string, unknown>): void {
  const first = map.keys().next();
  if (!first.done) map.delete(first.value);
}
