/**
 * The state root: the commitment every block header carries to the whole state after it,
 * chained on the previous root through the entries the block changed (docs/protocol.md).
 */
import { sha256Hex } from './hash.ts';
import { RECORD_PREFIX, type RecordKind, type StateDiff } from './state.ts';
import type { Account } from './txState.ts';

/** JSON with object keys sorted at every level: record encodings never depend on key order. */
function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    // Keys in code-unit order (as Array.prototype.sort orders strings); each key is unique.
    const entries = Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${sortedJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The state root after a block: SHA-256(previous root hex + SHA-256(changes)), where changes is
 * the compact JSON of every entry the block touched, sorted by key, as [key, value] pairs:
 * `a:<address>` -> [balance, nonce, storageCapacity, storageUsed, minerId or ""],
 * `<prefix>:<id>` of every record kind -> the record as key-sorted JSON (a removed record: null),
 * `s` -> [emitted, burned, escrow, feesPaid]. O(changes) per block; it commits to the whole state
 * because it chains every change since genesis.
 */
export function nextStateRoot(previous: string, diff: StateDiff): string {
  // Keys and leaves side by side (key i at 2i, its leaf at 2i+1): every block of a replay passes
  // here, and a near-empty block's four leaves cost more in pair arrays than in their two hashes.
  const flat: string[] = [];
  for (const [addr, a] of diff.accounts) flat.push(`a:${addr}`, accountLeaf(a));
  // The kinds the diff holds a map of: an overlay's diff holds only those the block wrote (core/state.ts
  // `lazyRecords`), not all ~26; the order is the sort's below, not the loop's.
  for (const kind of Object.keys(diff.records) as RecordKind[]) {
    const changed = diff.records[kind];
    if (changed.size > 0) for (const [id, r] of changed) flat.push(`${RECORD_PREFIX[kind]}:${id}`, sortedJson(r));
  }
  // A removed record is a leaf whose value is null.
  if (diff.removed)
    for (const [kind, removed] of Object.entries(diff.removed) as [RecordKind, Set<string> | undefined][])
      if (removed) for (const id of removed) flat.push(`${RECORD_PREFIX[kind]}:${id}`, 'null');
  const s = diff.supply;
  flat.push('s', `["${s.emitted}","${s.burned}","${s.escrow}","${s.feesPaid}"]`);
  const order = sortedPairs(flat);
  let changes = '[';
  for (let i = 0; i < order.length; i++) {
    const at = order[i];
    changes += `${i === 0 ? '' : ','}[${JSON.stringify(flat[at])},${flat[at + 1]}]`;
  }
  return sha256Hex(previous + sha256Hex(`${changes}]`));
}

/** An account's leaf: `[balance, nonce, storageCapacity, storageUsed, minerId or ""]` as compact JSON. */
function accountLeaf(a: Account): string {
  // Digits need no escaping and a nonce is a safe integer: only the miner id goes through JSON.
  return `["${a.balance}",${a.nonce},"${a.storageCapacity}","${a.storageUsed}",${a.minerId ? JSON.stringify(a.minerId) : '""'}]`;
}

/** The offsets (2i) of `flat`'s keys in code-unit order, equal keys in the order given. */
function sortedPairs(flat: readonly string[]): number[] {
  const order: number[] = [];
  for (let at = 0; at < flat.length; at += 2) order.push(at);
  // Stable, as the engine's sort is: a key twice (a record changed and removed) keeps its order.
  return order.sort((x, y) => (flat[x] < flat[y] ? -1 : flat[x] > flat[y] ? 1 : 0));
}
