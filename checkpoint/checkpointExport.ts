/**
 * Writing a checkpoint (checkpoint/checkpointFile.ts) from one LevelDB snapshot in which the block log
 * and every read model stand at the same height: a running node takes it between two writes
 * (`OmbraNode.consistentSnapshot`), a stopped data dir as it is. The rows stream out gzip-compressed
 * through a SHA-256 tap, so neither the file nor a JSON string of it is ever held in memory.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Block } from '../core/block.ts';
import { heightKey } from '../core/encoding.ts';
import type { Genesis } from '../core/genesis.ts';
import { PROJECTIONS } from '../projections/index.ts';
import type { Head } from '../node/store/blockReads.ts';
import type { ChainStore } from '../node/store/chainStore.ts';
import { CHECKPOINT_FORMAT, type CheckpointHeader, META_KEYS, rowLine } from './checkpointFile.ts';
import { checkpointRecord } from './checkpointRecord.ts';

/** Blocks of the log's recent suffix a checkpoint carries by default (the startup check walks 1,000). */
export const DEFAULT_SUFFIX_BLOCKS = 1024;

/** A LevelDB snapshot of the chain's database. */
type Snapshot = ReturnType<ChainStore['db']['snapshot']>;

/** A checkpoint was asked of a data dir that cannot give a consistent one. */
export class CheckpointExportFault extends Error {}

/** What a finished checkpoint file is. */
export interface CheckpointWritten {
  height: number;
  hash: string;
  base: number;
  digest: string;
  bytes: number;
}

/** Lines are gathered into chunks of about this many characters before they go to gzip. */
const CHUNK_CHARS = 256 * 1024;

/**
 * The checkpoint of `store` as seen by `snapshot` (released when the stream ends or fails):
 * its header and a stream of the gzip-compressed file.
 */
export async function checkpointStream(
  store: ChainStore,
  snapshot: Snapshot,
  opts: { suffixBlocks?: number } = {},
): Promise<{ header: CheckpointHeader; stream: Readable }> {
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await snapshot.close();
  };
  try {
    const header = await headerOf(store, snapshot, opts.suffixBlocks ?? DEFAULT_SUFFIX_BLOCKS);
    const lines = async function* () {
      try {
        yield* chunked(rowLines(store, snapshot, header));
      } finally {
        await release();
      }
    };
    const stream = Readable.from(lines()).pipe(createGzip({ level: 1 }));
    return { header, stream };
  } catch (e) {
    await release();
    throw e;
  }
}

/** Writes a checkpoint to `outFile` (through `outFile.tmp` and a rename) and answers its height and digest. */
export async function writeCheckpoint(
  store: ChainStore,
  snapshot: Snapshot,
  outFile: string,
  opts: { suffixBlocks?: number } = {},
): Promise<CheckpointWritten> {
  const { header, stream } = await checkpointStream(store, snapshot, opts);
  const { digest, bytes } = await saveDigested(stream, outFile);
  return { height: header.height, hash: header.hash, base: header.base, digest, bytes };
}

/**
 * Writes `stream` to `outFile.tmp` (fsynced), runs `check` (which may refuse what came), renames
 * it over `outFile` and answers the bytes' SHA-256 and count; a failure leaves no file.
 */
export async function saveDigested(
  stream: Readable,
  outFile: string,
  check: () => void = () => {},
): Promise<{ digest: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      bytes += chunk.length;
      cb(null, chunk);
    },
  });
  const tmp = `${outFile}.tmp`;
  try {
    // flush fsyncs before close.
    await pipeline(stream, tap, createWriteStream(tmp, { flush: true }));
    check();
    await rename(tmp, outFile);
  } catch (e) {
    stream.destroy();
    await rm(tmp, { force: true });
    throw e;
  }
  return { digest: hash.digest('hex'), bytes };
}

async function headerOf(store: ChainStore, snapshot: Snapshot, suffixBlocks: number): Promise<CheckpointHeader> {
  const head = (await store.meta.get('head', { snapshot })) as Head | undefined;
  const genesis = (await store.meta.get('genesis', { snapshot })) as Genesis | undefined;
  const block0 = (await store.blocks.get(heightKey(0), { snapshot })) as Block | undefined;
  if (!head || !genesis || !block0) throw new CheckpointExportFault('the data dir has no chain: no genesis or head');
  const models = PROJECTIONS.map((p) => p.name);
  for (const name of models) {
    const cp = (await store.sublevel('checkpoints').get(name, { snapshot })) as { height?: number } | undefined;
    if (cp?.height !== head.index)
      throw new CheckpointExportFault(
        `read model ${name} is at height ${cp?.height ?? 'none'}, the log at ${head.index}: start the node once so its read models catch up`,
      );
  }
  // A node that itself started from a checkpoint passes on only what it has proven, and holds no blocks below its own base.
  const own = await checkpointRecord(store, snapshot);
  if (own && own.status !== 'verified')
    throw new CheckpointExportFault(
      `this data dir started from a checkpoint that is ${own.status}, not verified: a checkpoint of it would pass on rows nobody has proven (wait until /api/health says checkpoint "verified")`,
    );
  const ownBase = own?.base ?? 1;
  const base = Math.min(head.index + 1, Math.max(1, ownBase, head.index - Math.max(1, suffixBlocks) + 1));
  return {
    ombraCheckpoint: CHECKPOINT_FORMAT,
    chainId: genesis.chainId,
    genesisHash: block0.hash,
    height: head.index,
    hash: head.hash,
    base,
    models,
  };
}

/** The file's lines after none: the header, every row (values as their stored JSON text), the end line. */
async function* rowLines(store: ChainStore, snapshot: Snapshot, header: CheckpointHeader): AsyncGenerator<string> {
  yield `${JSON.stringify(header)}\n`;
  let rows = 0;
  const line = (space: string, key: string, text: string) => {
    rows++;
    return rowLine(space, key, text);
  };
  const scan = (space: string, range: { gte?: string; lte?: string } = {}) =>
    store.sublevel(space).iterator({ ...range, snapshot, valueEncoding: 'utf8' }) as AsyncIterable<[string, string]>;
  for await (const [key, text] of scan('meta')) if (META_KEYS.has(key)) yield line('meta', key, text);
  for await (const [key, text] of scan('checkpoints')) if (header.models.includes(key)) yield line('checkpoints', key, text);
  for (const name of header.models) for await (const [key, text] of scan(`p:${name}`)) yield line(`p:${name}`, key, text);
  // Undo records of the read models only (reactors such as alerts are node-local).
  for await (const [key, text] of scan('undo')) {
    const entries = JSON.parse(text) as Record<string, unknown>;
    const kept = Object.fromEntries(Object.entries(entries).filter(([name]) => header.models.includes(name)));
    yield line('undo', key, JSON.stringify(kept));
  }
  for await (const [key, text] of scan('blocks', { gte: heightKey(0), lte: heightKey(0) })) yield line('blocks', key, text);
  for await (const [key, text] of scan('blocks', { gte: heightKey(header.base), lte: heightKey(header.height) }))
    yield line('blocks', key, text);
  yield `${JSON.stringify({ end: rows })}\n`;
}

/** Strings gathered into chunks of about CHUNK_CHARS (one gzip write per chunk, not per row). */
async function* chunked(lines: AsyncIterable<string>): AsyncGenerator<string> {
  let buf = '';
  for await (const l of lines) {
    buf += l;
    if (buf.length >= CHUNK_CHARS) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}
