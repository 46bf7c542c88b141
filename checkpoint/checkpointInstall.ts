/**
 * Installing a checkpoint (checkpoint/checkpointFile.ts) into a new data dir: the file's digest checked
 * against the one the operator trusts before anything is written, then its rows copied as they
 * stream in (the stored bytes, in large batches, each row's shape checked: checkpoint/checkpointRows.ts),
 * and the `checkpoint` row saying where it came from (status `verifying`), into a temp dir renamed
 * into place at the end. The node
 * then opens the data dir as any other, at the checkpoint's height; checkpoint/checkpointVerifier.ts
 * checks the checkpoint against history in the background.
 */
import { copyFile, rename, rm } from 'node:fs/promises';
import { genesisState } from '../core/applyBlock.ts';
import type { Block } from '../core/block.ts';
import { heightKey } from '../core/encoding.ts';
import type { Genesis } from '../core/genesis.ts';
import { PROJECTIONS } from '../projections/index.ts';
import type { Head } from '../node/store/blockReads.ts';
import { ChainStore } from '../node/store/chainStore.ts';
import { CheckpointFault, type CheckpointHeader, fileDigest, readCheckpoint } from './checkpointFile.ts';
import { checkRow } from './checkpointRows.ts';
import { type CheckpointRecord, saveCheckpointRecord } from './checkpointRecord.ts';
import { genesisMismatch } from '../node/store/genesisCheck.ts';

/** The file's digest is not the one the operator gave. */
export class CheckpointDigestMismatch extends Error {}

/** Bytes of rows gathered into one LevelDB batch while installing. */
const INSTALL_BATCH_BYTES = 8 * 2 ** 20;

/** How a row's stored bytes are written: as they are. */
const AS_STORED = { valueEncoding: 'buffer' } as const;

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
  // Written beside the data dir's database and renamed into place once whole: a process killed
  // half way leaves no database the same command would refuse (it removes the temp dir).
  const installing = `${dbDir}.installing`;
  await rm(installing, { recursive: true, force: true });
  const store = await ChainStore.open(installing);
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
    await copyFile(file, `${opts.copyTo}.tmp`);
    await rename(`${opts.copyTo}.tmp`, opts.copyTo);
    await rename(installing, dbDir);
    return record;
  } catch (e) {
    await store.close().catch(() => undefined);
    await rm(installing, { recursive: true, force: true });
    await rm(`${opts.copyTo}.tmp`, { force: true });
    throw e;
  }
}

/** What the install saw of the rows it must check. */
interface Seen {
  genesis?: Genesis;
  head?: Head;
  block0?: Block;
  top?: Block;
  marks: Map<string, number>;
}

async function writeRows(
  store: ChainStore,
  header: CheckpointHeader,
  rows: AsyncIterable<[string, string, Buffer][]>,
  given: Genesis | undefined,
): Promise<Seen> {
  const seen: Seen = { marks: new Map() };
  const topKey = heightKey(header.height);
  const block0Key = heightKey(0);
  const prefixes = new Map<string, string>();
  let batch = store.db.batch();
  let bytes = 0;
  let n = 0;
  for await (const chunk of rows)
    for (const [space, key, value] of chunk) {
      // Every row's shape is checked (checkpoint/checkpointRows.ts); a few are also checked against the header.
      const parsed = checkRow(++n, space, key, value);
      if (space === 'meta') {
        if (key === 'genesis') {
          seen.genesis = parsed as Genesis;
          const why = given && genesisMismatch(seen.genesis, given);
          if (why) throw new CheckpointFault(`the checkpoint is of another chain than --genesis (${why})`);
        } else if (key === 'head') seen.head = parsed as Head;
      } else if (space === 'checkpoints') seen.marks.set(key, (parsed as { height: number }).height);
      else if (space === 'blocks' && (key === block0Key || key === topKey)) {
        if (key === block0Key) seen.block0 = parsed as Block;
        else seen.top = parsed as Block;
      }
      let prefix = prefixes.get(space);
      if (prefix === undefined) {
        prefix = store.sublevel(space).prefix;
        prefixes.set(space, prefix);
      }
      batch.put(prefix + key, value, AS_STORED);
      bytes += key.length + value.length;
      if (bytes >= INSTALL_BATCH_BYTES) {
        await batch.write();
        batch = store.db.batch();
        bytes = 0;
      }
    }
  await batch.write({ sync: true });
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
    if (seen.marks.get(name) !== header.height) throw new CheckpointFault(`read model ${name} is not at the checkpoint height`);
}
