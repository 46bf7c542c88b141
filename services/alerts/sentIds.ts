/**
 * The delivery ids already sent, with the height of their block: a reorganisation that brings the
 * same event back finds its id here and does not send it again. Ids are remembered for
 * `SENT_MEMORY_BLOCKS` blocks, deeper than any reorganisation the undo log serves.
 */
import type { Rows } from '../../projections/store.ts';

/** Blocks a sent id is remembered for: deeper than any reorganisation the undo log serves. */
const SENT_MEMORY_BLOCKS = 1024;

/** A write or delete in the sent-id rows. */
type SentOp = { type: 'put'; key: string; value: number; sublevel: Rows } | { type: 'del'; key: string; sublevel: Rows };

/** Sent delivery ids, in memory and in their rows. */
export class SentIds {
  private readonly rows: Rows;
  private readonly ids = new Map<string, number>();

  constructor(rows: Rows) {
    this.rows = rows;
  }

  /** Loads the ids already sent (before the reactor folds anything). */
  async load(): Promise<void> {
    for await (const [id, h] of this.rows.iterator()) this.ids.set(id, h as number);
  }

  /** True when `id` was sent. */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /**
   * Notes `id`, delivered for block `height`; answers the writes that store it and drop the ids
   * too old for any reorganisation to bring back.
   */
  note(id: string, height: number): SentOp[] {
    this.ids.set(id, height);
    const ops: SentOp[] = [{ type: 'put', key: id, value: height, sublevel: this.rows }];
    for (const [old, h] of this.ids) {
      if (h >= height - SENT_MEMORY_BLOCKS) continue;
      this.ids.delete(old);
      ops.push({ type: 'del', key: old, sublevel: this.rows });
    }
    return ops;
  }
}
