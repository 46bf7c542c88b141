/**
 * Invariant 2, liveness: with a majority of authorities connected, the network's head (the
 * highest height any node was seen at, from samples and stream events) grows again within 3
 * block times (plus 1 s of measurement) of every perturbation's start and end; after the last
 * perturbation every node reaches the head the network had when it ended within 60 s.
 */
import { type InvariantResult, majorityConnected, result, type RunFacts, secs } from './runFacts.ts';

/** Convergence allowed after the last perturbation. */
const CONVERGE_MS = 60_000;

/** Liveness figures the summary reuses. */
export interface LivenessFigures {
  worstStallMs: number;
  /** Per perturbation: ms until every node reached the network head at its end (null: never). */
  convergence: { id: number; kind: string; ms: number | null }[];
}

/** Every observation of any node's head, in time order. */
function networkObservations(f: RunFacts): { t: number; height: number }[] {
  return [...f.heights.values()].flat().sort((a, b) => a.t - b.t);
}

/** Checks liveness; answers the result and the figures. */
export function checkLiveness(f: RunFacts): { result: InvariantResult; figures: LivenessFigures } {
  const obs = networkObservations(f);
  const maxAt = (t: number) => obs.reduce((m, o) => (o.t <= t && o.height > m ? o.height : m), -1);
  const growthAfter = (t: number): number | null => {
    const h = maxAt(t);
    const next = obs.find((o) => o.t > t && o.height > h);
    return next ? next.t - t : null;
  };
  const limit = 3 * f.blockTimeMs + 1000;
  const violations: string[] = [];
  for (const p of f.perturbations) {
    const events: [string, number, boolean][] = [['start', p.start, majorityConnected(f, p)]];
    if (p.end !== null) events.push(['end', p.end, true]);
    for (const [what, t, majority] of events) {
      if (!majority) continue;
      const g = growthAfter(t);
      if (g === null || g > limit)
        violations.push(
          `#${p.id} ${p.kind} ${p.nodes.join(',') || p.groups?.map((x) => x.join(',')).join(' | ')} ${what}: head grew ${g === null ? 'never' : `after ${secs(g)}`} (limit ${secs(limit)})`,
        );
    }
  }
  // Worst stall: longest time without the network head growing, between the start of load and the sweep.
  let worst = 0;
  let last = f.perturbStart;
  let top = maxAt(f.perturbStart);
  for (const o of obs) {
    if (o.t < f.perturbStart || o.t > f.end) continue;
    if (o.height > top) {
      worst = Math.max(worst, o.t - last);
      last = o.t;
      top = o.height;
    }
  }
  worst = Math.max(worst, f.end - last);
  const convergence = f.perturbations
    .flatMap((p) => (p.end === null ? [] : [{ ...p, end: p.end }]))
    .map((p) => {
      const target = maxAt(p.end);
      let ms = 0;
      for (const n of f.nodes) {
        const seen = (f.heights.get(n.name) ?? []).find((o) => o.t >= p.end && o.height >= target);
        if (!seen) return { id: p.id, kind: p.kind, ms: null };
        ms = Math.max(ms, seen.t - p.end);
      }
      return { id: p.id, kind: p.kind, ms };
    });
  const lastConv = convergence.at(-1);
  if (lastConv && (lastConv.ms === null || lastConv.ms > CONVERGE_MS))
    violations.push(
      `after the last perturbation (#${lastConv.id} ${lastConv.kind}) the nodes converged ${lastConv.ms === null ? 'never' : `in ${secs(lastConv.ms)}`} (limit 60 s)`,
    );
  const known = convergence.flatMap((c) => (c.ms === null ? [] : [c.ms]));
  const figures =
    `${f.perturbations.length} perturbations, growth limit ${secs(limit)}, worst stall ${secs(worst)}, ` +
    `convergence after each: max ${known.length ? secs(Math.max(...known)) : 'n/a'}, last ${lastConv ? (lastConv.ms === null ? 'never' : secs(lastConv.ms)) : 'n/a'}`;
  return { result: result('2 liveness', figures, violations), figures: { worstStallMs: worst, convergence } };
}
