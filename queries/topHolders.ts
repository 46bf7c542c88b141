/**
 * The largest balances, ranked (balance descending, ties by address), kept up to date from the
 * event feed so a request costs O(page) instead of a sort of every account.
 *
 * The index holds a prefix of the full ranking: every account outside it ranks after its last
 * entry. A block's balance changes keep that true: a changed account leaves the prefix, and
 * comes back only if it ranks before the last entry (or the prefix holds every holder). Accounts
 * that fall out shrink the prefix; when it is shorter than a page asks for, it is rebuilt from
 * the accounts by a bounded selection, O(N log K). It is also rebuilt after a reorganisation or
 * whenever the events it saw do not end at the height of the accounts it reads (one writer: the
 * node folds each block into the accounts before the block's event reaches the index).
 */
import type { Observable } from 'rxjs';
import type { Account } from '../core/state.ts';
import type { ChainEvent } from '../projections/events.ts';

/** Entries the index keeps beyond the largest page (so a few fallen holders cost no rebuild). */
const TOP_HOLDERS_KEPT = 256;

/** A ranked holder. */
export interface Holder {
  address: string;
  balance: bigint;
}

/** What the index reads: the accounts with the height they stand at, and the feed. */
export interface TopHoldersSource {
  accounts(): ReadonlyMap<string, Account>;
  /** Height the accounts have folded. */
  height(): number;
  events$: Observable<ChainEvent>;
}

/** Negative when `a` ranks before `b`: larger balance first, then smaller address. */
export function rankOrder(a: Holder, b: Holder): number {
  if (a.balance !== b.balance) return a.balance > b.balance ? -1 : 1;
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

/** The top holders of one node. */
export class TopHolders {
  private readonly src: TopHoldersSource;
  private readonly kept: number;
  private top: Holder[] = [];
  private readonly balanceOf = new Map<string, bigint>();
  /** The prefix holds every holder. */
  private complete = false;
  /** Height the prefix stands for; -1 until built and after a reorganisation. */
  private height = -1;
  private following = false;

  constructor(src: TopHoldersSource, kept = TOP_HOLDERS_KEPT) {
    this.src = src;
    this.kept = kept;
  }

  /** `limit` balances ranked from `offset` (0: the largest). */
  ranked(limit: number, offset = 0): Holder[] {
    const end = offset + limit;
    if (!this.following) {
      // Followed from the first read on: a node nobody asks pays nothing per block.
      this.src.events$.subscribe((ev) => this.onEvent(ev));
      this.following = true;
    }
    if (this.height !== this.src.height() || (!this.complete && this.top.length < end)) this.rebuild(Math.max(this.kept, end));
    return this.top.slice(offset, end);
  }

  private onEvent(ev: ChainEvent): void {
    if (ev.type === 'reorg') this.height = -1;
    if (ev.type !== 'block' || this.height < 0) return;
    if (ev.block.index <= this.height) return;
    if (ev.block.index !== this.height + 1) {
      this.height = -1;
      return;
    }
    for (const c of ev.balances) this.change(c.address, c.after);
    this.height = ev.block.index;
  }

  /** Keeps the prefix a prefix of the ranking after `address`'s balance became `balance`. */
  private change(address: string, balance: bigint): void {
    const old = this.balanceOf.get(address);
    if (old !== undefined) {
      this.top.splice(this.position({ address, balance: old }), 1);
      this.balanceOf.delete(address);
    }
    if (balance <= 0n) return;
    const h = { address, balance };
    const last = this.top[this.top.length - 1];
    if (!this.complete && (last === undefined || rankOrder(h, last) > 0)) return;
    this.top.splice(this.position(h), 0, h);
    this.balanceOf.set(address, balance);
    if (this.top.length > this.kept) {
      const dropped = this.top.pop();
      if (dropped) this.balanceOf.delete(dropped.address);
      this.complete = false;
    }
  }

  /** Where `h` is or would be in the prefix (binary search). */
  private position(h: Holder): number {
    let lo = 0;
    let hi = this.top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (rankOrder(this.top[mid], h) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The `k` first of the ranking by a bounded selection: a heap whose root is the worst kept. */
  private rebuild(k: number): void {
    const heap: Holder[] = [];
    let holders = 0;
    for (const [address, a] of this.src.accounts()) {
      if (a.balance <= 0n) continue;
      holders++;
      const h = { address, balance: a.balance };
      if (heap.length < k) siftUp(heap, heap.push(h) - 1);
      else if (rankOrder(h, heap[0]) < 0) {
        heap[0] = h;
        siftDown(heap, 0);
      }
    }
    this.top = heap.sort(rankOrder);
    this.balanceOf.clear();
    for (const h of this.top) this.balanceOf.set(h.address, h.balance);
    this.complete = holders <= k;
    this.height = this.src.height();
  }
}

// The heap keeps the worst-ranked entry at the root: a parent ranks after its children.
function siftUp(heap: Holder[], i: number): void {
  while (i > 0) {
    const parent = (i - 1) >>> 1;
    if (rankOrder(heap[i], heap[parent]) <= 0) return;
    [heap[i], heap[parent]] = [heap[parent], heap[i]];
    i = parent;
  }
}

function siftDown(heap: Holder[], i: number): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let worst = i;
    if (l < heap.length && rankOrder(heap[l], heap[worst]) > 0) worst = l;
    if (r < heap.length && rankOrder(heap[r], heap[worst]) > 0) worst = r;
    if (worst === i) return;
    [heap[i], heap[worst]] = [heap[worst], heap[i]];
    i = worst;
  }
}
