/**
 * Pending transactions. Each sender has a run of consecutive nonces starting at its account
 * nonce; blocks take transactions by fee (highest first), then arrival, never out of nonce order.
 * The pool is bounded in transactions and bytes: when full, a new transaction evicts strictly
 * lower-fee ones, always from the tail of a sender's run so no pending transaction loses the one
 * its nonce depends on. A pending nonce can be replaced by a fee at least `replaceBumpPercent` higher.
 */
import { txBytes } from '../core/applyBlock.ts';
import { ChainError } from '../core/errors.ts';
import type { ChainState } from '../core/state.ts';
import { feeOf, type SignedTx, type TxContext } from '../core/tx/handler.ts';
import { TX_HANDLERS } from '../core/tx/registry.ts';
import { canonicalTx, stateTx } from '../core/txCodec.ts';
import { checkTxState, type PendingRun } from '../core/validateTx.ts';
import { StateOverlay } from '../core/state.ts';
import { BinaryHeap } from './binaryHeap.ts';

/** Mempool limits and admission policy (node-local, not consensus). */
export interface MempoolOptions {
  /** Most transactions held. */
  maxSize: number;
  /** Most pending transactions of one sender. */
  maxPerSender: number;
  /** Most bytes held (canonical JSON, the measure of the block byte limit). */
  maxBytes: number;
  /** Lowest `fee` admitted, per transaction type (micro-units; absent = 0). Types without a `fee` field are exempt. */
  minFee: Readonly<Record<string, bigint>>;
  /** A replacement (same sender and nonce) must pay at least this many percent more, and at least 1 micro more. */
  replaceBumpPercent: number;
}

/** Defaults: 10,000 transactions, 64 per sender, 64 MiB, no fee floor, replacement +10%. */
export const defaultMempoolOptions: MempoolOptions = {
  maxSize: 10_000,
  maxPerSender: 64,
  maxBytes: 64 * 1024 * 1024,
  minFee: {},
  replaceBumpPercent: 10,
};

/**
 * A refusal by this node's mempool policy (fee floor, underpriced replacement, full pool), not a
 * fault of the transaction: gossip ignores these rather than penalising the peer that relayed it.
 */
export class MempoolPolicyError extends ChainError {}

interface Entry {
  tx: SignedTx;
  seq: number;
  fee: bigint;
  bytes: number;
}

/** True when `a` goes into a block before `b`: higher fee, then earlier arrival. */
const better = (a: Entry, b: Entry) => (a.fee === b.fee ? a.seq < b.seq : a.fee > b.fee);

/** The pending pool. */
export class Mempool {
  private readonly opts: MempoolOptions;
  private readonly byHash = new Map<string, Entry>();
  private readonly runs = new Map<string, Entry[]>();
  /** Entries by type, in arrival order (pages of one type without sorting the pool). */
  private readonly byType = new Map<string, Set<Entry>>();
  private seq = 0;
  private totalBytes = 0;

  constructor(opts: Partial<MempoolOptions> = {}) {
    this.opts = { ...defaultMempoolOptions, ...opts };
  }

  get size(): number {
    return this.byHash.size;
  }

  /** Bytes held (canonical JSON of every pending transaction). */
  get bytes(): number {
    return this.totalBytes;
  }

  has(hash: string): boolean {
    return this.byHash.has(hash);
  }

  get(hash: string): SignedTx | undefined {
    return this.byHash.get(hash)?.tx;
  }

  /**
   * What `address` has pending before nonce `beforeNonce` (all of it by default): count, balance
   * and storage it will spend. Validating a replacement counts only the run before its nonce.
   */
  pending(address: string, beforeNonce = Number.POSITIVE_INFINITY): PendingRun {
    const run = this.runs.get(address);
    const out: PendingRun = { count: 0, balance: 0n, storage: 0n };
    if (!run) return out;
    for (const e of run) {
      if (e.tx.nonce >= beforeNonce) break;
      const c = TX_HANDLERS.get(e.tx.type)!.cost(stateTx(e.tx));
      out.count++;
      out.balance += c.balance;
      out.storage += c.storage;
    }
    return out;
  }

