/**
 * The run's history: one JSON object a line in OUT/history.jsonl, each with its wall-clock time
 * `t` (epoch ms) and `type`. The runner only appends; the checker reads it afterwards.
 */
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';

/** One history line. */
export interface HistoryRecord {
  t: number;
  type: string;
  [k: string]: unknown;
}

/** A field of a record as the strings it lists (anything else dropped): node names, hashes. */
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/** A field of a record as an object of fields, or null when it is none (a JSON body, a nested record). */
export const fields = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v } : null;

/** A field of a record as the objects it lists. */
export const objects = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map(fields).filter((x) => x !== null) : []);

/** A field of a record as a number, or undefined when it is none. */
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** The history file of a run directory. */
const historyFile = (dir: string) => join(dir, 'history.jsonl');

/** Appends records to a run's history. */
export class History {
  private readonly out: WriteStream;
  /** Records written so far, by type (the runner's progress line). */
  readonly counts = new Map<string, number>();

  constructor(dir: string) {
    this.out = createWriteStream(historyFile(dir), { flags: 'a' });
  }

  /** Writes one record stamped with the current time. */
  record(type: string, fields: Record<string, unknown> = {}): void {
    this.counts.set(type, (this.counts.get(type) ?? 0) + 1);
    this.out.write(`${JSON.stringify({ t: Date.now(), type, ...fields }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
  }

  /** Flushes and closes the file. */
  close(): Promise<void> {
    return new Promise((resolve) => this.out.end(resolve));
  }
}

/** Reads a history file; a torn last line (a crash mid-write) is skipped. */
export function readHistory(dir: string): HistoryRecord[] {
  const out: HistoryRecord[] = [];
  for (const line of readFileSync(historyFile(dir), 'utf8').split('\n')) {
    if (!line) continue;
    try {
      const r = fields(JSON.parse(line));
      if (r && typeof r.t === 'number' && typeof r.type === 'string') out.push({ ...r, t: r.t, type: r.type });
    } catch {
      // Only the last line can be torn; anything else would be the runner's bug, shown by the checker's figures.
    }
  }
  return out;
}
