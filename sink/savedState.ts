/**
 * The folded state saved beside the mirror (tables sink_state and sink_state_head), so a restart
 * folds only the blocks after it instead of re-reading the chain from genesis. One row per account
 * (`a:<address>`, the node's stored account form), per record (`r:<kind>:<id>`, its JSON: records
 * are plain JSON values) and the supply (`s`); the head names the block the state is after. A
 * save writes the entries changed since the previous one (every entry the first time) in one
 * transaction. The rows are a cache, not part of the mirror's exactly-once contract: they are
 * loaded only when their head is the mirror's block at that height, at or below where the sink
 * resumes, and the blocks after it are folded from the node as before.
 */
import { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { ParentRef } from '../core/applyBlock.ts';
import { decodeAccount, encodeAccount, type StoredAccount } from '../core/accountRow.ts';
import { RECORD_KINDS } from '../core/state.ts';
import type { Account } from '../core/txState.ts';
import { copyChunks } from './copyText.ts';
import type { FoldState, StateImage } from './foldState.ts';
import { quoteIdent } from './migrations.ts';

/**
 * A save's rows. Changed entries are taken from the fold at once (a copy: the fold may move on
 * while they are written); every entry (`all`) is read from the fold as the rows are written, so
 * a large state is not copied: the fold must then stay at its block until `writeState` returns.
 */
export interface StateRows {
  head: ParentRef;
  /** Every entry: the table is emptied first. */
  all: boolean;
  upserts: Iterable<[string, string]>;
  deletes: string[];
}

const supplyJson = (f: FoldState) => JSON.stringify([f.supply.emitted, f.supply.burned, f.supply.escrow, f.supply.feesPaid].map(String));

/** Every entry of `fold`, read as iterated. */
function* everyEntry(fold: FoldState): Generator<[string, string]> {
  yield ['s', supplyJson(fold)];
  for (const [address, a] of fold.accounts()) yield [`a:${address}`, JSON.stringify(encodeAccount(a))];
  for (const [kind, m] of fold.records()) for (const [id, v] of m) yield [`r:${kind}:${id}`, JSON.stringify(v)];
}

/** The rows that bring a saved state up to `fold` (its entries changed since the last take). */
export function stateRows(fold: FoldState): StateRows {
  const changes = fold.takeChanges();
  if (changes.all) return { head: fold.head, all: true, upserts: everyEntry(fold), deletes: [] };
  const upserts: [string, string][] = [['s', supplyJson(fold)]];
  const deletes: string[] = [];
  const accounts = fold.accounts();
  for (const address of changes.accounts) {
    const a = accounts.get(address);
    if (a) upserts.push([`a:${address}`, JSON.stringify(encodeAccount(a))]);
    else deletes.push(`a:${address}`);
  }
  for (const [kind, ids] of changes.records)
    for (const id of ids) {
      const v = fold.record(kind, id);
      if (v === undefined) deletes.push(`r:${kind}:${id}`);
      else upserts.push([`r:${kind}:${id}`, JSON.stringify(v)]);
    }
  return { head: fold.head, all: false, upserts, deletes };
}

/** Writes `rows` into `schema`'s saved state in one transaction; answers the entries written. */
export async function writeState(db: pg.ClientBase, schema: string, rows: StateRows): Promise<number> {
  const s = quoteIdent(schema);
  let written = 0;
  const counted = function* () {
    for (const r of rows.upserts) {
      written++;
      yield r;
    }
  };
  const lines = () => copyChunks(counted());
  await db.query('BEGIN');
  try {
    if (rows.all) {
      await db.query(`TRUNCATE ${s}.sink_state`);
      await pipeline(Readable.from(lines()), db.query(copyFrom(`COPY ${s}.sink_state (key, value) FROM STDIN`)));
    } else {
      if (rows.deletes.length) await db.query(`DELETE FROM ${s}.sink_state WHERE key = ANY($1)`, [rows.deletes]);
      await db.query('CREATE TEMP TABLE IF NOT EXISTS sink_state_stage (key text, value text) ON COMMIT DELETE ROWS');
      await pipeline(Readable.from(lines()), db.query(copyFrom('COPY sink_state_stage FROM STDIN')));
      await db.query(
        `INSERT INTO ${s}.sink_state (key, value) SELECT key, value FROM sink_state_stage ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      );
    }
    await db.query(
      `INSERT INTO ${s}.sink_state_head (height, hash, ref) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET height = EXCLUDED.height, hash = EXCLUDED.hash, ref = EXCLUDED.ref, updated_at = now()`,
      [rows.head.index, rows.head.hash, JSON.stringify(rows.head)],
    );
    await db.query('COMMIT');
    return written;
  } catch (e) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/** The state that saved `entries` hold (key, JSON), or null when one is of a record kind this binary does not know. */
export function imageOf(head: ParentRef, entries: Iterable<[string, string]>): StateImage | null {
  const accounts = new Map<string, Account>();
  const records = new Map<string, Map<string, unknown>>(RECORD_KINDS.map((k) => [k, new Map()]));
  let supply: StateImage['supply'] | undefined;
  for (const [key, json] of entries) {
    const value: unknown = JSON.parse(json);
    if (key.startsWith('a:')) accounts.set(key.slice(2), decodeAccount(value as StoredAccount));
    else if (key === 's') {
      const [emitted, burned, escrow, feesPaid] = (value as string[]).map(BigInt);
      supply = { emitted, burned, escrow, feesPaid };
    } else {
      const kindEnd = key.indexOf(':', 2);
      const m = records.get(key.slice(2, kindEnd));
      if (!m) return null;
      m.set(key.slice(kindEnd + 1), value);
    }
  }
  return supply ? { head, accounts, records, supply } : null;
}

/** COPY text's escapes undone (the sink's keys and JSON values hold no raw tab or newline). */
function copyUnescape(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(.)/g, (_m, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c));
}

/** Which saved state a caller can use: one above `above` (what it holds already), at most `atMost`. */
export interface StateWanted {
  above: number;
  atMost: number;
}

/** The saved state's head, when it is the block `hashAt` names at its height and within `wanted`. */
async function usableHead(
  db: pg.ClientBase,
  s: string,
  wanted: StateWanted,
  hashAt: (height: number) => Promise<string | undefined>,
): Promise<ParentRef | null> {
  const { rows } = await db.query<{ ref: string }>(`SELECT ref FROM ${s}.sink_state_head`);
  if (!rows[0]) return null;
  const head = JSON.parse(rows[0].ref) as ParentRef;
  if (head.index <= wanted.above || head.index > wanted.atMost || (await hashAt(head.index)) !== head.hash) return null;
  return head;
}

/**
 * The saved state of `schema`, or null when there is none it may use: none saved, saved outside
 * `wanted`, on a block the mirror no longer holds (`hashAt`: the mirror's block hash at a height),
 * or holding a record kind this binary does not know.
 */
export async function loadState(
  db: pg.ClientBase,
  schema: string,
  wanted: StateWanted,
  hashAt: (height: number) => Promise<string | undefined>,
): Promise<StateImage | null> {
  const s = quoteIdent(schema);
  await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const head = await usableHead(db, s, wanted, hashAt);
    if (!head) return null;
    const entries: [string, string][] = [];
    let rest = '';
    const utf8 = new StringDecoder('utf8');
    const take = (line: string) => {
      const tab = line.indexOf('\t');
      entries.push([copyUnescape(line.slice(0, tab)), copyUnescape(line.slice(tab + 1))]);
    };
    const sinkLines = new Writable({
      write(chunk: Buffer, _enc, done) {
        const lines = (rest + utf8.write(chunk)).split('\n');
        rest = lines.pop() ?? '';
        for (const l of lines) take(l);
        done();
      },
    });
    await pipeline(db.query(copyTo(`COPY ${s}.sink_state (key, value) TO STDOUT`)), sinkLines);
    if (rest) take(rest);
    await db.query('COMMIT');
    return imageOf(head, entries);
  } finally {
    await db.query('ROLLBACK').catch(() => undefined);
  }
}
