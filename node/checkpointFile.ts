/**
 * The checkpoint file (docs/checkpoints.md): gzip-compressed NDJSON, written and read as a stream.
 *
 *   line 1   {"ombraCheckpoint":1,"chainId","genesisHash","height","hash","base","models":[...]}
 *   then     ["<keyspace>","<key>",<value>]   one stored row a line, keyspaces in a fixed order
 *   last     {"end":<rows>}                   a file cut short has no end line and is refused
 *
 * The rows are the chain's own LevelDB rows at one height: `meta` (genesis, head), every read
 * model's checkpoint (`checkpoints`) and rows (`p:<name>`), the undo log and the block log's
 * recent suffix (`blocks`: block 0, then `base..height`). Node-local keyspaces (API keys, alert
 * subscriptions, the mempool) are never written, and a reader refuses any keyspace not listed here.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

/** The format version this node writes and reads. */
export const CHECKPOINT_FORMAT = 1;

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

/** One stored row: its keyspace (a LevelDB sublevel), key and JSON value. */
type CheckpointRow = [space: string, key: string, value: unknown];

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

/** A checkpoint being read: its header, then its rows (iterate `rows` once; it checks the end line). */
export interface CheckpointReader {
  header: CheckpointHeader;
  rows: AsyncGenerator<CheckpointRow>;
}

/** Opens a checkpoint file: reads and checks its header; `rows` streams the rest, refusing foreign keyspaces. */
export async function readCheckpoint(path: string): Promise<CheckpointReader> {
  const input = createReadStream(path).pipe(createGunzip());
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
  const fail = (e: unknown): never => {
    input.destroy();
    if (e instanceof CheckpointFault) throw e;
    throw new CheckpointFault(`the checkpoint cannot be read: ${(e as Error).message}`);
  };
  let header: CheckpointHeader;
  try {
    const first = await lines.next();
    header = checkHeader(first.done ? null : JSON.parse(first.value));
  } catch (e) {
    return fail(e);
  }
  async function* rows(): AsyncGenerator<CheckpointRow> {
    let n = 0;
    try {
      for (let next = await lines.next(); !next.done; next = await lines.next()) {
        const v = JSON.parse(next.value) as unknown;
        if (!Array.isArray(v)) {
          const end = (v as { end?: unknown } | null)?.end;
          if (end !== n) throw new CheckpointFault(`the checkpoint's end line says ${String(end)} rows, the file holds ${n}`);
          return;
        }
        const [space, key] = v;
        if (v.length !== 3 || typeof space !== 'string' || typeof key !== 'string') throw new CheckpointFault(`row ${n + 1} is malformed`);
        if (!allowedSpace(space, header.models))
          throw new CheckpointFault(`row ${n + 1} is in keyspace ${space.slice(0, 40)}, which a checkpoint never holds`);
        if (space === 'meta' && !META_KEYS.has(key))
          throw new CheckpointFault(`row ${n + 1} is meta ${key.slice(0, 40)}, which a checkpoint never holds`);
        n++;
        yield v as CheckpointRow;
      }
      throw new CheckpointFault(`the checkpoint ends after ${n} rows without its end line (cut short?)`);
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

  /** Feeds one row of keyspace `space` (read-model rows and checkpoints count; the rest is ignored). */
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
