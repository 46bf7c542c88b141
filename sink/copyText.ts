/**
 * PostgreSQL's COPY text format: one line per row, columns separated by tabs, `\N` for NULL, and
 * backslash, tab, newline and carriage return escaped. Faster to produce and to load than
 * parameterised inserts (docs/sink.md has the measurement).
 */

/** A column value as the sink produces it. */
export type CopyValue = string | number | bigint | boolean | null;

const SPECIAL = /[\\\t\n\r]/;

function escapeText(s: string): string {
  if (!SPECIAL.test(s)) return s;
  return s.replaceAll('\\', '\\\\').replaceAll('\t', '\\t').replaceAll('\n', '\\n').replaceAll('\r', '\\r');
}

/** One row as a COPY text line (with its newline). */
export function copyLine(values: readonly CopyValue[]): string {
  let out = '';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += '\t';
    if (v === null) out += '\\N';
    else if (typeof v === 'string') out += escapeText(v);
    else if (typeof v === 'boolean') out += v ? 't' : 'f';
    else out += String(v);
  }
  return `${out}\n`;
}

/** Rows as COPY text in chunks of about 256 KiB (one stream write per row would cost more than the row). */
export function* copyChunks(rows: Iterable<readonly CopyValue[]>): Generator<string> {
  let buf = '';
  for (const r of rows) {
    buf += copyLine(r);
    if (buf.length >= 262_144) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

const bigintAsString = (_k: string, x: unknown) => (typeof x === 'bigint' ? x.toString() : x);

/** JSON with bigints as decimal strings (jsonb has no integer wider than a double). */
export function jsonText(v: unknown): string {
  // Signed transactions and records hold none (their big integers are strings already): without a
  // replacer JSON.stringify runs several times faster, and throws on the rare value that does.
  try {
    return JSON.stringify(v);
  } catch {
    return JSON.stringify(v, bigintAsString);
  }
}
