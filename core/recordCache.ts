/**
 * Records as a bounded cache (docs/memory.md, "Records"). A state with a `cache` holds in
 * `records` only part of its records: every open one (pinned: begin-block hooks visit them) and at
 * most `cap` others per kind, the least recently written or loaded evicted first. The rest are
 * rows on disk (`<prefix>:<id>` in the accounts read model). A read of an id the cache cannot
 * answer is noted as a miss by the overlay reading it; `applyBlock`, `buildBlock` and admission
 * then throw `RecordsNotLoaded`, the node reads the rows and runs the same pure step again.
 * Absent and evicted differ by one read: an id found absent is remembered in `absent` (exact: a
 * commit that creates it takes it out, one that removes it puts it in), so the retry, and later
 * blocks, answer "absent" without a miss; at most `cap` such ids a kind are kept.
 * Accounts are cached the same way (rows `a:<address>`): at most `accountCap` of them, the least
 * recently written or loaded evicted at commit; an address never seen reads as a miss once, then
 * as absent (an empty account) until a block writes it. Recency is kept as core/recency.ts keeps
 * it: a write marks an entry held, and the eviction pass gives it a second chance.
 */
import { ACCOUNT_ROW_PREFIX, decodeAccount, type StoredAccount } from './accountRow.ts';
import { evictOldest, noteUse } from './recency.ts';
import type { RecordDef } from './record.ts';
import { RECORDS } from './tx/registry.ts';
import type { Account } from './txState.ts';

/** The record maps of a state, by kind (core/state.ts's `Records`). */
type RecordMaps = { readonly [kind: string]: Map<string, unknown> };

/** The parts of a state (core/state.ts's `ChainState`) its record cache reads and keeps. */
interface CachedState {
  readonly accounts: Map<string, Account>;
  readonly records: RecordMaps;
  readonly open: { readonly [kind: string]: Set<string> | undefined };
  cache?: RecordCache;
}

/** The default cap: finished records kept in memory per kind (open ones come on top). */
export const DEFAULT_RECORD_CACHE = 4096;
/** The default account cap: accounts kept in memory (~250 bytes each: 16 MiB). */
export const DEFAULT_ACCOUNT_CACHE = 65_536;
/** The name accounts go by in `RecordCache.absent` (no record kind is named so). */
const ACCOUNTS = 'a';

/** How a state's records are cached. */
export interface RecordCache {
  /** Finished records kept per kind; Infinity never evicts. */
  readonly cap: number;
  /** Accounts kept; Infinity never evicts. */
  readonly accountCap: number;
  /** Ids known to be absent (read and not found, or removed), by kind: answered without a miss. */
  readonly absent: Map<string, Set<string>>;
  /** Held ids written again since the last eviction pass, by kind (core/recency.ts). */
  readonly used: Map<string, Set<string>>;
  /**
   * A copy at an earlier height over rows of a later one (reorg validation): it never evicts and
   * never forgets an absent id, since the rows on disk would answer for the wrong height.
   */
  readonly sticky: boolean;
}

/**
 * Not a fault: the state could not answer a read from memory. The caller loads `keys` (row keys
 * `<prefix>:<id>`) with `loadRecords` and runs the same step again.
 */
export class RecordsNotLoaded extends Error {
  readonly keys: readonly string[];
  constructor(keys: Iterable<string>) {
    const list = [...keys];
    super(`records not loaded: ${list.slice(0, 3).join(', ')}${list.length > 3 ? ` and ${list.length - 3} more` : ''}`);
    this.name = 'RecordsNotLoaded';
    this.keys = list;
  }
}

/** The row key of a record. */
export function recordKey(rec: RecordDef, id: string): string {
  return `${rec.prefix}:${id}`;
}

let byPrefix: Map<string, RecordDef> | undefined;
/** The kind and id a row key names, or undefined when it names no record kind. */
export function parseRecordKey(key: string): { rec: RecordDef; id: string } | undefined {
  byPrefix ??= new Map(RECORDS.map((r) => [r.prefix, r]));
  const colon = key.indexOf(':');
  const rec = colon > 0 ? byPrefix.get(key.slice(0, colon)) : undefined;
  return rec && { rec, id: key.slice(colon + 1) };
}

/**
 * Makes `state`'s records a cache of at most `cap` finished records per kind and `accountCap`
 * accounts (`cap` Infinity: complete, accounts too). Accounts are trimmed at the next commit only:
 * a genesis state keeps its allocations until the first block writes their rows.
 */
export function withRecordCache<S extends CachedState>(state: S, cap: number, accountCap = Number.POSITIVE_INFINITY): S {
  const bound = (n: number) => (n === Number.POSITIVE_INFINITY ? n : Math.max(0, Math.floor(n)));
  if (cap === Number.POSITIVE_INFINITY) delete state.cache;
  else state.cache = { cap: bound(cap), accountCap: bound(accountCap), absent: new Map(), used: new Map(), sticky: false };
  trimRecords(state);
  return state;
}

/** A copy of a cache for a copy of its state: sticky, with the same absent ids. */
export function stickyCopy(cache: RecordCache): RecordCache {
  const absent = new Map([...cache.absent].map(([k, ids]) => [k, new Set(ids)]));
  return { cap: Number.POSITIVE_INFINITY, accountCap: Number.POSITIVE_INFINITY, absent, used: new Map(), sticky: true };
}

