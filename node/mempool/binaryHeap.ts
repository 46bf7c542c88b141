/**
 * A binary heap over an ordering: `push` and `pop` in O(log n), building from an array in O(n).
 * The mempool uses it to pick the next transaction of a block among the senders' run heads.
 */
export class BinaryHeap<T> {
  private readonly items: T[];
  private readonly before: (a: T, b: T) => boolean;

  /** `before(a, b)` is true when `a` must come out before `b`. */
  constructor(before: (a: T, b: T) => boolean, items: T[] = []) {
    this.before = before;
    this.items = items;
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  /** Removes and returns the first item, or undefined when empty. */
  pop(): T | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (this.items.length && last !== undefined) {
      this.items[0] = last;
      this.down(0);
    }
    return top;
  }

  private up(i: number): void {
    const a = this.items;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(a[i], a[p])) return;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }

  private down(i: number): void {
    const a = this.items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.before(a[l], a[m])) m = l;
      if (r < a.length && this.before(a[r], a[m])) m = r;
      if (m === i) return;
      [a[i], a[m]] = [a[m], a[i]];
      i = m;
    }
  }
}
