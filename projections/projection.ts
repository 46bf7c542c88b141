/** The projection contract: a named, versioned, pure reducer over block events. */
import type { BlockEvent, ChainInfo } from './events.ts';

/** A row written into the projection's own key space. */
export type KvOp =
  | {
      type: 'put';
      key: string;
      value: unknown;
      /**
       * The row cannot exist before this put (an address's next history entry, a transaction's
       * index row, a holder's new rank): the undo log records it as absent without reading it
       * back, and a delete of it within the same batch leaves nothing to write.
       */
      fresh?: true;
    }
  | { type: 'del'; key: string };

/** One reducer step: the next state, plus rows to write for large read models. */
export interface Step<S, Undo = unknown> {
  state: S;
  ops?: KvOp[];
  /**
   * For a projection with `revert`: what stepping this block back takes (e.g. the window entry it
   * evicted), kept in the undo log instead of the whole state before the block. Never mutated
   * afterwards.
   */
  undo?: Undo;
}

/**
 * A read model. `apply` is pure: no I/O, no clock; it may update `state` in place (the runner
 * owns it) as long as the result depends only on the state and the event.
 * Small models persist their whole state with each saved position (`save`/`load`); large ones keep
 * rows in their sublevel (`ops`) and may rebuild an in-memory index from them (`restore`).
 * `Saved` is what `save` returns and `load` is given back (the saved position holds it), `Undo` what a
 * step keeps for `revert` (the undo log holds it).
 */
export interface Projection<S = unknown, Saved = unknown, Undo = unknown> {
  readonly name: string;
  /** Bump to make every node rebuild this model from genesis. */
  readonly version: number;
  init(info: ChainInfo): S;
  apply(state: S, ev: BlockEvent): Step<S, Undo>;
  save?(state: S): Saved;
  load?(saved: Saved, info: ChainInfo): S;
  /**
   * Steps `state` back over one block given that block's `Step.undo` (a saved model whose state
   * a block changes by a little, such as a window of recent blocks): the undo log then keeps
   * that small value a block, not the whole saved state.
   */
  revert?(state: S, undo: Undo): S;
  restore?(rows: AsyncIterable<[string, unknown]>, info: ChainInfo): Promise<S>;
  /**
   * A model that keeps a bounded cache of its own rows names the rows `apply` needs for `ev` that
   * the cache lost; they are read (after the rows folded so far are written) and handed to `take`
   * (undefined: no such row) before `ev` is folded (ProjectionRunner.prepare).
   */
  needs?(state: S, ev: BlockEvent): string[];
  take?(state: S, rows: Map<string, unknown>): void;
}

/** Folds events through a projection in memory, collecting rows: the reference semantics. */
export function foldAll<S>(p: Projection<S>, info: ChainInfo, events: Iterable<BlockEvent>): { state: S; rows: Map<string, unknown> } {
  let state = p.init(info);
  const rows = new Map<string, unknown>();
  for (const ev of events) {
    const keys = p.needs?.(state, ev) ?? [];
    if (keys.length) p.take?.(state, new Map(keys.map((k) => [k, rows.get(k)])));
    const step = p.apply(state, ev);
    state = step.state;
    for (const op of step.ops ?? []) {
      if (op.type === 'put') rows.set(op.key, op.value);
      else rows.delete(op.key);
    }
  }
  return { state, rows };
}
