/**
 * Names people search by, rows only, so a name prefix is one bounded range read:
 * - `n!<name, lowercased>\u0000<kind>!<id>` -> {kind, id, name}: a profile's display name (id: the
 *   address) and a miner's name (id: the miner id);
 * - `cur!<kind>!<id>` -> the lowercased name its `n!` row is filed under, so a renamed profile's
 *   old row is deleted in the block that renames it (read back before the block is folded:
 *   `needs`/`take`).
 */
import { isTx } from '../core/tx/handler.ts';
import { SOCIAL_PROFILE_SET } from '../core/tx/social/social.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { row } from './rows.ts';

/** What a name belongs to. */
type NamedKind = 'profile' | 'miner';

/** A name row: what it names and the name as written. */
export interface NamedRow {
  kind: NamedKind;
  id: string;
  name: string;
}

/** The key of a name row (the lowercased name first, so a prefix is a key range). */
const nameKey = (name: string, kind: NamedKind, id: string) => `n!${name.toLowerCase()}\u0000${kind}!${id}`;
/** `cur!<kind>!<id>` -> the lowercased name filed. */
const currentRow = row<string, { kind: NamedKind; id: string }>('cur!', ({ kind, id }) => `${kind}!${id}`);

/** The key range of every name row whose lowercased name starts with `prefix` (lowercased). */
export function namePrefixRange(prefix: string): { gte: string; lt: string } {
  return { gte: `n!${prefix}`, lt: `n!${prefix}\uffff` };
}

/** The value of a name row read back. */
export const namedRow = (raw: unknown): NamedRow => raw as NamedRow;

/** The names a block sets, in order. */
function namesOf(ev: BlockEvent): NamedRow[] {
  const out: NamedRow[] = [];
  for (const tx of ev.txs) if (isTx(tx, SOCIAL_PROFILE_SET)) out.push({ kind: 'profile', id: tx.from, name: tx.displayName });
  for (const m of ev.diff.records.miners.values()) out.push({ kind: 'miner', id: m.id, name: m.name });
  return out;
}

/** Between `needs`/`take` and `apply`: the name each renamed owner is filed under (undefined: none). */
interface NameState {
  filed: Map<string, string | undefined>;
}

/** Profiles and miners by name prefix. */
export const nameIndexProjection: Projection<NameState, null> = {
  name: 'nameIndex',
  version: 1,
  init: () => ({ filed: new Map() }),
  needs(_s, ev) {
    const names = namesOf(ev);
    return names.length === 0 ? [] : [...new Set(names.map(currentRow.key))];
  },
  take(s, rows) {
    for (const [key, v] of rows) s.filed.set(key, v === undefined ? undefined : String(v));
  },
  apply(state, ev) {
    const ops: KvOp[] = [];
    for (const n of namesOf(ev)) {
      const cur = currentRow.key(n);
      const before = state.filed.get(cur);
      const lower = n.name.toLowerCase();
      if (before !== undefined && before !== lower) ops.push({ type: 'del', key: `n!${before}\u0000${n.kind}!${n.id}` });
      ops.push({ type: 'put', key: nameKey(n.name, n.kind, n.id), value: n }, currentRow.put(n, lower));
      state.filed.set(cur, lower);
    }
    state.filed.clear();
    return { state, ops };
  },
  // Nothing lives in memory between blocks: the rows are the index.
  save: () => null,
  load: () => ({ filed: new Map() }),
};
