/**
 * The checkpoint file (docs/checkpoints.md): gzip-compressed lines, written and read as a stream.
 *
 *   line 1   {"ombraCheckpoint":2,"chainId","genesisHash","height","hash","base","models":[...]}
 *   then     <keyspace>\t<key as a JSON string>\t<value as stored>   one row a line, in a fixed order
 *   last     {"end":<rows>}                   a file cut short has no end line and is refused
 *
 * A value is the stored bytes (JSON text, which never holds a raw newline), so installing copies
 * them without parsing or re-encoding any.
 *
 * The rows are the chain's own LevelDB rows at one height: `meta` (genesis, head), every read
 * model's saved position (keyspace `checkpoints`) and rows (`p:<name>`), the undo log and the block log's
 * recent suffix (`blocks`: block 0, then `base..height`). Node-local keyspaces (API keys, alert
 * subscriptions, the mempool) are never written, and a reader refuses any keyspace not listed here.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { errorMessage } from '../core/errors.ts';

/** The format version this node writes and reads. */
export const CHECKPOINT_FORMAT = 2;

/** Line 1 of a checkpoint. */
export interface CheckpointHeader {
  ombraCheckpoint: number;
  chainId: string;
  /** Hash of block 0: the chain the checkpoint belongs to. */
  genesisHash: string;
  /** The height every row is at, and the hash of the block there. */
  height: number;
  hash: string;
  /** The lowest block above 0 the file holds (blocks 1..base-1 come from peers). */
  base: number;
  /** The read models whose rows the file holds, in fold order. */
  models: string[];
}

/** One stored row: its keyspace (a LevelDB sublevel), key and value as stored (JSON text bytes). */
type CheckpointRow = [space: string, key: string, value: Buffer];

/** A stored value's JSON, parsed (for the few rows a reader must look into). */
export function rowValue(value: Buffer): unknown {
  return JSON.parse(value.toString('utf8'));
}

/** One row's line in the file (`text` is the value as stored). */
export function rowLine(space: string, key: string, text: string): string {
  return `${space}\t${JSON.stringify(key)}\t${text}\n`;
}

/** A checkpoint file that cannot be read as one (wrong format, cut short, a foreign keyspace). */
export class CheckpointFault extends Error {}

/** Meta rows a checkpoint carries: the chain's identity and head, nothing node-local. */
export const META_KEYS: ReadonlySet<string> = new Set(['genesis', 'head']);

/** True when `space` is a keyspace a checkpoint of `models` may carry. */
function allowedSpace(space: string, models: readonly string[]): boolean {
  if (space === 'meta' || space === 'blocks' || space === 'checkpoints' || space === 'undo') return true;
  return space.startsWith('p:') && models.includes(space.slice(2));
}

/** Hex SHA-256 of a file, read as a stream. */
export async function fileDigest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** True for a lowercase or uppercase hex SHA-256. */
export function isDigest(text: string): boolean {
  return /^[0-9a-fA-F]{64}$/.test(text);
}

function checkHeader(v: unknown): CheckpointHeader {
  const h = v as Partial<CheckpointHeader> | null;
  if (!h || typeof h !== 'object' || h.ombraCheckpoint === undefined) throw new CheckpointFault('not an Ombra checkpoint (no header line)');
  if (h.ombraCheckpoint !== CHECKPOINT_FORMAT)
    throw new CheckpointFault(`checkpoint format ${String(h.ombraCheckpoint)}; this node reads format ${CHECKPOINT_FORMAT}`);
  const ok =
    typeof h.chainId === 'string' &&
    typeof h.genesisHash === 'string' &&
    typeof h.hash === 'string' &&
    Number.isSafeInteger(h.height) &&
    Number.isSafeInteger(h.base) &&
    Array.isArray(h.models) &&
    h.models.every((m) => typeof m === 'string');
  if (!ok) throw new CheckpointFault('the checkpoint header is malformed');
  return h as CheckpointHeader;
}

/** A checkpoint being read: its header, then its rows a chunk at a time (iterate `rows` once; it checks the end line). */
export interface CheckpointReader {
  header: CheckpointHeader;
  rows: AsyncGenerator<CheckpointRow[]>;
}

/**
 * The longest line a checkpoint may hold: far above any row a node writes (a block holds at most
 * 3 MiB of transactions, an undo row what one block changed), so a crafted line is refused after
 * this many bytes instead of being gathered whole.
 */
const MAX_LINE_BYTES = 64 * 2 ** 20;

/** The lines of a stream as Buffers without their newline (no text decoding), a chunk's worth at a time; a longer line than `maxLine` is refused. */
async function* byteLines(input: AsyncIterable<Buffer>, maxLine: number): AsyncGenerator<Buffer[]> {
  // The start of a line that spans chunks, in pieces: joined once, when its newline comes.
  let parts: Buffer[] = [];
  let partBytes = 0;
  for await (const chunk of input) {
    const lines: Buffer[] = [];
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl !== -1; nl = chunk.indexOf(10, from)) {
      if (partBytes + nl - from > maxLine) throw new CheckpointFault(`a line of the checkpoint is longer than ${maxLine} bytes`);
      lines.push(parts.length ? Buffer.concat([...parts, chunk.subarray(from, nl)]) : chunk.subarray(from, nl));
      parts = [];
      partBytes = 0;
      from = nl + 1;
    }
    if (from < chunk.length) {
      parts.push(chunk.subarray(from));
      partBytes += chunk.length - from;
      if (partBytes > maxLine) throw new CheckpointFault(`a line of the checkpoint is longer than ${maxLine} bytes`);
    }
    if (lines.length) yield lines;
  }
  if (parts.length) yield [Buffer.concat(parts)];
}

