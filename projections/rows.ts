/**
 * Typed rows: each kind of row a projection keeps is defined once, by its key builder and its
 * value type (in the spirit of Lodestar's `Repository<Id, T>`), and both sides go through that
 * definition: the projection's `apply` writes its `KvOp`s with `put`/`del`, the queries read the
 * projection's `Rows` with `get`/`values`. A key string or a value shape cannot drift apart
 * between writer and reader, and no reader casts what it reads.
 *
 * Nothing here changes what is stored: a key is exactly what its builder makes, a value is stored
 * as it is given (JSON), so a row kind can describe rows written before it existed.
 *
 * - `row(prefix, encode)`: rows `<prefix><encode(id)>`, one per id;
 * - `rowGroup(prefix, item, end)`: rows `<prefix(group)><item(i)>` read as one key range per group;
 * - `numberedRows(prefix)`: a group whose items are list numbers 0, 1, ... (`listNumber`), so a
 *   page at any offset is one range read.
 */
import type { KvOp } from './projection.ts';
import type { Rows } from './store.ts';

/** A list number as its row key part (fixed width, so keys sort as numbers). */
export const listNumber = (n: number): string => n.toString().padStart(12, '0');

/** What reading a projection's rows takes (its key space). */
export type RowReader = Pick<Rows, 'get' | 'getMany' | 'values'>;

/** The bounds and order of a range read over one group (items, not keys). */
interface GroupRead<Item> {
  /** The first item read (inclusive); absent: the group's first. */
  from?: Item;
  /** The last item read (inclusive). */
  through?: Item;
  /** The item the read stops before (exclusive); absent (and no `through`): the group's end. */
  below?: Item;
  reverse?: boolean;
  limit?: number;
}

/**
 * The one place a stored value gets its type: a row of a kind is written only by that kind's
 * `put`, which took a `T`.
 */
function stored<T>(value: unknown): T {
  return value as T;
}

const put = (key: string, value: unknown, fresh: boolean): KvOp =>
  fresh ? { type: 'put', key, value, fresh: true } : { type: 'put', key, value };

/** One kind of row: `<prefix><encode(id)>` -> `T`. */
interface Row<Id, T> {
  readonly prefix: string;
  key(id: Id): string;
  /** Writes `value`; `fresh`: the row cannot exist before this put (KvOp.fresh). */
  put(id: Id, value: T, fresh?: boolean): KvOp;
  del(id: Id): KvOp;
  get(rows: RowReader, id: Id): Promise<T | undefined>;
  getMany(rows: RowReader, ids: readonly Id[]): Promise<(T | undefined)[]>;
  /** True when `key` is a row of this kind (a restore's or a take's walk). */
  owns(key: string): boolean;
  /** The encoded id of a key of this kind. */
  idOf(key: string): string;
  /** The value of one of these rows read back untyped (a restore's or a take's rows). */
  value(raw: unknown): T;
}

/** A kind of row keyed by `prefix` and the id (`encode`, by default the id as a string). */
export function row<T, Id = string>(prefix: string, encode: (id: Id) => string = String): Row<Id, T> {
  const key = (id: Id) => `${prefix}${encode(id)}`;
  return {
    prefix,
    key,
    put: (id, value, fresh = false) => put(key(id), value, fresh),
    del: (id) => ({ type: 'del', key: key(id) }),
    get: async (rows, id) => stored<T | undefined>(await rows.get(key(id))),
    getMany: async (rows, ids) => (ids.length ? (await rows.getMany(ids.map(key))).map((v) => stored<T | undefined>(v)) : []),
    owns: (k) => k.startsWith(prefix),
    idOf: (k) => k.slice(prefix.length),
    value: stored<T>,
  };
}

/** Rows `<prefix(group)><item(i)>` -> `T`, read as one key range per group. */
export interface RowGroup<G, Item, T> {
  prefix(group: G): string;
  /** The key range of every row of the group. */
  range(group: G): { gte: string; lt: string };
  key(group: G, item: Item): string;
  put(group: G, item: Item, value: T, fresh?: boolean): KvOp;
  del(group: G, item: Item): KvOp;
  get(rows: RowReader, group: G, item: Item): Promise<T | undefined>;
  getMany(rows: RowReader, group: G, items: readonly Item[]): Promise<(T | undefined)[]>;
  /** The values of the group's rows in key order (`reverse`: last first), within `read`'s bounds. */
  values(rows: RowReader, group: G, read?: GroupRead<Item>): AsyncIterable<T>;
  /** The value of one of these rows read back untyped. */
  value(raw: unknown): T;
}

/**
 * A group of rows under `prefix(group)`, items encoded by `item`. The group's range ends before
 * `<prefix>end` when `end` is given (the bound its readers always used), else just past every key
 * that starts with the prefix.
 */
export function rowGroup<T, G = string, Item = string>(
  prefix: (group: G) => string,
  item: (i: Item) => string = String,
  end?: string,
): RowGroup<G, Item, T> {
  const key = (g: G, i: Item) => `${prefix(g)}${item(i)}`;
  const upper = (p: string) =>
    end === undefined ? `${p.slice(0, -1)}${String.fromCharCode(p.charCodeAt(p.length - 1) + 1)}` : `${p}${end}`;
  return {
    prefix,
    range: (g) => ({ gte: prefix(g), lt: upper(prefix(g)) }),
    key,
    put: (g, i, value, fresh = false) => put(key(g, i), value, fresh),
    del: (g, i) => ({ type: 'del', key: key(g, i) }),
    get: async (rows, g, i) => stored<T | undefined>(await rows.get(key(g, i))),
    getMany: async (rows, g, items) =>
      items.length ? (await rows.getMany(items.map((i) => key(g, i)))).map((v) => stored<T | undefined>(v)) : [],
    async *values(rows, g, read = {}) {
      const p = prefix(g);
      const range = {
        gte: read.from === undefined ? p : key(g, read.from),
        ...(read.through !== undefined ? { lte: key(g, read.through) } : { lt: read.below === undefined ? upper(p) : key(g, read.below) }),
        ...(read.reverse ? { reverse: true } : {}),
        ...(read.limit !== undefined ? { limit: read.limit } : {}),
      };
      for await (const v of rows.values(range)) yield stored<T>(v);
    },
    value: stored<T>,
  };
}

/** A numbered list: rows `<prefix(group)><n>` for n = 0, 1, ..., each written once. */
export interface NumberedRows<G, T> extends RowGroup<G, number, T> {
  /** The values of `limit` rows from `offset` of a list of `size`, oldest (lowest number) first or newest first. */
  page(rows: RowReader, group: G, size: number, limit: number, offset: number, newestFirst: boolean): Promise<T[]>;
}

/** A numbered list under `prefix(group)` (a list without groups: `() => 'feed!'`, its group `undefined`). */
export function numberedRows<T, G = void>(prefix: (group: G) => string): NumberedRows<G, T> {
  const group = rowGroup<T, G, number>(prefix, listNumber);
  return {
    ...group,
    // A numbered row is new when it is written (its number was just counted).
    put: (g, n, value) => group.put(g, n, value, true),
    async page(rows, g, size, limit, offset, newestFirst) {
      const end = Math.min(size, offset + limit);
      const out: T[] = [];
      if (offset >= end) return out;
      // Numbers [from, to): the page itself, oldest first, or its mirror from the top, newest first.
      const [from, below] = newestFirst ? [size - end, size - offset] : [offset, end];
      for await (const v of group.values(rows, g, { from, below, reverse: newestFirst })) out.push(v);
      return out;
    },
  };
}
