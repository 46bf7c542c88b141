/**
 * `ombra start --from-checkpoint FILE | --checkpoint-url URL --checkpoint-digest HEX`: the
 * checkpoint fetched (over HTTP, streamed to disk), its digest checked and installed into the new
 * data dir before the node opens it (node/checkpointInstall.ts); and, for a data dir installed so,
 * the background verification `launch` runs (node/checkpointVerifier.ts).
 */
import { createWriteStream, existsSync, readdirSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Block } from '../core/block.ts';
import { ChainStore } from '../node/chainStore.ts';
import type { Genesis } from '../core/genesis.ts';
import { CheckpointFault, isDigest } from '../node/checkpointFile.ts';
import { CheckpointDigestMismatch, installCheckpoint } from '../node/checkpointInstall.ts';
import { checkpointRecord } from '../node/checkpointRecord.ts';
import { CheckpointVerifier } from '../node/checkpointVerifier.ts';
import type { Logger } from '../node/log.ts';
import type { OmbraNode } from '../node/node.ts';
import { UsageError } from './args.ts';
import { CliFault, dbDirOf } from './dataDir.ts';

/** The installed checkpoint file inside a data dir (kept until verified). */
const CHECKPOINT_FILE = 'checkpoint.ckpt';
/** The background replay's scratch data dir inside a data dir. */
const SCRATCH_DIR = 'checkpoint-verify';

/** Where a checkpoint comes from, as the flags say. */
export interface CheckpointSource {
  file?: string;
  url?: string;
  digest: string;
}

/** The checkpoint flags checked: a source and its digest, or nothing. */
export function checkpointSourceOf(flags: Record<string, unknown>): CheckpointSource | null {
  const file = flags['from-checkpoint'] as string | undefined;
  const url = flags['checkpoint-url'] as string | undefined;
  const digest = flags['checkpoint-digest'] as string | undefined;
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

/**
 * Installs the checkpoint into `dataDir` before the node opens it. A data dir already installed
 * from the same checkpoint starts as it is (a restart with the same flags); any other non-empty
 * data dir is refused.
 */
export async function installFromSource(src: CheckpointSource, dataDir: string, genesis: Genesis | undefined, log: Logger): Promise<void> {
  const dbDir = dbDirOf(dataDir);
  if (existsSync(join(dbDir, 'CURRENT'))) {
    const store = await ChainStore.open(dbDir, { createIfMissing: false });
    const record = await checkpointRecord(store).finally(() => store.close());
    if (record?.digest === src.digest) return;
    throw new CliFault(`data dir ${resolve(dataDir)} already holds a chain: a checkpoint is installed only into an empty data dir`);
  }
  if (existsSync(dataDir) && readdirSync(dataDir).some((f) => f !== 'p2p-key.json' && !f.startsWith('.')))
    throw new CliFault(`data dir ${resolve(dataDir)} is not empty: a checkpoint is installed only into an empty data dir`);
  await mkdir(dataDir, { recursive: true });
  const started = Date.now();
  let file = src.file as string;
  const download = join(dataDir, `${CHECKPOINT_FILE}.download`);
  if (src.url) {
    log.info('fetching checkpoint', { url: src.url });
    file = await fetchTo(src.url, download);
  }
  try {
    const record = await installCheckpoint(file, dbDir, src.digest, { genesis, copyTo: join(dataDir, CHECKPOINT_FILE) });
    log.info('checkpoint installed', { height: record.height, digest: record.digest, seconds: (Date.now() - started) / 1000 });
  } catch (e) {
    if (e instanceof CheckpointDigestMismatch || e instanceof CheckpointFault) throw new CliFault(e.message);
    throw e;
  } finally {
    if (src.url) await rm(download, { force: true });
  }
}

/** Streams `url` into `out` (via `out.tmp`); a failure is the operator's one-line fault. */
async function fetchTo(url: string, out: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new CliFault(`cannot fetch the checkpoint from ${url}: ${(e as Error).message}`);
  }
  if (!res.ok || !res.body) throw new CliFault(`cannot fetch the checkpoint from ${url}: HTTP ${res.status}`);
  const tmp = `${out}.tmp`;
  try {
    await pipeline(Readable.fromWeb(res.body as never), createWriteStream(tmp));
    await rename(tmp, out);
  } catch (e) {
    await rm(tmp, { force: true });
    throw new CliFault(`the checkpoint download from ${url} failed: ${(e as Error).message}`);
  }
  return out;
}

/** The background verification of a data dir installed from a checkpoint, or null for any other. */
export async function checkpointVerifierOf(
  node: OmbraNode,
  dataDir: string,
  log: Logger,
  fetchHistory: (from: number, to: number) => Promise<Block[]>,
): Promise<CheckpointVerifier | null> {
  const record = await checkpointRecord(node.store);
  if (!record) return null;
  const file = join(dataDir, CHECKPOINT_FILE);
  const scratchDir = join(dataDir, SCRATCH_DIR);
  if (record.status === 'verifying' && !existsSync(file))
    log.warn('the installed checkpoint file is gone: its verification cannot run', { file, height: record.height });
  if (record.status === 'mismatch')
    log.error('this node started from a checkpoint that contradicts history: it serves no reads', { reason: record.reason ?? '' });
  return new CheckpointVerifier({
    store: node.store,
    record,
    file,
    scratchDir,
    fetchHistory,
    log,
    onVerified: async () => {
      await rm(scratchDir, { recursive: true, force: true });
      await rm(file, { force: true });
    },
  });
}
