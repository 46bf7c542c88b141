/**
 * The checker (Jepsen style): reads a run's history afterwards, checks the seven invariants and
 * the relay precondition, and writes the report: one line per invariant with its figures and
 * verdict, the evidence of each failure, and the run's summary figures.
 */
import { readHistory } from '../history.ts';
import { checkAgreement, checkRouting } from './agreement.ts';
import { checkExits } from './exits.ts';
import { checkLiveness } from './liveness.ts';
import { checkResources } from './resources.ts';
import { type InvariantResult, runFacts } from './runFacts.ts';
import { checkStreams } from './streams.ts';
import { summaryLines } from './summary.ts';
import { checkTxInclusion } from './txInclusion.ts';
import { checkWebhooks } from './webhooks.ts';
import type { HistoryRecord } from '../history.ts';

/** The checked run: every invariant's result, the report as Markdown, and whether any failed. */
export interface CheckedRun {
  results: InvariantResult[];
  summary: string[];
  markdown: string;
  failed: boolean;
}

/** Checks the history records of a run (`dir` locates its genesis and docs). */
export function checkRecords(records: HistoryRecord[], dir?: string): CheckedRun {
  const f = runFacts(records, dir);
  const liveness = checkLiveness(f);
  const txs = checkTxInclusion(f);
  const resources = checkResources(f);
  const results = [
    checkRouting(f),
    checkAgreement(f),
    liveness.result,
    txs.result,
    checkStreams(f),
    checkWebhooks(f),
    resources.result,
    checkExits(f),
  ];
  const summary = summaryLines(f, liveness.figures, txs.figures, resources.nodes);
  const lines = ['# e2e report', '', ...(dir ? [`Run: \`${dir}\``, ''] : []), '## Invariants', ''];
  for (const r of results) lines.push(`- **${r.verdict}** ${r.name}: ${r.figures}`);
  const failures = results.filter((r) => r.details.length);
  if (failures.length) {
    lines.push('', '## Evidence', '');
    for (const r of failures) {
      lines.push(`### ${r.name}`, '');
      for (const d of r.details) lines.push(`- ${d}`);
      lines.push('');
    }
  }
  lines.push('', '## Summary', '', ...summary.map((s) => `- ${s}`), '');
  return { results, summary, markdown: lines.join('\n'), failed: results.some((r) => r.verdict === 'FAIL') };
}

/** Checks the run in `dir`. */
export function checkRun(dir: string): CheckedRun {
  return checkRecords(readHistory(dir), dir);
}
