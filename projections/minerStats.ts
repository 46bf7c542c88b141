/**
 * Miner reputation and completed tasks, folded from each block's TASK_VALIDATE and TASK_REWARD
 * transactions (every transaction in a block applied, so each task is validated and rewarded once):
 * reputationScore is the mean validation score (0-100) a miner's responses received,
 * tasksCompleted the number of rewarded tasks it won.
 */
import { isTx } from '../core/tx/handler.ts';
import { TASK_REWARD, TASK_VALIDATE } from '../core/tx/task/task.ts';
import type { BlockEvent } from './events.ts';
import type { Projection } from './projection.ts';

/** One miner's figures. */
interface MinerFigures {
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
export const minerStatsProjection: Projection<MinerStats, MinerStats> = {
  name: 'minerStats',
  // 2: folds from the block's TASK_VALIDATE and TASK_REWARD transactions; version 1 read the
  // status of each changed record and missed the scores of a task validated and rewarded in one block.
  version: 2,
  init: () => ({}),
  apply(s, ev: BlockEvent) {
    for (const tx of ev.txs) {
      if (isTx(tx, TASK_VALIDATE)) {
        for (const { minerId, score } of tx.scores) {
          const m = bump(s, minerId);
          m.scoreSum += score;
          m.scoreCount += 1;
        }
      } else if (isTx(tx, TASK_REWARD)) {
        const best = ev.diff.records.tasks.get(tx.taskId)?.bestMinerId;
        if (best) bump(s, best).tasksCompleted += 1;
      }
    }
    return { state: s };
  },
  save: (s) => s,
  load: (saved) => saved,
};

/** The public figures of a miner. */
export function minerFigures(s: MinerStats, id: string): { reputationScore: number; tasksCompleted: number } {
  const m = s[id];
  if (!m) return { reputationScore: 0, tasksCompleted: 0 };
  return { reputationScore: m.scoreCount ? Math.round((m.scoreSum / m.scoreCount) * 100) / 100 : 0, tasksCompleted: m.tasksCompleted };
}
