/** The shape of one checked invariant: its name, verdict, one line of figures and details for the report. */

/** PASS, FAIL, or N/A when the run cannot judge it (too short, nothing to judge). */
type Verdict = 'PASS' | 'FAIL' | 'N/A';

/** One invariant's outcome. */
export interface InvariantResult {
  name: string;
  verdict: Verdict;
  /** The figures, one line. */
  figures: string;
  /** Evidence: the first few violations, each a line. */
  details: string[];
}

/** A result, failing when `violations` is non-empty (at most 8 of them kept as details). */
export function result(name: string, figures: string, violations: string[], na = false): InvariantResult {
  return { name, verdict: na ? 'N/A' : violations.length ? 'FAIL' : 'PASS', figures, details: violations.slice(0, 8) };
}
