/**
 * Invariant 1, agreement: every node's block hash and stateRoot agree at every height at least
 * the finality depth below the lowest final head, and no stream saw a reorganisation deeper than
 * the finality depth. Heights nearer the head are compared too and reported (a settled network
 * agrees there as well), but only the final zone fails the invariant.
 */
import { type InvariantResult, result } from './invariant.ts';
import type { RunFacts } from './runFacts.ts';

/** Checks agreement. */
export function checkAgreement(f: RunFacts): InvariantResult {
  const violations: string[] = [];
  const chains = [...f.chains.entries()];
  if (chains.length === 0)
    return result('1 agreement', 'no chain was swept', ['no node chain in the history (the run did not reach its sweep)']);
  const minHead = Math.min(...chains.map(([, c]) => Math.max(...c.keys())));
  const finalTop = minHead - f.finalityDepth;
  let compared = 0;
  let nearDiffer = 0;
  for (let h = 0; h <= minHead; h++) {
    const seen = chains.map(([n, c]) => [n, c.get(h)] as const).filter(([, b]) => b !== undefined);
    if (seen.length < 2) continue;
    compared++;
    const ref = seen[0][1];
    const differ = seen.filter(([, b]) => b?.hash !== ref?.hash || b?.stateRoot !== ref?.stateRoot);
    if (!differ.length) continue;
    const what = seen.map(([n, b]) => `${n}=${b?.hash.slice(0, 10)}/${b?.stateRoot.slice(0, 10)}`).join(' ');
    if (h <= finalTop) violations.push(`height ${h} (final zone) differs: ${what}`);
    else nearDiffer++;
  }
  let deepest = 0;
  for (const r of f.records) {
    if (r.type !== 'stream' || r.event !== 'reorg') continue;
    const old = (r.oldHead as { index?: number; height?: number } | undefined) ?? {};
    const depth = Number(old.index ?? old.height ?? r.fromHeight) - Number(r.fromHeight) + 1;
    deepest = Math.max(deepest, depth);
    if (depth > f.finalityDepth)
      violations.push(`${r.sub} saw a reorg of depth ${depth} from height ${r.fromHeight} (finality depth ${f.finalityDepth})`);
  }
  const figures =
    `${chains.length} nodes, ${compared} heights compared (lowest head ${minHead}, final zone 0..${Math.max(-1, finalTop)} at depth ${f.finalityDepth}), ` +
    `${nearDiffer} differing heights above the final zone, deepest reorg seen ${deepest}`;
  return result('1 agreement', figures, violations);
}
