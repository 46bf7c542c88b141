/** State-machine tables shared by tasks and agent runs: rows, lookup and the refusal. */
import { ChainError } from '../errors.ts';

/** One row of a transition table. */
export interface Transition<S extends string, T extends string> {
  from: S | null;
  on: T;
  to: S;
  when: string;
}

/**
 * The row that lets `on` move a record out of `from` (into `to` when given), or a
 * VALIDATION_FAILED naming the record's current state (`what`).
 */
export function transitionRow<S extends string, T extends string>(
  table: readonly Transition<S, T>[],
  from: S | null,
  on: T,
  what: string,
  to?: S,
): Transition<S, T> {
  const row = table.find((t) => t.from === from && t.on === on && (to === undefined || t.to === to));
  if (!row) throw new ChainError('VALIDATION_FAILED', `${on} is not allowed: ${what}`);
  return row;
}

/** A transition table as Markdown lines, for the protocol reference. */
export function transitionTable<S extends string, T extends string>(table: readonly Transition<S, T>[]): string[] {
  const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    '| from | trigger | to | condition and effect |',
    '|---|---|---|---|',
    ...table.map((t) => `| ${t.from ?? '(none)'} | ${t.on} | ${t.to} | ${cell(t.when)} |`),
  ];
}
