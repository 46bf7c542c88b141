/**
 * Log line formats. `json`: one object a line, `{time, level, msg, ...fields}` (what log
 * shippers read). `pretty`: `time LEVEL msg key=value ...` for people. Both escape every
 * control character, so a field holding user input (a gossip reason, a URL) can never forge a
 * line or move a terminal's cursor.
 */

/** How log lines are written. */
export type LogFormat = 'json' | 'pretty';

/** The formats `--log-format` accepts. */
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

/** Pretty on a terminal, JSON otherwise (a pipe, a file, a service manager). */
export function defaultLogFormat(stream: { isTTY?: boolean } = process.stderr): LogFormat {
  return stream.isTTY ? 'pretty' : 'json';
}

/** Keys a line owns: a field with one of these names is written as `field.<name>`. */
const RESERVED = new Set(['time', 'level', 'msg']);

// C0 controls, DEL, C1 controls, and the Unicode line/paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** A string with every control character written as a `\uXXXX` escape (`\n`, `\t` as such). */
export function escapeControl(s: string): string {
  return s.replace(CONTROL, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\t') return '\\t';
    if (ch === '\r') return '\\r';
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

// What JSON.stringify leaves raw inside strings: DEL, C1 controls, U+2028/9.
const JSON_RAW = /[\u007f-\u009f\u2028\u2029]/g;

/**
 * JSON.stringify that writes bigints as decimal strings and errors as `{name, message}`, and
 * escapes what JSON leaves raw (it only occurs inside strings, where `\uXXXX` means the same).
 */
function toJson(v: unknown): string {
  const json = JSON.stringify(v, (_k, x) => {
    if (typeof x === 'bigint') return x.toString();
    if (x instanceof Error) return { name: x.name, message: x.message };
    return x;
  });
  return json?.replace(JSON_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The fields of a line, with reserved names moved aside and undefined values dropped. */
function entries(fields: Record<string, unknown> | undefined): [string, unknown][] {
  if (!fields) return [];
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [RESERVED.has(k) ? `field.${k}` : k, v]);
}

/** One JSON line: no raw control character anywhere (JSON escapes C0, toJson the rest). */
export function jsonLine(time: Date, level: string, msg: string, fields?: Record<string, unknown>): string {
  const obj: Record<string, unknown> = { time: time.toISOString(), level, msg };
  for (const [k, v] of entries(fields)) obj[k] = v;
  return `${toJson(obj)}\n`;
}

/** Plain words: what a pretty line writes bare (no space, quote, `=` or backslash; controls are escaped). */
const BARE = /^[^\s"=\\]+$/;

/** A value as pretty text: plain words stay bare, anything with spaces, quotes or `=` is quoted. */
function prettyValue(v: unknown): string {
  if (typeof v === 'string') return BARE.test(v) ? escapeControl(v) : toJson(v);
  return escapeControl(toJson(v) ?? String(v));
}

/** A field name as pretty text: bare when plain, quoted otherwise (a key from outside cannot fake `a=b`). */
function prettyKey(k: string): string {
  return BARE.test(k) ? escapeControl(k) : toJson(k);
}

/** One pretty line: `time LEVEL msg key=value ...`. */
export function prettyLine(time: Date, level: string, msg: string, fields?: Record<string, unknown>): string {
  const extra = entries(fields)
    .map(([k, v]) => ` ${prettyKey(k)}=${prettyValue(v)}`)
    .join('');
  return `${time.toISOString()} ${level.toUpperCase().padEnd(5)} ${escapeControl(msg)}${extra}\n`;
}
