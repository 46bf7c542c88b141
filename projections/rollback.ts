/**
 * Stepping read models back to a common ancestor through the undo log, for a reorganisation:
 * rows restored and saved positions moved in one batch, in-memory states reverted or reloaded.
 */
import type { ChainInfo } from './events.ts';
import type { Projection } from './projection.ts';
import { loadedState, rowsByName, type FoldMark, type RunnerParts, type Slot } from './slot.ts';
import type { UndoEntry } from './undoLog.ts';

/**
 * Steps every read model back to `ancestor` through the undo log: rows restored and
 * saved positions moved in one batch, in-memory states reloaded. False (nothing changed) when the
 * log does not reach that far; the caller then rebuilds from genesis.
 */
export async function rollbackTo(parts: RunnerParts, ancestor: number): Promise<boolean> {
  await parts.batch.flush();
  const heights = [...parts.slots.values()].map((x) => x.height);
  const top = Math.max(...heights);
  if (heights.some((x) => x !== top)) return false;
  if (top <= ancestor) return top === ancestor;
  const r = await parts.undo.rollback(ancestor, top, (name) => rowsByName(parts, name));
  if (!r) return false;
  const reverted = new Map<Slot, unknown>();
  for (const slot of parts.slots.values()) {
    if (!slot.p.revert) continue;
    const state = revertTo(slot.p, slot.state, r.entries.get(slot.p.name) ?? [], top - ancestor, parts.info);
    if (state === undefined) return false;
    reverted.set(slot, state);
  }
  for (const slot of parts.slots.values()) {
    const mark: FoldMark = { height: ancestor, version: slot.p.version };
    if (reverted.has(slot) && slot.p.save) mark.saved = structuredClone(slot.p.save(reverted.get(slot)));
    else if (slot.p.save) mark.saved = r.saved.get(slot.p.name);
    r.ops.push({ type: 'put', sublevel: parts.marks, key: slot.p.name, value: mark });
  }
  // A detached reactor's rows stepped back too: so does its saved position.
  for (const name of parts.detached) {
    const mark = (await parts.marks.get(name)) as FoldMark | undefined;
    if (mark && mark.height > ancestor) r.ops.push({ type: 'put', sublevel: parts.marks, key: name, value: { ...mark, height: ancestor } });
  }
  await parts.store.write(r.ops as never);
  for (const slot of parts.slots.values()) {
    slot.height = ancestor;
    slot.state = reverted.has(slot) ? reverted.get(slot) : await loadedState(slot, r.saved.get(slot.p.name), parts.info);
  }
  return true;
}

/**
 * A projection with `revert` stepped back over `blocks` blocks from `state` (left untouched: a
 * copy is reverted) through their undo entries, highest first; undefined when the entries do not
 * cover every block. An entry written with the whole state before its block (`saved`) restarts
 * the walk from that state.
 */
// biome-ignore lint/suspicious/noExplicitAny: slots hold projections of different state types
function revertTo(p: Projection<any>, state: unknown, entries: UndoEntry[], blocks: number, info: ChainInfo): unknown {
  if (!p.save || !p.load || !p.revert || entries.length !== blocks) return undefined;
  let s = p.load(structuredClone(p.save(state)), info);
  for (const e of entries) {
    if (e.hasUndo) s = p.revert(s, e.undo);
    else if (e.hasSaved) s = p.load(e.saved, info);
    else return undefined;
  }
  return s;
}
