/**
 * The consensus state as a read model: accounts, records and supply, folded from each block's
 * state diff. Rows: `a:<address>`, `<prefix>:<id>` (records), `s`, and `!o:<prefix>:<id>` for each
 * open record (sorted first). The node validates against this state. With a bounded cache a
 * restart reads the supply and the open records only: accounts and records are read as blocks
 * and queries need them (docs/memory.md, "Records" and "Accounts").
 */
import {
  cloneState,
  commitDiff,
  emptyState,
  indexOpen,
  RECORD_KINDS,
  RECORD_PREFIX,
  type ChainState,
  type RecordKind,
  type Supply,
} from '../core/state.ts';
import { ACCOUNT_ROW_PREFIX, decodeAccount, encodeAccount, type StoredAccount } from '../core/accountRow.ts';
import { accountAbsent, markAbsent, trimAccounts, trimRecords, withRecordCache } from '../core/recordCache.ts';
import { RECORDS } from '../core/tx/registry.ts';
import type { BlockEvent, ChainInfo } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { row } from './rows.ts';

/** The supply as stored (big integers as strings). */
type StoredSupply = Record<keyof Supply, string>;

/** `a:<address>`: an account. */
const accountRow = row<StoredAccount>(ACCOUNT_ROW_PREFIX);
/** `s`: the supply. */
const supplyRow = row<StoredSupply, null>('s', () => '');

function encodeSupply(s: Supply): StoredSupply {
  return { emitted: s.emitted.toString(), burned: s.burned.toString(), escrow: s.escrow.toString(), feesPaid: s.feesPaid.toString() };
}

function decodeSupply(r: StoredSupply): Supply {
  return { emitted: BigInt(r.emitted), burned: BigInt(r.burned), escrow: BigInt(r.escrow), feesPaid: BigInt(r.feesPaid) };
}

const OPEN_OF = new Map<RecordKind, (value: unknown) => boolean>();
for (const r of RECORDS) if (r.isOpen) OPEN_OF.set(r.kind, r.isOpen);

const KIND_OF_PREFIX = new Map(RECORD_KINDS.map((k) => [RECORD_PREFIX[k], k]));
/** The kind of a record row's key (`<prefix>:<id>`), if it is one. */
const kindOf = (key: string): RecordKind | undefined => KIND_OF_PREFIX.get(key.slice(0, key.indexOf(':')));

/** The row marking an open record (its value is in the record's own row). */
const openMark = (recordKey: string): string => `!o:${recordKey}`;

/** The put (`open`: a fresh mark) or del of a record's open mark. */
function openMarkOp(kind: RecordKind, id: string, open: boolean): KvOp {
  const key = openMark(`${RECORD_PREFIX[kind]}:${id}`);
  return open ? { type: 'put', key, value: 1, fresh: true } : { type: 'del', key };
}

/** The rows a whole state is stored as (used for genesis and by tests). */
function stateRows(s: ChainState): KvOp[] {
  const ops: KvOp[] = [];
  for (const [k, a] of s.accounts) ops.push(accountRow.put(k, encodeAccount(a)));
  for (const kind of RECORD_KINDS)
    for (const [k, v] of s.records[kind]) {
      ops.push({ type: 'put', key: `${RECORD_PREFIX[kind]}:${k}`, value: v });
      if (OPEN_OF.get(kind)?.(v)) ops.push({ type: 'put', key: openMark(`${RECORD_PREFIX[kind]}:${k}`), value: 1 });
    }
  ops.push(supplyRow.put(null, encodeSupply(s.supply)));
  return ops;
}

/** Writes one stored row into a state (undefined: the row is absent, so the entry goes). */
function applyRow(state: ChainState, key: string, value: unknown): void {
  if (accountRow.owns(key)) {
    const address = accountRow.idOf(key);
    if (value === undefined) {
      state.accounts.delete(address);
      // As for records: the row on disk may be a later height's.
      accountAbsent(state, address);
    } else state.accounts.set(address, decodeAccount(accountRow.value(value)));
  } else if (key === supplyRow.key(null)) {
    if (value !== undefined) state.supply = decodeSupply(supplyRow.value(value));
  } else {
    const kind = kindOf(key);
    if (!kind) return;
    const map: Map<string, unknown> = state.records[kind];
    const id = key.slice(key.indexOf(':') + 1);
    if (value === undefined) {
      map.delete(id);
      // A bounded cache must answer "absent" itself: the row on disk may be a later height's.
      markAbsent(state, kind, id);
    } else map.set(id, value);
  }
}

/** The consensus state at genesis, with the node's record cache. */
function genesisWith(info: ChainInfo): ChainState {
  const s = cloneState(info.genesisState);
  delete s.cache;
  return withRecordCache(s, info.recordCache ?? Number.POSITIVE_INFINITY, info.accountCache);
}

/** A copy of `state` with stored rows (their values at an earlier height) written over it. */
export function stateWithRows(state: ChainState, rows: ReadonlyMap<string, unknown>): ChainState {
  const out = cloneState(state);
  for (const [key, value] of rows) applyRow(out, key, value);
  return indexOpen(out);
}

