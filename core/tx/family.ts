/**
 * A transaction family: its types' handlers, the consensus records it owns, its begin-block hook
 * and its extra protocol reference sections, declared together in core/tx/<family>.ts (or
 * core/tx/<family>/) and listed once in core/tx/registry.ts, whose header says how to add a type
 * or a family.
 */
import type { ChunkStore } from '../chunkStore.ts';
import type { RecordDef } from '../record.ts';
import type { TxState } from '../txState.ts';
import type { TxContext, TxHandler } from './handler.ts';

/** Block-level effects a family applies at the start of every block, before its transactions. */
interface BeginBlockHook {
  /** What it does, for the protocol reference's money flows ("a task past its deadline ..."). */
  readonly doc: string;
  run(s: TxState, ctx: TxContext): void;
}

/** One family, as the registry sees it. */
export interface TxFamily<R extends readonly RecordDef[] = readonly RecordDef[]> {
  readonly name: string;
  /** Its types, executed or not, in the protocol reference's order. */
  readonly handlers: readonly TxHandler[];
  /** The record kinds it owns (each kind belongs to exactly one family). */
  readonly records?: R;
  readonly beginBlock?: BeginBlockHook;
  /** Its namespaces of chunked uploads (core/chunks.ts), whose bytes the `content` projection stores. */
  readonly chunkStores?: readonly ChunkStore[];
  /** Markdown lines appended to the protocol reference (e.g. its state machine's table). */
  readonly docSections?: () => string[];
}

/** Declares a family; every handler's schema must name it as its family. */
export function defineFamily<const R extends readonly RecordDef[] = readonly []>(family: TxFamily<R>): TxFamily<R> {
  for (const h of family.handlers) {
    if (h.schema.family !== family.name) throw new Error(`${h.schema.type} is of family ${h.schema.family}, not ${family.name}`);
  }
  return family;
}

/**
 * Visits, in id order, the open records of `rec` whose deadline is before `timestamp` and hands
 * each to `expire` (which must `put` it in a closed state). The usual begin-block timeout.
 */
export function expireDue<T>(
  s: TxState,
  rec: RecordDef<string, T>,
  timestamp: number,
  deadline: (r: T) => number,
  expire: (r: T) => void,
): void {
  const isOpen = rec.isOpen;
  if (!isOpen) throw new Error(`record kind ${rec.kind} declares no isOpen: nothing of it can expire`);
  for (const id of [...s.openIds(rec)].sort()) {
    const r = s.get(rec, id);
    if (!r || !isOpen(r) || deadline(r) >= timestamp) continue;
    expire(r);
  }
}
