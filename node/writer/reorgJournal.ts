/**
 * The reorganisations this node made, kept across restarts (node-local, not chain state): each
 * is written in the batch that switches the log, so a block a stream sent before a switch can be
 * named as dropped after it, even when the node was killed and restarted between the two. A client
 * resuming from a block the chain no longer holds (`Last-Event-ID: <height>:<hash>`) is told
 * which of its blocks were replaced (api/streams/chainEventStream.ts).
 */
import type { ReorgEvent } from '../../projections/events.ts';
import type { RowOp, Rows } from '../../projections/store.ts';

/** One switch (the reorg event's fields: the first height whose block changed, the heads, the dropped hashes lowest first), numbered. */
export type ReorgRecord = Omit<ReorgEvent, 'type'> & { seq: number };

/** What a client holding the block `hash` at `height` missed: its blocks from `fromHeight` on are gone. */
export interface Replaced {
  fromHeight: number;
  /** The client's blocks from `fromHeight` up to its `height` that the chain no longer holds, lowest first. */
  dropped: string[];
}

/** Switches kept (the newest); a client away for more than this many reorganisations is told only what these name. */
const JOURNAL_KEEP = 256;

const keyOf = (seq: number) => seq.toString(16).padStart(12, '0');

/** The journal of reorganisations: rows in a node-local sublevel, mirrored in memory (at most JOURNAL_KEEP). */
export class ReorgJournal {
  private readonly rows: Rows;
  private records: ReorgRecord[] = [];

  constructor(rows: Rows) {
    this.rows = rows;
  }

  /** Reads what earlier runs recorded. */
  async load(): Promise<void> {
    const all: ReorgRecord[] = [];
    for await (const value of this.rows.values()) all.push(value as ReorgRecord);
    this.records = all.sort((a, b) => a.seq - b.seq).slice(-JOURNAL_KEEP);
  }

  /**
   * The writes that record `r` (and drop the oldest beyond JOURNAL_KEEP), for the batch that
   * switches the log; `commit` makes it visible once that batch is written.
   */
  recordOps(r: Omit<ReorgRecord, 'seq'>): { ops: RowOp[]; record: ReorgRecord } {
    const seq = (this.records.at(-1)?.seq ?? 0) + 1;
    const record: ReorgRecord = { seq, ...r };
    const ops: RowOp[] = [{ type: 'put', sublevel: this.rows, key: keyOf(seq), value: record }];
    const over = this.records.length + 1 - JOURNAL_KEEP;
    for (let i = 0; i < over; i++) ops.push({ type: 'del', sublevel: this.rows, key: keyOf(this.records[i].seq) });
    return { ops, record };
  }

  /** Makes a written record visible to `replaced`. */
  commit(record: ReorgRecord): void {
    this.records.push(record);
    if (this.records.length > JOURNAL_KEEP) this.records.splice(0, this.records.length - JOURNAL_KEEP);
  }

  /**
   * What replaced the block `hash` at `height` (one the chain no longer holds there), or null when
   * no recorded switch dropped it. The newest switch that dropped it gives the client's blocks from
   * its `fromHeight`; each later switch from lower down replaced the common ancestors too, and names
   * the client's blocks between.
   */
  replaced(height: number, hash: string): Replaced | null {
    let at = -1;
    for (let i = this.records.length - 1; i >= 0 && at < 0; i--) {
      const r = this.records[i];
      if (r.dropped[height - r.fromHeight] === hash) at = i;
    }
    if (at < 0) return null;
    const r = this.records[at];
    let fromHeight = r.fromHeight;
    let dropped = r.dropped.slice(0, height - r.fromHeight + 1);
    for (const later of this.records.slice(at + 1)) {
      if (later.fromHeight >= fromHeight) continue;
      dropped = [...later.dropped.slice(0, fromHeight - later.fromHeight), ...dropped];
      fromHeight = later.fromHeight;
    }
    return { fromHeight, dropped };
  }
}
