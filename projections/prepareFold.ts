/**
 * The read before a fold: models that keep a bounded cache of their rows name the rows a block
 * needs that their cache lost (`Projection.needs`), and take them back (`take`) before the block
 * is folded. The runner asks it of every block (projections/runner.ts `prepare`).
 */
import type { BlockEvent } from './events.ts';
import type { RunnerParts, Slot } from './slot.ts';

/**
 * Row operations a writer may queue ahead of the disk before it waits for the batch in flight
 * (a few blocks of 500 transfers to new accounts; ~0.5 KB each, tens of MiB at most).
 */
const MAX_BACKLOG = 50_000;

/**
 * Reads the rows every model behind `ev` needs to fold it and hands them over. Undefined when
 * there is nothing to wait for (most blocks: no promise made, no turn waited); it reads nothing
 * unless a cache lost a row the block needs.
 */
export function prepareFold(parts: Pick<RunnerParts, 'slots' | 'batch'>, ev: BlockEvent): Promise<void> | undefined {
  // Each model's needs depend on its own state alone, so all are asked before any is read.
  const reads: [Slot, string[]][] = [];
  for (const slot of parts.slots.values()) {
    if (!slot.p.needs || ev.block.index !== slot.height + 1) continue;
    const keys = slot.p.needs(slot.state, ev);
    if (keys.length > 0) reads.push([slot, keys]);
  }
  // A writer folding faster than the disk writes waits for the batch in flight, so the rows
  // queued in memory stay bounded (the next batch takes them all).
  const settle = parts.batch.backlog() >= MAX_BACKLOG;
  return settle || reads.length > 0 ? readNeeds(parts, settle, reads) : undefined;
}

async function readNeeds(parts: Pick<RunnerParts, 'batch'>, settle: boolean, reads: [Slot, string[]][]): Promise<void> {
  if (settle) await parts.batch.settle();
  for (const [slot, keys] of reads) {
    // The rows as every block folded so far left them (queued ones from memory: no write waited for).
    const values = await parts.batch.getMany(slot.sub, keys);
    // A model that names rows it needs takes them (Projection.needs and take go together).
    slot.p.take?.(slot.state, new Map(keys.map((k, i) => [k, values[i]])));
  }
}
