/**
 * Chart series over the analytics projection's hour buckets (projections/analytics.ts): one
 * point per UTC hour or day of a range ending with the latest block's hour, gaps filled (no
 * blocks: zeros, storage carried over). At most 720 hours are read, whatever the chain's length.
 */
import { type AnalyticsState, HOUR, RANGES, type Range } from '../projections/analytics.ts';

/** A series' step. */
export type SeriesStep = 'hour' | 'day';

/** The hours a step spans. */
const STEP_HOURS: Record<SeriesStep, number> = { hour: 1, day: 24 };

/** One point of a series: what happened from `start` (epoch ms, UTC) for one step. */
export interface SeriesPoint {
  start: number;
  blocks: number;
  txCount: number;
  /** Transactions per second over the step. */
  tps: number;
  /** Mean interval between blocks (ms), null without two blocks. */
  blockTimeMs: number | null;
  /** Distinct addresses that answered tasks or claimed agent runs. */
  activeMiners: number;
  /** Distinct addresses that submitted tasks or agent requests. */
  submitters: number;
  /** TASK_SUBMITs, and by task type. */
  tasks: number;
  taskTypes: Record<string, number>;
  fees: string;
  rewards: string;
  burned: string;
  /** The drive's storage used at the end of the step (bytes). */
  storageUsed: string;
}

/** A point being summed: the distinct addresses and block intervals it takes, beside it. */
interface Acc {
  point: SeriesPoint;
  miners: Set<string>;
  submitters: Set<string>;
  blockTimeMs: number;
  intervals: number;
}

const empty = (start: number, storageUsed: string): Acc => ({
  point: {
    start,
    blocks: 0,
    txCount: 0,
    tps: 0,
    blockTimeMs: null,
    activeMiners: 0,
    submitters: 0,
    tasks: 0,
    taskTypes: {},
    fees: '0',
    rewards: '0',
    burned: '0',
    storageUsed,
  },
  miners: new Set(),
  submitters: new Set(),
  blockTimeMs: 0,
  intervals: 0,
});

/** The points of `range` by `step`, oldest first (a day series starts at the range's first whole UTC day it touches). */
export function analyticsSeries(
  s: AnalyticsState,
  range: Range,
  step: SeriesStep,
): { range: Range; step: SeriesStep; points: SeriesPoint[] } {
  const lastHour = Math.floor(s.latest / HOUR);
  const firstHour = lastHour - RANGES[range] + 1;
  const span = STEP_HOURS[step];
  const firstStep = Math.floor(firstHour / span);
  const lastStep = Math.floor(lastHour / span);
  // The storage used before the range: the latest bucket before it, else the first in it.
  let storage = '0';
  let before = Number.NEGATIVE_INFINITY;
  for (const [k, b] of Object.entries(s.buckets)) {
    const h = Number(k);
    if (h < firstStep * span && h > before) [before, storage] = [h, b.storageUsed];
  }
  if (before === Number.NEGATIVE_INFINITY) {
    const inRange = Object.keys(s.buckets)
      .map(Number)
      .filter((h) => h >= firstStep * span);
    if (inRange.length) storage = s.buckets[Math.min(...inRange)].storageUsed;
  }
  const points: SeriesPoint[] = [];
  for (let n = firstStep; n <= lastStep; n++) {
    const acc = empty(n * span * HOUR, storage);
    for (let h = n * span; h < (n + 1) * span; h++) {
      const b = s.buckets[h];
      if (!b) continue;
      const p = acc.point;
      p.blocks += b.blocks;
      p.txCount += b.txCount;
      p.fees = (BigInt(p.fees) + BigInt(b.fees)).toString();
      p.rewards = (BigInt(p.rewards) + BigInt(b.rewards)).toString();
      p.burned = (BigInt(p.burned) + BigInt(b.burned)).toString();
      for (const [t, c] of Object.entries(b.taskTypes)) {
        p.taskTypes[t] = (p.taskTypes[t] ?? 0) + c;
        p.tasks += c;
      }
      for (const m of b.miners) acc.miners.add(m);
      for (const x of b.submitters) acc.submitters.add(x);
      acc.blockTimeMs += b.blockTimeMs;
      acc.intervals += b.intervals;
      storage = b.storageUsed;
      p.storageUsed = storage;
    }
    const p = acc.point;
    p.tps = Math.round((p.txCount / (span * 3600)) * 1000) / 1000;
    p.blockTimeMs = acc.intervals ? Math.round(acc.blockTimeMs / acc.intervals) : null;
    p.activeMiners = acc.miners.size;
    p.submitters = acc.submitters.size;
    points.push(p);
  }
  return { range, step, points };
}