const TAB = 9;
const QUOTE = 34;
const BACKSLASH = 92;

/** A row's key: the JSON string between the tabs, decoded without JSON.parse when it has no escapes. */
function keyOf(bytes: Buffer): string {
  if (bytes.length < 2 || bytes[0] !== QUOTE || bytes[bytes.length - 1] !== QUOTE) throw new SyntaxError('a row key is not a JSON string');
  if (bytes.indexOf(BACKSLASH) === -1) return bytes.toString('utf8', 1, bytes.length - 1);
  const key = JSON.parse(bytes.toString('utf8'));
  if (typeof key !== 'string') throw new SyntaxError('a row key is not a JSON string');
  return key;
}

/** Opens a checkpoint file: reads and checks its header; `rows` streams the rest, refusing foreign keyspaces and lines over `maxLine` bytes. */
export async function readCheckpoint(path: string, maxLine = MAX_LINE_BYTES): Promise<CheckpointReader> {
  const input = createReadStream(path, { highWaterMark: 1 << 20 }).pipe(createGunzip({ chunkSize: 1 << 20 }));
  const chunks = byteLines(input, maxLine);
  const fail = (e: unknown): never => {
    input.destroy();
    if (e instanceof CheckpointFault) throw e;
    throw new CheckpointFault(`the checkpoint cannot be read: ${errorMessage(e)}`);
  };
  let header: CheckpointHeader;
  let pending: Buffer[] = [];
  try {
    const first = await chunks.next();
    pending = first.done ? [] : first.value;
    const line = pending.shift();
    header = checkHeader(line === undefined ? null : JSON.parse(line.toString('utf8')));
  } catch (e) {
    return fail(e);
  }
  const spaces = new Map<string, boolean>();
  async function* rows(): AsyncGenerator<CheckpointRow[]> {
    let n = 0;
    let ended = false;
    try {
      for (let lines: Buffer[] | undefined = pending; lines; lines = (await chunks.next()).value || undefined) {
        const out: CheckpointRow[] = [];
        for (const line of lines) {
          if (ended) throw new CheckpointFault('the checkpoint goes on after its end line');
          const t1 = line.indexOf(TAB);
          if (t1 === -1) {
            const end = (JSON.parse(line.toString('utf8')) as { end?: unknown } | null)?.end;
            if (end !== n) throw new CheckpointFault(`the checkpoint's end line says ${String(end)} rows, the file holds ${n}`);
            ended = true;
            continue;
          }
          const t2 = line.indexOf(TAB, t1 + 1);
          if (t2 === -1) throw new CheckpointFault(`row ${n + 1} is malformed`);
          const space = line.toString('latin1', 0, t1);
          const key = keyOf(line.subarray(t1 + 1, t2));
          let allowed = spaces.get(space);
          if (allowed === undefined) {
            allowed = allowedSpace(space, header.models);
            spaces.set(space, allowed);
          }
          if (!allowed) throw new CheckpointFault(`row ${n + 1} is in keyspace ${space.slice(0, 40)}, which a checkpoint never holds`);
          if (space === 'meta' && !META_KEYS.has(key))
            throw new CheckpointFault(`row ${n + 1} is meta ${key.slice(0, 40)}, which a checkpoint never holds`);
          n++;
          out.push([space, key, line.subarray(t2 + 1)]);
        }
        if (out.length) yield out;
      }
      if (!ended) throw new CheckpointFault(`the checkpoint ends after ${n} rows without its end line (cut short?)`);
    } catch (e) {
      fail(e);
    } finally {
      input.destroy();
    }
  }
  return { header, rows: rows() };
}

/** Digests of read models, fed rows in key order: one hex SHA-256 per model, over its checkpoint and rows. */
export class ModelDigests {
  private readonly hashes = new Map<string, ReturnType<typeof createHash>>();

  /** Feeds one row of keyspace `space` (read-model rows and saved positions count; the rest is ignored). */
  add(space: string, key: string, value: unknown): void {
    let model: string;
    if (space === 'checkpoints') model = key;
    else if (space.startsWith('p:')) model = space.slice(2);
    else return;
    let h = this.hashes.get(model);
    if (!h) {
      h = createHash('sha256');
      this.hashes.set(model, h);
    }
    // Keys sorted at every level: two writers that built equal objects in another order agree.
    h.update(`${space}\n${key}\n${canonicalJson(value)}\n`);
  }

  /** The digests, by model name (call once). */
  digests(): Record<string, string> {
    return Object.fromEntries([...this.hashes].map(([name, h]) => [name, h.digest('hex')]).sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}

/** JSON with object keys sorted at every level. */
function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(v).sort();
  const parts: string[] = [];
  for (const k of keys) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined) parts.push(`${JSON.stringify(k)}:${canonicalJson(x)}`);
  }
  return `{${parts.join(',')}}`;
}