  /**
   * Adds a transaction that passed validateTx against this pool (with the run before its nonce
   * when it replaces one). Returns the transactions that left: the replaced one and any evicted.
   */
  add(tx: SignedTx): SignedTx[] {
    const fee = feeOf(tx);
    const floor = this.opts.minFee[tx.type] ?? 0n;
    if (typeof tx.fee === 'string' && fee < floor)
      throw new MempoolPolicyError('VALIDATION_FAILED', `fee ${fee} is below this node's minimum of ${floor} for ${tx.type}`);
    const e: Entry = { tx, seq: this.seq++, fee, bytes: txBytes([canonicalTx(tx)]) };
    // Runs are keyed by the sender as the state reads it (a `from` may be sent in any case).
    const sender = tx.from.toLowerCase();
    const run = this.runs.get(sender) ?? [];
    const at = run.findIndex((x) => x.tx.nonce === tx.nonce);
    if (at >= 0) {
      const old = run[at];
      const bump = (old.fee * BigInt(this.opts.replaceBumpPercent) + 99n) / 100n;
      const need = old.fee + (bump > 1n ? bump : 1n);
      if (fee < need)
        throw new MempoolPolicyError(
          'DUPLICATE_TX',
          `nonce ${tx.nonce} is pending with fee ${old.fee}: a replacement needs a fee of at least ${need}`,
        );
      const evicted = this.makeRoom(sender, fee, 0, e.bytes - old.bytes);
      run[at] = e;
      this.forget(old);
      this.keep(e);
      return [old.tx, ...evicted];
    }
    if (run.length >= this.opts.maxPerSender)
      throw new MempoolPolicyError('MEMPOOL_FULL', `sender already has ${this.opts.maxPerSender} pending transactions`);
    const evicted = this.makeRoom(sender, fee, 1, e.bytes);
    run.push(e);
    this.runs.set(sender, run);
    this.keep(e);
    return evicted;
  }

  /**
   * Evicts the fewest lowest-fee run tails (of other senders, each with a fee strictly below
   * `fee`) that make room for `count` more transactions and `bytes` more bytes; refuses with
   * MEMPOOL_FULL, evicting nothing, when that is not possible.
   */
  private makeRoom(sender: string, fee: bigint, count: number, bytes: number): SignedTx[] {
    const fits = (n: number, b: number) => n + count <= this.opts.maxSize && b + bytes <= this.opts.maxBytes;
    let n = this.byHash.size;
    let b = this.totalBytes;
    if (fits(n, b)) return [];
    // Planned on a copy of the run lengths first: a refusal must leave the pool untouched.
    const len = new Map<string, number>();
    const victims: Entry[] = [];
    while (!fits(n, b)) {
      let victim: Entry | undefined;
      let owner = '';
      for (const [s, run] of this.runs) {
        if (s === sender) continue;
        const l = len.get(s) ?? run.length;
        if (l === 0) continue;
        const tail = run[l - 1];
        if (!victim || better(victim, tail)) {
          victim = tail;
          owner = s;
        }
      }
      if (!victim || victim.fee >= fee)
        throw new MempoolPolicyError(
          'MEMPOOL_FULL',
          `mempool is full (${this.opts.maxSize} transactions, ${this.opts.maxBytes} bytes) with fees at or above ${fee}`,
        );
      len.set(owner, (len.get(owner) ?? this.runs.get(owner)!.length) - 1);
      victims.push(victim);
      n--;
      b -= victim.bytes;
    }
    for (const [s, l] of len) {
      const run = this.runs.get(s)!;
      run.length = l;
      if (l === 0) this.runs.delete(s);
    }
    for (const v of victims) this.forget(v);
    return victims.map((v) => v.tx);
  }

  /** Indexes an entry the pool now holds. */
  private keep(e: Entry): void {
    this.byHash.set(e.tx.hash, e);
    this.totalBytes += e.bytes;
    const of = this.byType.get(e.tx.type) ?? new Set<Entry>();
    of.add(e);
    this.byType.set(e.tx.type, of);
  }

