/**
 * Installing a checkpoint (node/checkpointFile.ts) into a new data dir: the file's digest checked
 * against the one the operator trusts before anything is written, then its rows written as they
 * stream in, and the `checkpoint` row saying where it came from (status `verifying`). The node
 * then opens the data dir as any other, at the checkpoint's height; node/checkpointVerifier.ts
 * checks the checkpoint against history in the background.
 */
import { copyFile, rm } from 'node:fs/promises';
import { genesisState } from '../core/applyBlock.ts';
import type { Block } from '../core/block.ts';
import { heightKey } from '../core/encoding.ts';
import type { Genesis } from '../core/genesis.ts';
import { PROJECTIONS } from '../projections/index.ts';
import { ChainStore, type Head } from './chainStore.ts';
import { CheckpointFault, type CheckpointHeader, fileDigest, readCheckpoint } from './checkpointFile.ts';
import { type CheckpointRecord, saveCheckpointRecord } from './checkpointRecord.ts';
import { genesisMismatch } from './genesisCheck.ts';

/** The file's digest is not the one the operator gave. */
export class CheckpointDigestMismatch extends Error {}

/** Rows written per LevelDB batch while installing. */
const INSTALL_BATCH = 4096;

/**
 * Installs the checkpoint `file` into the (new, empty) LevelDB directory `dbDir` after checking
 * its SHA-256 is `digest`; `copyTo` keeps a copy for the background verification. A fault leaves
 * no database behind. `genesis`, when given, must be the checkpoint's chain.
 */
export async function installCheckpoint(
  file: string,
  dbDir: string,
  digest: string,
  opts: { genesis?: Genesis; copyTo: string },
): Promise<CheckpointRecord> {
  const actual = await fileDigest(file);
  if (actual !== digest.toLowerCase())
    throw new CheckpointDigestMismatch(`checkpoint digest mismatch: expected ${digest.toLowerCase()}, the file's is ${actual}`);
  const { header, rows } = await readCheckpoint(file);
  const models = PROJECTIONS.map((p) => p.name);
  if (header.models.join(',') !== models.join(','))
    throw new CheckpointFault(`the checkpoint holds read models ${header.models.join(',')}; this node runs ${models.join(',')}`);
  const store = await ChainStore.open(dbDir);
  try {
    const seen = await writeRows(store, header, rows, opts.genesis);
    checkInstalled(header, seen);
    const record: CheckpointRecord = {
      height: header.height,
      hash: header.hash,
      base: header.base,
      logFrom: header.base,
      digest: actual,
      status: 'verifying',
    };
    await saveCheckpointRecord(store, record);
    await store.close();
    await copyFile(file, opts.copyTo);
    return record;
  } catch (e) {
    await store.close().catch(() => undefined);
    await rm(dbDir, { recursive: true, force: true });
    throw e;
  }
}

/** What the install saw of the rows it must check. */
interface Seen {
  genesis?: Genesis;
  head?: Head;
  block0?: Block;
  top?: Block;
  checkpoints: Map<string, number>;
}

async function writeRows(
  store: ChainStore,
  header: CheckpointHeader,
  rows: AsyncIterable<[string, string, unknown]>,
  given: Genesis | undefined,
): Promise<Seen> {
  const seen: Seen = { checkpoints: new Map() };
  let ops: { type: 'put'; sublevel: unknown; key: string; value: unknown }[] = [];
  for await (const [space, key, value] of rows) {
    if (space === 'meta' && key === 'genesis') {
      seen.genesis = value as Genesis;
      const why = given && genesisMismatch(seen.genesis, given);
      if (why) throw new CheckpointFault(`the checkpoint is of another chain than --genesis (${why})`);
    } else if (space === 'meta' && key === 'head') seen.head = value as Head;
    else if (space === 'checkpoints') seen.checkpoints.set(key, (value as { height?: number }).height ?? -1);
    else if (space === 'blocks' && key === heightKey(0)) seen.block0 = value as Block;
    else if (space === 'blocks' && key === heightKey(header.height)) seen.top = value as Block;
    ops.push({ type: 'put', sublevel: store.sublevel(space), key, value });
    if (ops.length >= INSTALL_BATCH) {
      await store.write(ops);
      ops = [];
    }
  }
  await store.write(ops, { sync: true });
  return seen;
}

/** Refuses a checkpoint whose rows do not say what its header says. */
function checkInstalled(header: CheckpointHeader, seen: Seen): void {
  if (!seen.genesis || !seen.block0) throw new CheckpointFault('the checkpoint holds no genesis');
  if (genesisState(seen.genesis).block.hash !== header.genesisHash || seen.block0.hash !== header.genesisHash)
    throw new CheckpointFault('the checkpoint genesis does not hash to its block 0');
  if (seen.head?.index !== header.height || seen.head.hash !== header.hash || seen.top?.hash !== header.hash)
    throw new CheckpointFault(`the checkpoint does not hold its head block ${header.height}`);
  for (const name of header.models)
    if (seen.checkpoints.get(name) !== header.height) throw new CheckpointFault(`read model ${name} is not at the checkpoint height`);
}
