/**
 * The checkpoint flags of `ombra start` read and checked: where a checkpoint comes from and the
 * download's limits (launch/checkpointStart.ts installs it).
 */
import { isDigest } from '../../checkpoint/checkpointFile.ts';
import type { CheckpointSource } from '../../launch/checkpointStart.ts';
import type { CheckpointFetchOptions } from '../../launch/checkpointFetch.ts';
import { intFlag, UsageError } from '../args.ts';

/** The checkpoint flags as `ombra start` parsed them. */
interface CheckpointFlags {
  readonly 'from-checkpoint'?: string;
  readonly 'checkpoint-url'?: string;
  readonly 'checkpoint-digest'?: string;
}

/** The checkpoint flags checked: a source and its digest, or nothing. */
export function checkpointSourceOf(flags: CheckpointFlags): CheckpointSource | null {
  const { 'from-checkpoint': file, 'checkpoint-url': url, 'checkpoint-digest': digest } = flags;
  if (!file && !url) {
    if (digest !== undefined) throw new UsageError('--checkpoint-digest goes with --from-checkpoint FILE or --checkpoint-url URL');
    return null;
  }
  if (file && url) throw new UsageError('--from-checkpoint and --checkpoint-url are exclusive: give one');
  if (digest === undefined) throw new UsageError('a checkpoint needs --checkpoint-digest HEX (the SHA-256 `ombra snapshot state` printed)');
  if (!isDigest(digest)) throw new UsageError('--checkpoint-digest must be 64 hex digits (a SHA-256)');
  if (url !== undefined && !/^https?:\/\/[^\s/]+(\/\S*)?$/.test(url))
    throw new UsageError('--checkpoint-url must be an http:// or https:// URL');
  return { file, url, digest: digest.toLowerCase() };
}

/** The download limits the flags give (the defaults for the rest). */
export function checkpointFetchOf(flags: Readonly<Record<string, unknown>>): Partial<CheckpointFetchOptions> {
  const out: Partial<CheckpointFetchOptions> = {};
  const maxBytes = intFlag(flags, 'checkpoint-max-bytes', 1, Number.MAX_SAFE_INTEGER);
  if (maxBytes !== undefined) out.maxBytes = maxBytes;
  const timeoutMs = intFlag(flags, 'checkpoint-timeout-ms', 100, 3_600_000);
  if (timeoutMs !== undefined) out.timeoutMs = timeoutMs;
  return out;
}