  /** Drops an entry from the indexes. */
  private forget(e: Entry): void {
    this.byHash.delete(e.tx.hash);
    this.totalBytes -= e.bytes;
    const of = this.byType.get(e.tx.type);
    of?.delete(e);
    if (of?.size === 0) this.byType.delete(e.tx.type);
  }

  /**
   * `limit` pending transactions of `type` after skipping `offset`, in arrival order, with how
   * many of that type are pending: O(offset + limit), the pool is not sorted.
   */
  ofType(type: string, limit: number, offset: number): { total: number; txs: SignedTx[] } {
    const of = this.byType.get(type);
    const txs: SignedTx[] = [];
    if (!of) return { total: 0, txs };
    let i = 0;
    for (const e of of) {
      if (txs.length >= limit) break;
      if (i++ >= offset) txs.push(e.tx);
    }
    return { total: of.size, txs };
  }

  /** Empties the pool (a reorganisation re-admits what is still valid). */
  clear(): void {
    this.byHash.clear();
    this.byType.clear();
    this.runs.clear();
    this.totalBytes = 0;
  }

  /**
   * Pending transactions in block order: by fee, then arrival, each sender in nonce order. A heap
   * of the senders' run heads gives the first `max` in O(senders + max · log senders).
   */
  candidates(max = Number.POSITIVE_INFINITY): SignedTx[] {
    const heads = new BinaryHeap<{ run: Entry[]; i: number }>(
      (a, b) => better(a.run[a.i], b.run[b.i]),
      [...this.runs.values()].filter((run) => run.length > 0).map((run) => ({ run, i: 0 })),
    );
    const out: SignedTx[] = [];
    while (out.length < max) {
      const h = heads.pop();
      if (!h) break;
      out.push(h.run[h.i++].tx);
      if (h.i < h.run.length) heads.push(h);
    }
    return out;
  }

  /** All pending transactions in arrival order. */
  list(): SignedTx[] {
    return [...this.byHash.values()].sort((a, b) => a.seq - b.seq).map((e) => e.tx);
  }

  /**
   * After a block: drops what it mined, then re-checks every run against the new state and
   * drops each transaction that no longer applies along with the rest of its run. A run judged
   * on a record the state's cache could not answer is left as it was and its row keys returned in
   * `misses`: load them and revalidate again.
   */
  revalidate(
    state: ChainState,
    ctx: TxContext,
  ): { removed: SignedTx[]; dropped: { tx: SignedTx; error: ChainError }[]; misses: Set<string> } {
    const removed: SignedTx[] = [];
    const dropped: { tx: SignedTx; error: ChainError }[] = [];
    const misses = new Set<string>();
    for (const [sender, run] of this.runs) {
      const keep: Entry[] = [];
      const overlay = new StateOverlay(state);
      const gone: SignedTx[] = [];
      const failed: { tx: SignedTx; error: ChainError }[] = [];
      let broken = false;
      for (const e of run) {
        if (broken) {
          failed.push({ tx: e.tx, error: new ChainError('NONCE_GAP', 'an earlier transaction of the sender was dropped') });
          continue;
        }
        if (e.tx.nonce < overlay.peek(sender).nonce) {
          gone.push(e.tx);
          continue;
        }
        try {
          checkTxState(e.tx, { ...ctx, state: overlay, signatureVerified: true });
          const c = TX_HANDLERS.get(e.tx.type)!.cost(stateTx(e.tx), overlay);
          const a = overlay.account(sender);
          a.balance -= c.balance;
          a.storageUsed += c.storage;
          a.nonce += 1;
          keep.push(e);
        } catch (err) {
          if (!(err instanceof ChainError) && overlay.missing().size === 0) throw err;
          failed.push({ tx: e.tx, error: err as ChainError });
          broken = true;
        }
      }
      if (overlay.missing().size > 0) {
        for (const k of overlay.missing()) misses.add(k);
        continue;
      }
      removed.push(...gone);
      dropped.push(...failed);
      if (keep.length === run.length) continue;
      for (const e of run) {
        if (keep.includes(e)) continue;
        this.forget(e);
      }
      if (keep.length) this.runs.set(sender, keep);
      else this.runs.delete(sender);
    }
    return { removed, dropped, misses };
  }
}
