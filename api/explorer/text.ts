// Values as text, the way every page writes them: OMBRA amounts (core's formatter, shared with
// the command line and the CSV exports), bytes, durations, ages and UTC times. Pure: no page,
// no clock of its own (the time now is a parameter), so it runs and is tested anywhere.
import { formatOmbra } from '../../core/ombraAmount.ts';

/** A decimal string of micro-units, as the API sends amounts (or a safe integer): else null. */
export function microOf(v: unknown): bigint | null {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  return typeof v === 'string' && /^[0-9]+$/.test(v) ? BigInt(v) : null;
}

/** Micro-units as OMBRA text ("1,234.5 OMBRA"); anything else as it is. */
export function ombraText(micro: unknown): string {
  const v = microOf(micro);
  return v === null ? String(micro ?? '') : `${formatOmbra(v, { grouped: true })} OMBRA`;
}

/** Micro-units as a number of OMBRA, for a chart's axis (not exact past 2^53 micro-units: text uses ombraText); 0 for junk. */
export function ombraNumber(micro: unknown): number {
  const v = microOf(micro);
  return v === null ? 0 : Number(v) / 1e6;
}

/** The exact micro-units of an amount ("1,500,000"), for its title; anything else as it is. */
export function microText(micro: unknown): string {
  const v = microOf(micro);
  return v === null ? String(micro ?? '') : v.toLocaleString('en-US');
}

/** A count of bytes as "1.5 KiB (1,536 bytes)". */
export function bytesText(n: unknown): string {
  const v = Number(n);
  if (n === null || n === undefined || n === '' || !Number.isFinite(v)) return String(n ?? '');
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let x = v;
  let u = -1;
  while (x >= 1024 && u < units.length - 1) {
    x /= 1024;
    u++;
  }
  const exact = `${v.toLocaleString('en-US')} ${v === 1 ? 'byte' : 'bytes'}`;
  return u < 0 ? exact : `${x.toFixed(x < 10 ? 2 : 1)} ${units[u]} (${exact})`;
}

const UNITS: readonly [string, number][] = [
  ['d', 86400],
  ['h', 3600],
  ['min', 60],
  ['s', 1],
];

/** A duration in milliseconds as "1 h 2 min", "3.2 s" or "450 ms". */
export function durationText(ms: unknown): string {
  const v = Number(ms);
  if (ms === null || ms === undefined || ms === '' || !Number.isFinite(v)) return String(ms ?? '');
  if (v < 1000) return `${v} ms`;
  if (v < 60000) return `${Number((v / 1000).toFixed(1))} s`;
  const parts: string[] = [];
  let s = Math.round(v / 1000);
  for (const [unit, size] of UNITS) {
    if (s >= size) {
      parts.push(`${Math.floor(s / size)} ${unit}`);
      s %= size;
    }
  }
  return parts.slice(0, 2).join(' ');
}

/** How long ago (or how far ahead) a time is at `now`: "4 s ago", "3 min ago", "in 3 h". */
export function agoText(ms: number, now: number): string {
  const d = Math.round((now - ms) / 1000);
  const s = Math.abs(d);
  const text =
    s < 60 ? `${s} s` : s < 3600 ? `${Math.floor(s / 60)} min` : s < 86400 ? `${Math.floor(s / 3600)} h` : `${Math.floor(s / 86400)} d`;
  return d >= 0 ? `${text} ago` : `in ${text}`;
}

/** UTC text of a time: "2026-11-26 11:32:59 UTC". */
export const utcText = (ms: number): string => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

/** The first `n` and last 6 characters of a long id ("0a1b2c3d4e…9f8e7d"); a short one whole. */
export const shortId = (s: unknown, n = 10): string =>
  typeof s === 'string' && s.length > 2 * n + 1 ? `${s.slice(0, n)}…${s.slice(-6)}` : String(s);

/** "12 transactions", "1 transaction". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