/** True when the state can answer a read of `id` from memory with "absent". */
export function knownAbsent(state: CachedState, rec: RecordDef, id: string): boolean {
  return !state.cache || state.cache.absent.get(rec.kind)?.has(id) === true;
}

/** True when the state can answer a read of an account it does not hold with "absent" (an empty account). */
export function knownAbsentAccount(state: CachedState, address: string): boolean {
  return !state.cache || state.cache.absent.get(ACCOUNTS)?.has(address) === true;
}

/** Notes that an account has no row (an undo row says it did not exist at the copy's height). */
export function accountAbsent(state: CachedState, address: string): void {
  markAbsent(state, ACCOUNTS, address);
}

/** Notes that an account was written (it exists from now on). */
function accountPresent(state: CachedState, address: string): void {
  state.cache?.absent.get(ACCOUNTS)?.delete(address);
}

/** Notes that `id` is absent (removed, or read and not found). */
export function markAbsent(state: CachedState, kind: string, id: string): void {
  const c = state.cache;
  if (!c) return;
  const ids = c.absent.get(kind) ?? new Set<string>();
  c.absent.set(kind, ids);
  ids.add(id);
}

/** Notes that `id` exists (it was written or loaded). */
export function markPresent(state: CachedState, kind: string, id: string): void {
  state.cache?.absent.get(kind)?.delete(id);
}

/**
 * Writes rows read from disk into the cache (`values[i]` for `keys[i]`; undefined: no row).
 * Only the writer calls this, between a miss and the retry, with rows as of the state's height.
 */
export function loadRecords(state: CachedState, keys: readonly string[], values: readonly unknown[]): void {
  keys.forEach((key, i) => {
    if (key.startsWith(ACCOUNT_ROW_PREFIX)) {
      const address = key.slice(ACCOUNT_ROW_PREFIX.length);
      if (state.accounts.has(address)) return;
      if (values[i] === undefined) markAbsent(state, ACCOUNTS, address);
      else state.accounts.set(address, decodeAccount(values[i] as StoredAccount));
      return;
    }
    const parsed = parseRecordKey(key);
    if (!parsed) throw new Error(`not a record key: ${key}`);
    const map = state.records[parsed.rec.kind];
    if (map.has(parsed.id)) return;
    if (values[i] === undefined) markAbsent(state, parsed.rec.kind, parsed.id);
    else map.set(parsed.id, values[i]);
  });
}

/** Evicts, kind by kind, the oldest finished records beyond the cap or the kind's own `cacheCap` (open ones stay). */
export function trimRecords(state: CachedState): void {
  const c = state.cache;
  if (!c || c.sticky) return;
  for (const rec of RECORDS) {
    const map = state.records[rec.kind];
    const open = state.open[rec.kind];
    const pinned = open?.size ?? 0;
    const absent = c.absent.get(rec.kind);
    if (absent && absent.size > c.cap)
      for (const id of absent) {
        if (absent.size <= c.cap) break;
        absent.delete(id);
      }
    // Amortised: a large cache is trimmed once it is an eighth over, so a pass over the oldest
    // entries (open ones among them are skipped) is paid once per many inserts.
    const cap = Math.min(c.cap, rec.cacheCap ?? c.cap);
    const slack = cap >= 1024 ? cap >> 3 : 0;
    if (map.size - pinned <= cap + slack) continue;
    evictOldest(map, c.used.get(rec.kind), map.size - pinned - cap, open ? (id) => open.has(id) : undefined);
  }
}

/** Evicts the least recently written or loaded accounts beyond the cap (at commit: their rows are written). */
export function trimAccounts(state: CachedState): void {
  const c = state.cache;
  if (!c || c.sticky) return;
  const absent = c.absent.get(ACCOUNTS);
  if (absent && absent.size > c.accountCap)
    for (const id of absent) {
      if (absent.size <= c.accountCap) break;
      absent.delete(id);
    }
  const map = state.accounts;
  // Amortised like records: a large cache is trimmed once it is an eighth over.
  const slack = c.accountCap >= 1024 ? c.accountCap >> 3 : 0;
  if (map.size <= c.accountCap + slack) return;
  evictOldest(map, c.used.get(ACCOUNTS), map.size - c.accountCap);
}

/** The marks of `kind` (ACCOUNTS: accounts) where a pass can evict; undefined where none can. */
function usedOf(state: CachedState, kind: string, cap: number): Set<string> | undefined {
  const c = state.cache;
  if (!c || c.sticky || cap === Number.POSITIVE_INFINITY) return undefined;
  let used = c.used.get(kind);
  if (!used) {
    used = new Set();
    c.used.set(kind, used);
  }
  return used;
}

/** Writes a record (a write counts as a use: it is evicted after the ones not written since). */
export function touch(state: CachedState, kind: string, id: string, value: unknown): void {
  const map = state.records[kind];
  noteUse(map, usedOf(state, kind, state.cache?.cap ?? Number.POSITIVE_INFINITY), id, value);
}

/** Writes an account (a write counts as a use, as for records) and notes that it exists. */
export function writeAccount(state: CachedState, address: string, account: Account): void {
  noteUse(state.accounts, usedOf(state, ACCOUNTS, state.cache?.accountCap ?? Number.POSITIVE_INFINITY), address, account);
  accountPresent(state, address);
}
