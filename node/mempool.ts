/**
 * Pending transactions. Each sender has a run of consecutive nonces starting at its account
 * nonce; blocks take transactions by fee (highest first), then arrival, never out of nonce order.
 */
import { ChainError } from '../core/errors.ts';
import type { ChainState } from '../core/state.ts';
import { feeOf, type SignedTx, type TxContext } from '../core/tx/handler.ts';
import { TX_HANDLERS } from '../core/tx/registry.ts';
import { checkTxState, type PendingRun } from '../core/validateTx.ts';
import { StateOverlay } from '../core/state.ts';

/** Mempool limits. */
export interface MempoolOptions {
  maxSize: number;
  maxPerSender: number;
}

/** Defaults: 10,000 transactions, 64 per sender. */
export const defaultMempoolOptions: MempoolOptions = { maxSize: 10_000, maxPerSender: 64 };

interface Entry {
  tx: SignedTx;
  seq: number;
  fee: bigint;
}

/** The pending pool. */
export class Mempool {
  private readonly opts: MempoolOptions;
  private readonly byHash = new Map<string, Entry>();
  private readonly runs = new Map<string, Entry[]>();
  private seq = 0;

  constructor(opts: Partial<MempoolOptions> = {}) {
    this.opts = { ...defaultMempoolOptions, ...opts };
  }

  get size(): number {
    return this.byHash.size;
  }

  has(hash: string): boolean {
    return this.byHash.has(hash);
  }

  get(hash: string): SignedTx | undefined {
    return this.byHash.get(hash)?.tx;
  }

  /** What `address` has pending: count, balance and storage it will spend. */
  pending(address: string): PendingRun {
    const run = this.runs.get(address);
    const out: PendingRun = { count: 0, balance: 0n, storage: 0n };
    if (!run) return out;
    for (const e of run) {
      const c = TX_HANDLERS.get(e.tx.type)!.cost(e.tx);
      out.count++;
      out.balance += c.balance;
      out.storage += c.storage;
    }
    return out;
  }

  /** Adds a transaction that passed validateTx against this pool. */
  add(tx: SignedTx): void {
    if (this.byHash.size >= this.opts.maxSize) throw new ChainError('MEMPOOL_FULL', `mempool is full (${this.opts.maxSize} transactions)`);
    const run = this.runs.get(tx.from) ?? [];
    if (run.length >= this.opts.maxPerSender)
      throw new ChainError('MEMPOOL_FULL', `sender already has ${this.opts.maxPerSender} pending transactions`);
    const e: Entry = { tx, seq: this.seq++, fee: feeOf(tx) };
    run.push(e);
    this.runs.set(tx.from, run);
    this.byHash.set(tx.hash, e);
  }

  /** Empties the pool (a reorganisation re-admits what is still valid). */
  clear(): void {
    this.byHash.clear();
    this.runs.clear();
  }

  /** Pending transactions in block order: by fee, then arrival, each sender in nonce order. */
  candidates(max = Infinity): SignedTx[] {
    const heads = [...this.runs.values()].map((run) => ({ run, i: 0 }));
    const out: SignedTx[] = [];
    const better = (a: Entry, b: Entry) => (a.fee === b.fee ? a.seq < b.seq : a.fee > b.fee);
    while (out.length < max) {
      let best = -1;
      for (let k = 0; k < heads.length; k++) {
        const h = heads[k];
        if (h.i >= h.run.length) continue;
        if (best < 0 || better(h.run[h.i], heads[best].run[heads[best].i])) best = k;
      }
      if (best < 0) break;
      out.push(heads[best].run[heads[best].i++].tx);
    }
    return out;
  }

  /** All pending transactions in arrival order. */
  list(): SignedTx[] {
    return [...this.byHash.values()].sort((a, b) => a.seq - b.seq).map((e) => e.tx);
  }

  /**
   * After a block: drops what it mined, then re-checks every run against the new state and
   * drops each transaction that no longer applies along with the rest of its run.
   */
  revalidate(state: ChainState, ctx: TxContext): { removed: SignedTx[]; dropped: { tx: SignedTx; error: ChainError }[] } {
    const removed: SignedTx[] = [];
    const dropped: { tx: SignedTx; error: ChainError }[] = [];
    for (const [sender, run] of this.runs) {
      const keep: Entry[] = [];
      const overlay = new StateOverlay(state);
      let broken = false;
      for (const e of run) {
        if (broken) {
          dropped.push({ tx: e.tx, error: new ChainError('NONCE_GAP', 'an earlier transaction of the sender was dropped') });
          continue;
        }
        if (e.tx.nonce < overlay.peek(sender).nonce) {
          removed.push(e.tx);
          continue;
        }
        try {
          checkTxState(e.tx, { ...ctx, state: overlay, signatureVerified: true });
          const c = TX_HANDLERS.get(e.tx.type)!.cost(e.tx);
          const a = overlay.account(sender);
          a.balance -= c.balance;
          a.storageUsed += c.storage;
          a.nonce += 1;
          keep.push(e);
        } catch (err) {
          if (!(err instanceof ChainError)) throw err;
          dropped.push({ tx: e.tx, error: err });
          broken = true;
        }
      }
      if (keep.length === run.length) continue;
      for (const e of run) if (!keep.includes(e)) this.byHash.delete(e.tx.hash);
      if (keep.length) this.runs.set(sender, keep);
      else this.runs.delete(sender);
    }
    return { removed, dropped };
  }
}
