/**
 * Pending transactions. Each sender has a run of consecutive nonces starting at its account nonce;
 * blocks take transactions by fee (highest first), then arrival, never out of nonce order (limits,
 * eviction and replacement: node/mempool/mempoolOptions.ts). Uploads and claims follow
 * node/mempool/uploadPolicy.ts: chunk bytes have their own budgets (per sender and overall, evicting lower-
 * fee chunks of others when the overall one is full), a sender with no balance sends nothing, a
 * fee below the byte floor is refused, and a pending claim cannot be taken by another sender
 * (node/mempool/checkAdmission.ts makes these checks).
 */
import type { ChainState } from '../../core/state.ts';
import type { SignedTx, TxContext } from '../../core/tx/handler.ts';
import { handlerOf } from '../../core/tx/registry.ts';
import { stateTx } from '../../core/txCodec.ts';
import type { PendingRun } from '../../core/validateTx.ts';
import { BinaryHeap } from './binaryHeap.ts';
import { planEviction } from './evictionPlan.ts';
import { type DroppedTx, recheckRun } from './recheckRun.ts';
import { better, defaultMempoolOptions, type MempoolEntry as Entry, type MempoolOptions } from './mempoolOptions.ts';
import { ClaimIndex } from './uploadPolicy.ts';
import { checkAdmission } from './checkAdmission.ts';

/** The pending pool. */
export class Mempool {
  private readonly opts: MempoolOptions;
  private readonly byHash = new Map<string, Entry>();
  private readonly runs = new Map<string, Entry[]>();
  /** Entries by type, in arrival order (pages of one type without sorting the pool). */
  private readonly byType = new Map<string, Set<Entry>>();
  private readonly claims = new ClaimIndex();
  private seq = 0;
  private totalBytes = 0;
  private totalUpload = 0;

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

  /** Bytes held in chunk-carrying transactions. */
  get uploadBytes(): number {
    return this.totalUpload;
  }

  has(hash: string): boolean {
    return this.byHash.has(hash);
  }

  get(hash: string): SignedTx | undefined {
    return this.byHash.get(hash)?.tx;
  }

  /** The nonce after `address`'s pending run (runs are gapless); undefined when it has none pending. */
  pendingEnd(address: string): number | undefined {
    const run = this.runs.get(address);
    return run?.length ? run[run.length - 1].tx.nonce + 1 : undefined;
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
      const c = handlerOf(e.tx).cost(stateTx(e.tx));
      out.count++;
      out.balance += c.balance;
      out.storage += c.storage;
    }
    return out;
  }

  /**
   * Adds a transaction that passed validateTx against this pool (with the run before its nonce
   * when it replaces one); `balance` is the sender's balance at the head. Returns the
   * transactions that left: the replaced one and any evicted.
   */
  add(tx: SignedTx, balance?: bigint): SignedTx[] {
    // Runs are keyed by the sender as the state reads it (a `from` may be sent in any case).
    const sender = tx.from.toLowerCase();
    const run = this.runs.get(sender) ?? [];
    const { at, ...counted } = checkAdmission(tx, balance, run, this.claims, this.opts);
    const e: Entry = { tx, seq: this.seq++, ...counted };
    if (at >= 0) {
      const old = run[at];
      const evicted = this.makeRoom(sender, e.fee, 0, e.bytes - old.bytes, e.upload - old.upload);
      run[at] = e;
      this.forget(old);
      this.index(e);
      return [old.tx, ...evicted];
    }
    const evicted = this.makeRoom(sender, e.fee, 1, e.bytes, e.upload);
    run.push(e);
    this.runs.set(sender, run);
    this.index(e);
    return evicted;
  }

  /** Counts an entry in (the caller placed it in its run). */
  private index(e: Entry): void {
    this.byHash.set(e.tx.hash, e);
    this.totalBytes += e.bytes;
    this.totalUpload += e.upload;
    this.claims.add(stateTx(e.tx));
    const of = this.byType.get(e.tx.type) ?? new Set<Entry>();
    of.add(e);
    this.byType.set(e.tx.type, of);
  }

  /** Counts an entry out (the caller took it out of its run). */
  private forget(e: Entry): void {
    this.byHash.delete(e.tx.hash);
    this.totalBytes -= e.bytes;
    this.totalUpload -= e.upload;
    this.claims.remove(stateTx(e.tx));
    const of = this.byType.get(e.tx.type);
    of?.delete(e);
    if (of?.size === 0) this.byType.delete(e.tx.type);
  }

  /**
   * Evicts the fewest lowest-fee run tails (of other senders, each with a fee strictly below
   * `fee`) that make room for `count` more transactions, `bytes` more bytes and `upload` more
   * chunk bytes; refuses with MEMPOOL_FULL, evicting nothing, when that is not possible.
   */
  private makeRoom(sender: string, fee: bigint, count: number, bytes: number, upload: number): SignedTx[] {
    const held = { count: this.byHash.size, bytes: this.totalBytes, upload: this.totalUpload };
    const plan = planEviction(this.runs, held, sender, fee, { count, bytes, upload }, this.opts);
    for (const [s, l] of plan.lengths) {
      // Every planned owner is a sender with a run.
      const run = this.runs.get(s);
      if (!run) continue;
      run.length = l;
      if (l === 0) this.runs.delete(s);
    }
    for (const v of plan.victims) this.forget(v);
    return plan.victims.map((v) => v.tx);
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
    this.claims.clear();
    this.totalBytes = 0;
    this.totalUpload = 0;
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
  revalidate(state: ChainState, ctx: TxContext): { removed: SignedTx[]; dropped: DroppedTx[]; misses: Set<string> } {
    const removed: SignedTx[] = [];
    const dropped: DroppedTx[] = [];
    const misses = new Set<string>();
    for (const [sender, run] of this.runs) {
      const { keep, gone, failed, missing } = recheckRun(run, sender, state, ctx);
      if (missing.size > 0) {
        for (const k of missing) misses.add(k);
        continue;
      }
      removed.push(...gone);
      dropped.push(...failed);
      if (keep.length === run.length) continue;
      for (const e of run) if (!keep.includes(e)) this.forget(e);
      if (keep.length) this.runs.set(sender, keep);
      else this.runs.delete(sender);
    }
    return { removed, dropped, misses };
  }
}