/** Accounts, records (miners, tasks, agent runs, NFTs) and supply. */
export const accountsProjection: Projection<ChainState> = {
  name: 'accounts',
  // 3: open records marked by `!o:` rows, so a restart reads only what is live.
  version: 3,
  init: (info: ChainInfo) => genesisWith(info),
  apply(state, ev: BlockEvent) {
    const ops: KvOp[] = [];
    // The first fold after genesis also persists the genesis allocations it started from.
    if (ev.block.index === 1) ops.push(...stateRows(state));
    // Open marks follow each record's openness: before the commit, `state.open` is the old one.
    // Kinds the block neither wrote nor removed are skipped before anything is made for them
    // (a near-empty block writes none: every block of a rebuild passes here).
    const { records, removed } = ev.diff;
    for (const [kind, isOpen] of OPEN_OF) {
      const changed: Map<string, unknown> = records[kind];
      const gone = removed?.[kind];
      if (changed.size === 0 && !gone) continue;
      const was = state.open[kind];
      for (const [k, v] of changed) {
        const had = was?.has(k) === true;
        if (isOpen(v) ? !had : had) ops.push(openMarkOp(kind, k, !had));
      }
      if (gone && was) for (const k of gone) if (was.has(k)) ops.push(openMarkOp(kind, k, false));
    }
    commitDiff(state, ev.diff);
    for (const [k, a] of ev.diff.accounts) ops.push(accountRow.put(k, encodeAccount(a)));
    for (const kind of RECORD_KINDS) {
      // A block changes a kind or two: the others are skipped without an iterator.
      const changed = ev.diff.records[kind];
      if (changed.size > 0) for (const [k, v] of changed) ops.push({ type: 'put', key: `${RECORD_PREFIX[kind]}:${k}`, value: v });
      const removed = ev.diff.removed?.[kind];
      if (removed) for (const k of removed) ops.push({ type: 'del', key: `${RECORD_PREFIX[kind]}:${k}` });
    }
    ops.push(supplyRow.put(null, encodeSupply(ev.diff.supply)));
    return { state, ops };
  },
  async restore(rows, info) {
    const cap = info.recordCache ?? Number.POSITIVE_INFINITY;
    // A bounded cache needs only the supply and the open records: a restart costs what is live,
    // not the accounts or the history. A complete state (tools, tests) reads every row.
    if (cap !== Number.POSITIVE_INFINITY && isSeekable(rows)) return restoreLive(rows, info);
    const state = withRecordCache(emptyState(), cap, info.accountCache);
    let any = false;
    let n = 0;
    for await (const [key, value] of rows) {
      any = true;
      applyRow(state, key, value);
      // Open records are pinned as they come; the rest are trimmed now and then.
      const kind = kindOf(key);
      if (kind && OPEN_OF.get(kind)?.(value)) state.open[kind]?.add(key.slice(key.indexOf(':') + 1));
      if (state.cache && ++n % 4096 === 0) {
        trimRecords(state);
        trimAccounts(state);
      }
    }
    if (!any) return genesisWith(info);
    indexOpen(state);
    trimRecords(state);
    trimAccounts(state);
    return state;
  },
};

/** The part of a LevelDB iterator a live restore uses (and the rows it iterates). */
interface SeekableRows {
  seek(target: string): void;
  next(): Promise<[string, unknown] | undefined>;
  close(): Promise<void>;
  db?: { getMany(keys: string[]): Promise<unknown[]> };
}

/** True when `rows` is a LevelDB iterator a live restore can seek (a plain iterable is read whole). */
function isSeekable(rows: object): rows is SeekableRows {
  const has = (name: string) => name in rows && typeof Reflect.get(rows, name) === 'function';
  return has('seek') && has('next') && has('close') && 'db' in rows && Boolean(rows.db);
}

/** Reads the open marks and the supply (seeking past the records, and the accounts unless all are kept), then the open records. */
async function restoreLive(it: SeekableRows, info: ChainInfo): Promise<ChainState> {
  const state = withRecordCache(emptyState(), info.recordCache ?? Number.POSITIVE_INFINITY, info.accountCache);
  const open: string[] = [];
  try {
    let e = await it.next();
    for (; e?.[0].startsWith('!o:'); e = await it.next()) open.push(e[0].slice(3));
    if (!e && open.length === 0) return genesisWith(info);
    // Accounts are read as blocks and queries need them, unless every account is to be kept.
    if (info.accountCache === Number.POSITIVE_INFINITY) {
      it.seek(accountRow.prefix);
      for (e = await it.next(); e && accountRow.owns(e[0]); e = await it.next()) applyRow(state, e[0], e[1]);
    }
    const supply = supplyRow.key(null);
    it.seek(supply);
    e = await it.next();
    if (e?.[0] === supply) applyRow(state, supply, e[1]);
  } finally {
    await it.close();
  }
  // One read of every open record: an iterator seeking to each would read ahead past each one.
  const values = it.db ? await it.db.getMany(open) : [];
  open.forEach((key, i) => {
    if (values[i] === undefined) throw new Error(`open record ${key} has a mark but no row`);
    applyRow(state, key, values[i]);
  });
  return indexOpen(state);
}
