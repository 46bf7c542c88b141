/**
 * The mempool's durable copy (node-local, not chain state): a transaction is written here before
 * its submission is acknowledged, so a restart re-admits every acknowledged transaction.
 */
import type { SignedTx } from '../../core/tx/handler.ts';
import type { RowOp, Rows } from '../../projections/store.ts';

interface Row {
  seq: number;
  tx: SignedTx;
}

/** Pending transactions on disk, in arrival order. */
export class PendingLog {
  private readonly rows: Rows;
  private seq = 0;

  constructor(rows: Rows) {
    this.rows = rows;
  }

  /** Every stored transaction, in arrival order. */
  async load(): Promise<SignedTx[]> {
    const rows: Row[] = [];
    for await (const v of this.rows.values()) rows.push(v as Row);
    rows.sort((a, b) => a.seq - b.seq);
    this.seq = rows.length ? rows[rows.length - 1].seq + 1 : 0;
    return rows.map((r) => r.tx);
  }

  /** Records an admitted transaction (before it is acknowledged), forgetting `drop` in the same batch. */
  async put(tx: SignedTx, drop: readonly string[] = []): Promise<void> {
    await this.rows.batch([
      ...drop.map((key) => ({ type: 'del' as const, key })),
      { type: 'put' as const, key: tx.hash, value: { seq: this.seq++, tx } satisfies Row },
    ]);
  }

  /** Forgets transactions that left the mempool. */
  async drop(hashes: readonly string[]): Promise<void> {
    if (hashes.length) await this.rows.batch(hashes.map((key) => ({ type: 'del' as const, key })));
  }

  /** Replaces the whole log with `txs`, in one batch: no moment holds neither the old nor the new set. */
  async rewrite(txs: readonly SignedTx[]): Promise<void> {
    await this.rows.batch((await this.rewriteOps(txs)).map(({ sublevel: _, ...op }) => op));
  }

  /**
   * The writes that replace the whole log with `txs`, for a caller's own batch (a reorganisation
   * writes them with the log's new suffix, so the dropped blocks' transactions are never nowhere).
   */
  async rewriteOps(txs: readonly SignedTx[]): Promise<RowOp[]> {
    const keep = new Set(txs.map((t) => t.hash));
    const ops: RowOp[] = [];
    for await (const key of this.rows.keys()) if (!keep.has(key)) ops.push({ type: 'del', sublevel: this.rows, key: key });
    this.seq = 0;
    for (const tx of txs) ops.push({ type: 'put', sublevel: this.rows, key: tx.hash, value: { seq: this.seq++, tx } satisfies Row });
    return ops;
  }
}
