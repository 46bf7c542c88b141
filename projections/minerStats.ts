/**
 * Miner reputation and completed tasks, folded from task records as blocks change them:
 * reputationScore is the mean validation score (0-100) a miner's responses received,
 * tasksCompleted the number of rewarded tasks it won.
 */
import type { BlockEvent } from './events.ts';
import type { Projection } from './projection.ts';

/** One miner's figures. */
export interface MinerFigures {
  scoreSum: number;
  scoreCount: number;
  tasksCompleted: number;
}

/** Figures by miner id. */
export type MinerStats = Record<string, MinerFigures>;

function bump(s: MinerStats, id: string): MinerFigures {
  s[id] ??= { scoreSum: 0, scoreCount: 0, tasksCompleted: 0 };
  return s[id];
}

/** Reputation and completed tasks per miner. */
export const minerStatsProjection: Projection<MinerStats> = {
  name: 'minerStats',
  version: 1,
  init: () => ({}),
  apply(s, ev: BlockEvent) {
    for (const t of ev.diff.records.tasks.values()) {
      // A task is validated and rewarded at most once each, so each status is seen once.
      if (t.status === 'validated' && t.scores) {
        for (const { minerId, score } of t.scores) {
          const m = bump(s, minerId);
          m.scoreSum += score;
          m.scoreCount += 1;
        }
      } else if (t.status === 'rewarded' && t.bestMinerId) {
        bump(s, t.bestMinerId).tasksCompleted += 1;
      }
    }
    return { state: s };
  },
  save: (s) => s,
  load: (saved) => saved as MinerStats,
};

/** The public figures of a miner. */
export function minerFigures(s: MinerStats, id: string): { reputationScore: number; tasksCompleted: number } {
  const m = s[id];
  if (!m) return { reputationScore: 0, tasksCompleted: 0 };
  return { reputationScore: m.scoreCount ? Math.round((m.scoreSum / m.scoreCount) * 100) / 100 : 0, tasksCompleted: m.tasksCompleted };
}
