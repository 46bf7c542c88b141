/**
 * Damage to the data dir below the block log's own hash chain: what LevelDB lost or cannot read.
 *
 * - LevelDB drops a torn or truncated tail of its write-ahead log without a word (it looks like a
 *   crash mid-write), so every clean stop records the head beside the database
 *   (`ombra-stopped-at.json`, written and synced after the database closes). A log that opens
 *   shorter than that record lost acknowledged blocks.
 * - A damaged record in the middle of the write-ahead log is skipped, and only LevelDB's info log
 *   (`LOG`, rewritten on every open) says so ("dropping N bytes"): later batches may have been
 *   applied over a missing one, so read models cannot be trusted.
 * - A damaged table answers reads with `LEVEL_CORRUPTION`.
 * Found damage is kept in the record until `ombra repair` clears it, so a second start cannot
 * pass a check the first start failed. The node refuses to start with one line naming the height
 * and the repair command (`LogIntegrityError`).
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { errorChain, errorCode, errorMessage } from '../../core/errors.ts';
import { fieldOf, isUint } from '../../core/encoding.ts';

/** The first fault found, by height (null: the height cannot be told). */
export interface LogFault {
  height: number | null;
  message: string;
  /** LevelDB itself reported corruption (the repair salvages its tables first). */
  corrupt?: boolean;
}

/** The record of the last clean stop, and damage found since and not yet repaired. */
export interface StopRecord {
  index: number;
  hash: string;
  damage?: LogFault;
}

/** The record's file name inside the LevelDB directory (LevelDB ignores names it did not make). */
const STOP_RECORD = 'ombra-stopped-at.json';

/** A damaged data dir found on open: the node refuses to start and names the repair. */
export class LogIntegrityError extends Error {
  readonly height: number | null;
  /** What is wrong, without the repair advice. */
  readonly reason: string;
  /** LevelDB itself reported corruption (the repair salvages its tables first). */
  readonly corrupt: boolean;
  constructor(fault: LogFault, dataDir: string) {
    super(
      `${fault.height === null ? 'the database is damaged' : `the block log is damaged at height ${fault.height}`}: ${fault.message}. ` +
        `Stop here and run \`ombra repair --data-dir ${dataDir}\` (it truncates the log to the last verified block and rebuilds the read models)`,
    );
    this.name = 'LogIntegrityError';
    this.height = fault.height;
    this.reason = fault.message;
    this.corrupt = fault.corrupt === true;
  }
}

/** True for LevelDB's report of a damaged table or log (`LEVEL_CORRUPTION`, anywhere in the cause chain). */
export function isCorruption(e: unknown): boolean {
  return errorChain(e).some((x) => errorCode(x) === 'LEVEL_CORRUPTION' || (x instanceof LogIntegrityError && x.corrupt));
}

/** `e` as the operator's one-line error when LevelDB reported corruption; otherwise `e` itself. */
export function explainCorruption(e: unknown, dataDir: string, what = 'LevelDB cannot read its data'): unknown {
  if (e instanceof LogIntegrityError || !isCorruption(e)) return e;
  return new LogIntegrityError({ height: null, message: `${what} (${errorMessage(e)})`, corrupt: true }, dataDir);
}

/** The stop record of the database in `dir`, if any (an unreadable one counts as none). */
export function readStopRecord(dir: string): StopRecord | null {
  const file = join(dir, STOP_RECORD);
  if (!existsSync(file)) return null;
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as StopRecord;
    return Number.isSafeInteger(r.index) && typeof r.hash === 'string' ? r : null;
  } catch {
    return null;
  }
}

/** Writes the stop record durably (a synced temporary file renamed over the old one). */
export function writeStopRecord(dir: string, record: StopRecord): void {
  const file = join(dir, STOP_RECORD);
  const fd = openSync(`${file}.tmp`, 'w');
  try {
    writeSync(fd, JSON.stringify(record));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(`${file}.tmp`, file);
}

/** The first line of LevelDB's info log from this open that reports skipped or corrupt log records. */
function recoveryFault(dir: string): string | null {
  let log: string;
  try {
    log = readFileSync(join(dir, 'LOG'), 'utf8');
  } catch {
    return null;
  }
  const line = log.split('\n').find((l) => /dropping \d+ bytes|Corruption:/.test(l));
  return line ? line.replace(/^\S+ \S+ /, '').trim() : null;
}

/** Damage a freshly opened database shows against its stop record and info log; null when none. */
export function damageOnOpen(dir: string, head: { index: number; hash: string } | null): LogFault | null {
  const record = readStopRecord(dir);
  if (record?.damage) return record.damage;
  const dropped = recoveryFault(dir);
  if (dropped)
    return { height: head ? head.index : null, message: `LevelDB skipped damaged records of its write-ahead log on open (${dropped})` };
  if (!record || !head) return null;
  if (head.index < record.index)
    return {
      height: head.index + 1,
      message: `the log ends at block ${head.index} but the node stopped at block ${record.index}: LevelDB lost the tail of its write-ahead log`,
    };
  if (head.index === record.index && head.hash !== record.hash)
    return { height: head.index, message: `block ${head.index} is not the block the node stopped at` };
  return null;
}

/** The narrow views of the store the head pointer's check reads. */
interface PointerViews {
  meta: { get(key: string): Promise<unknown> };
  blocks: { keys(opts: { reverse: true; limit: 1 }): AsyncIterable<string> };
}

/**
 * The stored head pointer, or the fault of a missing or damaged one (genesis written, so the
 * chain exists): `ombra repair` rebuilds it from the block log. A new database has neither.
 */
export async function headPointerOf(
  meta: PointerViews['meta'],
  blocks: PointerViews['blocks'],
): Promise<{ head: { index: number; hash: string } | null; fault: LogFault | null }> {
  const fault = async (what: string): Promise<LogFault> => {
    let top: string | null = null;
    for await (const key of blocks.keys({ reverse: true, limit: 1 })) top = key;
    const held = top === null ? 'the log holds no block' : `the log holds blocks up to ${Number(top)}`;
    return { height: null, message: `${what}; ${held}, from which the repair rebuilds it` };
  };
  let raw: unknown;
  try {
    raw = await meta.get('head');
  } catch (e) {
    if (isCorruption(e)) throw e;
    return { head: null, fault: await fault(`the head pointer cannot be decoded (${errorMessage(e).slice(0, 120)})`) };
  }
  if (raw === undefined)
    return { head: null, fault: (await meta.get('genesis')) === undefined ? null : await fault('the head pointer is missing') };
  const index = fieldOf(raw, 'index');
  const hash = fieldOf(raw, 'hash');
  if (!isUint(index) || typeof hash !== 'string')
    return { head: null, fault: await fault(`the head pointer is damaged (${JSON.stringify(raw)?.slice(0, 80)})`) };
  return { head: { index, hash }, fault: null };
}
