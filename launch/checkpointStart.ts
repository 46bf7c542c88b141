/**
 * `ombra start --from-checkpoint FILE | --checkpoint-url URL --checkpoint-digest HEX`: the
 * checkpoint fetched (over HTTP, streamed to disk), its digest checked and installed into the new
 * data dir before the node opens it (checkpoint/checkpointInstall.ts); and, for a data dir installed so,
 * the background verification `launch` runs (checkpoint/checkpointVerifier.ts).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Block } from '../core/block.ts';
import { ChainStore } from '../node/store/chainStore.ts';
import type { Genesis } from '../core/genesis.ts';
import { CheckpointFault } from '../checkpoint/checkpointFile.ts';
import { CheckpointDigestMismatch, installCheckpoint } from '../checkpoint/checkpointInstall.ts';
import { checkpointRecord } from '../checkpoint/checkpointRecord.ts';
import { CheckpointVerifier, type CheckpointVerifierOptions } from '../checkpoint/checkpointVerifier.ts';
import type { Logger } from '../node/log.ts';
import type { OmbraNode } from '../node/node.ts';
import { type CheckpointFetchOptions, defaultCheckpointFetchOptions, fetchCheckpoint, tempOf } from './checkpointFetch.ts';
import { CliFault, dbDirOf } from './dataDir.ts';

/** The installed checkpoint file inside a data dir (kept until verified). */
const CHECKPOINT_FILE = 'checkpoint.ckpt';
/** A download in progress inside a data dir. */
const DOWNLOAD = `${CHECKPOINT_FILE}.download`;
/** The background replay's scratch data dir inside a data dir. */
const SCRATCH_DIR = 'checkpoint-verify';

/** Where a checkpoint comes from, as the flags say. */
export interface CheckpointSource {
  file?: string;
  url?: string;
  digest: string;
}

/** Files and dirs an interrupted install leaves in a data dir (removed before the next one). */
const LEFTOVERS = [CHECKPOINT_FILE, `${CHECKPOINT_FILE}.tmp`, DOWNLOAD, tempOf(DOWNLOAD), 'db.installing'];

/**
 * Installs the checkpoint into `dataDir` before the node opens it. A data dir already installed
 * from the same checkpoint starts as it is (a restart with the same flags); any other non-empty
 * data dir is refused, but for what an interrupted install left (it starts again). A SIGINT or
 * SIGTERM meanwhile removes the download and the half-written database before the process exits.
 */
export async function installFromSource(
  src: CheckpointSource,
  dataDir: string,
  genesis: Genesis | undefined,
  log: Logger,
  fetchOpts: Partial<CheckpointFetchOptions> = {},
): Promise<void> {
  const dbDir = dbDirOf(dataDir);
  if (existsSync(join(dbDir, 'CURRENT'))) {
    const store = await ChainStore.open(dbDir, { createIfMissing: false });
    const record = await checkpointRecord(store).finally(() => store.close());
    if (record?.digest === src.digest) return;
    throw new CliFault(`data dir ${resolve(dataDir)} already holds a chain: a checkpoint is installed only into an empty data dir`);
  }
  if (existsSync(dataDir) && readdirSync(dataDir).some((f) => f !== 'p2p-key.json' && !f.startsWith('.') && !LEFTOVERS.includes(f)))
    throw new CliFault(`data dir ${resolve(dataDir)} is not empty: a checkpoint is installed only into an empty data dir`);
  await mkdir(dataDir, { recursive: true });
  const leftovers = [...LEFTOVERS, 'db'].map((f) => join(dataDir, f));
  for (const f of leftovers) await rm(f, { recursive: true, force: true });
  const ac = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    ac.abort(new Error(signal));
    // Synchronous: the process exits now, and nothing half-written stays.
    for (const f of leftovers) rmSync(f, { recursive: true, force: true });
    log.warn('checkpoint install stopped: nothing of it is kept', { signal });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const started = Date.now();
  let file = src.file as string;
  const download = join(dataDir, DOWNLOAD);
  try {
    if (src.url) {
      log.info('fetching checkpoint', { url: src.url });
      await fetchCheckpoint(src.url, download, { ...defaultCheckpointFetchOptions, ...fetchOpts, signal: ac.signal }, log);
      file = download;
    }
    const record = await installCheckpoint(file, dbDir, src.digest, { genesis, copyTo: join(dataDir, CHECKPOINT_FILE) });
    log.info('checkpoint installed', { height: record.height, digest: record.digest, seconds: (Date.now() - started) / 1000 });
  } catch (e) {
    if (e instanceof CheckpointDigestMismatch || e instanceof CheckpointFault) throw new CliFault(e.message);
    throw e;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (src.url) await rm(download, { force: true });
  }
}

/** The background verification of a data dir installed from a checkpoint, or null for any other. */
export async function checkpointVerifierOf(
  node: OmbraNode,
  dataDir: string,
  log: Logger,
  fetchHistory: (from: number, to: number) => Promise<Block[]>,
  opts: Partial<CheckpointVerifierOptions> = {},
): Promise<CheckpointVerifier | null> {
  const record = await checkpointRecord(node.store);
  if (!record) return null;
  const file = join(dataDir, CHECKPOINT_FILE);
  const scratchDir = join(dataDir, SCRATCH_DIR);
  if (record.status === 'mismatch')
    log.error('this node started from a checkpoint that contradicts history: it serves no reads', { reason: record.reason ?? '' });
  return new CheckpointVerifier(
    {
      store: node.store,
      record,
      file,
      scratchDir,
      fetchHistory,
      log,
      onVerified: async () => {
        // The replay's child may still be closing its LevelDB there (a last log or compaction
        // file): rm retries ENOTEMPTY rather than fail a checkpoint that was just verified.
        await rm(scratchDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
        await rm(file, { force: true });
      },
    },
    opts,
  );
}
