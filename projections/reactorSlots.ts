/**
 * Reactors on the runner: attached from their saved position (caught up from stored blocks first),
 * detached with their rows kept, and rewound to a common ancestor after a reorganisation deeper
 * than the undo log.
 */
import type { Block } from '../core/block.ts';
import type { Projection } from './projection.ts';
import type { Reactor } from './reactor.ts';
import { minHeight, restoreFrom, type FoldMark, type RunnerParts, type Slot } from './slot.ts';

/**
 * Runs `reactor` from its saved position: a new one (or a new version) starts at the projections'
 * height; one behind them is caught up from `blocks` first. From then on it folds every block
 * with the projections, in the same batches, and steps back with them on a reorganisation.
 */
export async function attachReactor<S>(
  parts: RunnerParts,
  reactor: Reactor<S>,
  blocks: (from: number, to: number) => AsyncIterable<Block>,
): Promise<void> {
  if (parts.slots.has(reactor.name)) throw new Error(`duplicate projection or reactor ${reactor.name}`);
  await parts.batch.flush();
  parts.detached.delete(reactor.name);
  const sub = parts.store.sublevel(`p:${reactor.name}`);
  const top = minHeight(parts);
  const mark = (await parts.marks.get(reactor.name)) as FoldMark | undefined;
  let height = top;
  if (!mark || mark.version !== reactor.version) {
    await sub.clear();
    await parts.marks.put(reactor.name, { height: top, version: reactor.version });
  } else height = Math.min(mark.height, top);
  const state = await restoreFrom(sub, (rows) => reactor.restore(rows, parts.info));
  const slot: Slot = { p: reactorAsProjection(reactor), state, height, sub, reactor: reactor as Reactor };
  // Catch up from the log before joining the live fold; the log may grow meanwhile.
  for (;;) {
    const target = minHeight(parts);
    if (slot.height >= target) break;
    for await (const block of blocks(slot.height + 1, target))
      parts.batch.foldSlot(slot, block.index, () => reactor.react(slot.state as S, block), false);
    parts.batch.touch(slot);
    await parts.batch.flush();
  }
  parts.slots.set(reactor.name, slot);
}

/**
 * After a reorganisation deeper than the undo log (read models rebuilt from genesis), reactors
 * resume at the common ancestor so the new branch's blocks reach them; rows they wrote for the
 * dropped blocks stay (their consumers dedupe by id).
 */
export async function rewindReactors(parts: RunnerParts, ancestor: number): Promise<void> {
  await parts.batch.flush();
  for (const slot of parts.slots.values()) {
    if (!slot.reactor || slot.height <= ancestor) continue;
    slot.height = ancestor;
    await parts.marks.put(slot.p.name, { height: ancestor, version: slot.p.version });
  }
}

/** Stops running a reactor (its rows and saved position stay for the next attach). */
export async function detachReactor(parts: RunnerParts, name: string): Promise<void> {
  await parts.batch.flush();
  if (parts.slots.get(name)?.reactor) {
    parts.slots.delete(name);
    parts.detached.add(name);
  }
}

/** A reactor in a projection's clothes, for the slot machinery (it never folds a BlockEvent). */
function reactorAsProjection<S>(r: Reactor<S>): Projection<S> {
  return {
    name: r.name,
    version: r.version,
    init: (info) => r.init(info),
    apply: () => {
      throw new Error(`reactor ${r.name} folds blocks, not events`);
    },
    restore: (rows, info) => r.restore(rows, info),
  };
}
