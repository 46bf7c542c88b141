/**
 * The runner's slots from and to disk: each projection loaded from its saved position (a
 * `FoldMark`), reset to genesis, or dumped as plain JSON (projections/runner.ts calls these).
 */
import { loadedState, type FoldMark, type RunnerParts, type Slot } from './slot.ts';

/** Loads every projection from its saved position; a missing one or a new version is `reset` to genesis. */
export async function loadSlots(parts: RunnerParts, reset: (slot: Slot) => Promise<void>): Promise<void> {
  for (const slot of parts.slots.values()) {
    if (slot.reactor) continue;
    const mark = (await parts.marks.get(slot.p.name)) as FoldMark | undefined;
    if (!mark || mark.version !== slot.p.version) {
      await reset(slot);
      continue;
    }
    slot.height = mark.height;
    slot.state = await loadedState(slot, mark.saved, parts.info);
  }
}

/** Drops a projection's rows and saved position; it restarts from genesis. */
export async function resetSlot(parts: RunnerParts, slot: Slot): Promise<void> {
  // The saved position goes first: a kill -9 between the two leaves rows without one, which
  // the next start clears again, never a saved position over missing rows.
  await parts.marks.del(slot.p.name);
  await slot.sub.clear();
  slot.state = slot.p.init(parts.info);
  slot.height = 0;
}

/**
 * Every read model as plain JSON: saved state or rows, per projection (big integers as
 * strings), from what is on disk (flush first).
 */
export async function dumpSlots(parts: RunnerParts): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const slot of parts.slots.values()) {
    // Reactors are node-local, not read models.
    if (slot.reactor) continue;
    const rows: [string, unknown][] = [];
    for await (const entry of slot.sub.iterator()) rows.push(entry);
    const memory = slot.p.save ? slot.p.save(slot.state) : null;
    out[slot.p.name] = { height: slot.height, memory, rows };
  }
  return JSON.parse(JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
}
