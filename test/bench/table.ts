/**
 * The table: every measure beside its same-run baseline, as a ratio with its goal, and
 * the machine it ran on. Sections add rows; `run.ts` prints them all at the end.
 */
import { cpus, loadavg, totalmem } from 'node:os';

/** One row: what the node did, what the baseline did in the same run, their ratio. */
export interface BenchRow {
  measure: string;
  node: string;
  baseline: string;
  /** node / baseline (for memory: node / baseline too, lower is better). */
  ratio: number | null;
  goal: string;
  /** Whether the ratio meets the goal (null: no ratio goal). */
  met: boolean | null;
}

export const rows: BenchRow[] = [];

/** The machine, as printed above the table. */
export function machine(): string {
  const c = cpus();
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  return `${c.length} x ${c[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load average ${load}`;
}

/** Median of a list. */
export const median = (a: readonly number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

/** "min-max" of a list, rounded. */
export const range = (a: readonly number[], digits = 0): string =>
  a.length > 1 ? `${Math.min(...a).toFixed(digits)}-${Math.max(...a).toFixed(digits)}` : (a[0]?.toFixed(digits) ?? '');

/** Adds a row; `atLeast`/`atMost` is the goal on the ratio. */
export function addRow(row: Omit<BenchRow, 'met' | 'goal'> & { atLeast?: number; atMost?: number; goal?: string; met?: boolean }): void {
  const { atLeast, atMost, ...rest } = row;
  const goal = row.goal ?? (atLeast !== undefined ? `>= ${atLeast}` : atMost !== undefined ? `<= ${atMost}x` : '-');
  const met =
    row.met ??
    (row.ratio === null ? null : atLeast !== undefined ? row.ratio >= atLeast : atMost !== undefined ? row.ratio <= atMost : null);
  rows.push({ ...rest, goal, met });
}

/** The table in Markdown. */
export function printTable(): void {
  if (rows.length === 0) return;
  console.log(`\nmachine: ${machine()}`);
  console.log('| measure | node | baseline in the same run | ratio | goal | met |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const ratio = r.ratio === null ? '-' : r.ratio.toFixed(2);
    const met = r.met === null ? '-' : r.met ? 'yes' : 'no';
    console.log(`| ${r.measure} | ${r.node} | ${r.baseline} | ${ratio} | ${r.goal} | ${met} |`);
  }
}
