/**
 * Invariant 6, memory and descriptors: the RSS of a node never restarted grows by at most
 * 32 MiB an hour after its first 10 minutes, judged by the least-squares slope of its one-minute
 * means (at least two minutes of them needed, else N/A); and no node's open descriptors grow
 * without bound: the last minute's mean may exceed the first minute's by at most 64. The slopes of
 * anonymous memory and of the JS heap (sampled once a minute from the node's /metrics) are
 * figures beside it, so growth can be told apart: the heap's own, malloc's, or mapped files.
 */
import { type InvariantResult, result, type RunFacts } from './runFacts.ts';

const WARMUP_MS = 10 * 60_000;
const MAX_SLOPE_MIB_H = 32;
const MAX_FD_GROWTH = 64;

/** Per node: slope of RSS (MiB/h; null when not judged), RSS range of the one-minute means, fds first/last. */
export interface NodeResources {
  node: string;
  restarted: boolean;
  slopeMiBh: number | null;
  /** The same slope for anonymous memory (RssAnon) and the JS heap in use, when sampled. */
  anonSlopeMiBh: number | null;
  heapSlopeMiBh: number | null;
  minuteMeansMiB: [number, number] | null;
  fds: [number, number] | null;
}

/** Means of `v` over each whole minute from `from`. */
function minuteMeans(points: { t: number; v: number }[], from: number): { t: number; v: number }[] {
  const buckets = new Map<number, number[]>();
  for (const p of points)
    if (p.t >= from) buckets.set(Math.floor((p.t - from) / 60_000), [...(buckets.get(Math.floor((p.t - from) / 60_000)) ?? []), p.v]);
  return [...buckets.entries()].sort((a, b) => a[0] - b[0]).map(([m, vs]) => ({ t: m, v: vs.reduce((a, b) => a + b, 0) / vs.length }));
}

/** Least-squares slope of y over x. */
export function slope(points: { t: number; v: number }[]): number {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.t, 0) / n;
  const my = points.reduce((a, p) => a + p.v, 0) / n;
  const num = points.reduce((a, p) => a + (p.t - mx) * (p.v - my), 0);
  const den = points.reduce((a, p) => a + (p.t - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

/** Slope in MiB/h of the one-minute means of `field` (KiB) after the warm-up, or null with fewer than three minutes. */
function slopeAfterWarmup(records: RunFacts['records'], field: string, start: number): number | null {
  const points = records.filter((r) => typeof r[field] === 'number').map((r) => ({ t: r.t, v: Number(r[field]) / 1024 }));
  const means = minuteMeans(points, start + WARMUP_MS);
  // Drop the last (partial) minute; slope per minute * 60 = per hour.
  return means.length >= 3 ? slope(means.slice(0, -1)) * 60 : null;
}

/** Checks memory and descriptors; answers the result and per-node figures. */
export function checkResources(f: RunFacts): { result: InvariantResult; nodes: NodeResources[] } {
  const violations: string[] = [];
  const out: NodeResources[] = [];
  let judged = 0;
  for (const { name } of f.nodes) {
    const samples = f.records.filter((r) => r.type === 'sample' && r.node === name && typeof r.rssKb === 'number');
    const restarted = f.records.some((r) => r.type === 'start' && r.node === name && Number(r.run) > 1);
    const rss = samples.map((r) => ({ t: r.t, v: Number(r.rssKb) / 1024 }));
    const start = samples[0]?.t ?? 0;
    const slopeMiBh = restarted ? null : slopeAfterWarmup(samples, 'rssKb', start);
    const heaps = f.records.filter((r) => r.type === 'heap' && r.node === name);
    const anonSlopeMiBh = restarted ? null : slopeAfterWarmup(samples, 'anonKb', start);
    const heapSlopeMiBh = restarted ? null : slopeAfterWarmup(heaps, 'heapUsedKb', start);
    if (slopeMiBh !== null) {
      judged++;
      if (slopeMiBh > MAX_SLOPE_MIB_H)
        violations.push(`${name}: RSS grows ${slopeMiBh.toFixed(1)} MiB/h after its first 10 minutes (limit ${MAX_SLOPE_MIB_H})`);
    }
    const all = minuteMeans(rss, start);
    const lastRun = samples.filter((r) => r.run === samples.at(-1)?.run);
    const fdMeans = minuteMeans(
      lastRun.filter((r) => typeof r.fds === 'number').map((r) => ({ t: r.t, v: Number(r.fds) })),
      lastRun[0]?.t ?? 0,
    );
    const fds: [number, number] | null = fdMeans.length ? [Math.round(fdMeans[0].v), Math.round(fdMeans[fdMeans.length - 1].v)] : null;
    if (fds && fds[1] - fds[0] > MAX_FD_GROWTH)
      violations.push(`${name}: open descriptors grew from ${fds[0]} to ${fds[1]} (one-minute means)`);
    out.push({
      node: name,
      restarted,
      slopeMiBh,
      anonSlopeMiBh,
      heapSlopeMiBh,
      minuteMeansMiB: all.length ? [Math.min(...all.map((m) => m.v)), Math.max(...all.map((m) => m.v))] : null,
      fds,
    });
  }
  const figures = out
    .map((n) => {
      const range = n.minuteMeansMiB ? `${n.minuteMeansMiB[0].toFixed(0)}-${n.minuteMeansMiB[1].toFixed(0)} MiB` : 'no samples';
      const parts =
        n.anonSlopeMiBh === null ? '' : `; anonymous ${n.anonSlopeMiBh.toFixed(1)}, JS heap ${n.heapSlopeMiBh?.toFixed(1) ?? 'n/a'}`;
      const s = n.restarted ? 'restarted' : n.slopeMiBh === null ? 'slope n/a' : `${n.slopeMiBh.toFixed(1)} MiB/h${parts}`;
      return `${n.node} ${range} (${s}), fds ${n.fds ? `${n.fds[0]}->${n.fds[1]}` : 'n/a'}`;
    })
    .join('; ');
  return {
    result: result(
      '6 memory and descriptors',
      `${figures}${judged ? '' : ' (RSS slope not judged: no never-restarted node has 12 minutes of samples)'}`,
      violations,
      judged === 0 && violations.length === 0,
    ),
    nodes: out,
  };
}
