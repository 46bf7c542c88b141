/** What `ombra simulate` prints: a progress line every few seconds and a summary table per kind. */
import type { SimCounts } from '../simulator/simClient.ts';
import { duration, significant } from './progress.ts';

/** Per transaction type: sent (accepted by the node) and refused (by code). */
export interface KindRow {
  kind: string;
  sent: number;
  refused: number;
  codes: string;
}

/** The rows of the summary, one per type that was sent or refused, busiest first. */
export function kindRows(counts: SimCounts): KindRow[] {
  const rows = new Map<string, KindRow>();
  const row = (kind: string): KindRow => {
    const known = rows.get(kind);
    if (known) return known;
    const fresh = { kind, sent: 0, refused: 0, codes: '' };
    rows.set(kind, fresh);
    return fresh;
  };
  for (const [kind, n] of Object.entries(counts.sent)) row(kind).sent += n;
  for (const [key, n] of Object.entries(counts.refused)) {
    const [kind, code] = key.split(' ');
    const r = row(kind);
    r.refused += n;
    r.codes = r.codes ? `${r.codes}, ${code} ${n}` : `${code} ${n}`;
  }
  return [...rows.values()].sort((a, b) => b.sent + b.refused - (a.sent + a.refused) || a.kind.localeCompare(b.kind));
}

function total(rec: Record<string, number>): number {
  return Object.values(rec).reduce((a, b) => a + b, 0);
}

/** `12 s: 340 txs accepted (28.3/s), 2 refused; TRANSFER 120, TASK_SUBMIT 40, ...` */
export function progressLine(counts: SimCounts, elapsedMs: number): string {
  const sent = total(counts.sent);
  const top = kindRows(counts)
    .slice(0, 5)
    .map((r) => `${r.kind} ${r.sent}${r.refused ? `/${r.refused} refused` : ''}`)
    .join(', ');
  return `${duration(elapsedMs / 1000)}: ${sent} txs accepted (${significant(elapsedMs > 0 ? (sent * 1000) / elapsedMs : 0)}/s), ${total(counts.refused)} refused${top ? `; ${top}` : ''}`;
}

/** The summary table: type, accepted, refused, refusal codes; and a total row. */
export function summaryTable(counts: SimCounts, elapsedMs: number): string {
  const rows = kindRows(counts);
  const width = Math.max(4, ...rows.map((r) => r.kind.length));
  const line = (a: string, b: string, c: string, d: string) => `${a.padEnd(width)}  ${b.padStart(8)}  ${c.padStart(7)}  ${d}`.trimEnd();
  return [
    line('type', 'accepted', 'refused', 'refusal codes'),
    ...rows.map((r) => line(r.kind, String(r.sent), String(r.refused), r.codes)),
    line('total', String(total(counts.sent)), String(total(counts.refused)), `in ${duration(elapsedMs / 1000)}`),
  ].join('\n');
}
