/**
 * A projection store over a LevelDB of its own, for tests that run projections through the real
 * ProjectionRunner on synthetic block events (no node, no blocks to sign).
 */
import { join } from 'node:path';
import { Level } from 'level';
import type { BlockEvent, ChainInfo } from '../../projections/events.ts';
import type { Projection } from '../../projections/projection.ts';
import { ProjectionRunner } from '../../projections/runner.ts';
import type { ProjectionStore, RowOp } from '../../projections/store.ts';

/** A runner of `projections` over the database in `dir` (created if new), loaded from their saved positions. */
export async function openRunner(
  dir: string,
  projections: Projection<any>[],
  info: Partial<ChainInfo>,
): Promise<{ runner: ProjectionRunner; close: () => Promise<void> }> {
  const db = new Level<string, unknown>(join(dir, 'db'), { valueEncoding: 'json' });
  await db.open();
  const store: ProjectionStore = {
    sublevel: (name) => db.sublevel<string, unknown>(name, { valueEncoding: 'json' }) as never,
    write: (ops: readonly RowOp[]) => db.batch(ops as never),
    head: () => null,
  };
  const runner = new ProjectionRunner(store, projections, info as ChainInfo, 4);
  await runner.load();
  return {
    runner,
    async close() {
      await runner.stop();
      await db.close();
    },
  };
}

/** Folds `events` as the node does: each block's rows read back first (`prepare`), then folded. */
export async function foldEvents(runner: ProjectionRunner, events: readonly BlockEvent[]): Promise<void> {
  for (const ev of events) {
    await runner.prepare(ev);
    runner.fold(ev);
  }
}
