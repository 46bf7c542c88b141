/**
 * Ordered lists of consensus records whose lists the API pages through (miners, art, image and
 * audio NFTs), as numbered rows, so no reader walks the consensus state's records (a bounded
 * cache, see core/recordCache.ts) and a page at any offset is one range read. Each of these
 * records is written once, when it is created (a miner by MINER_REGISTER, a token by its mint),
 * and never removed, so a record in a block's diff is new and its number never changes.
 *
 * Rows (`<n>` a number, 0 for the first record listed):
 * - `<kind>!n!<n>` -> id: every record in creation order (block, then id: ascending for miners,
 *   descending for tokens, so tokens newest first, by mint block then tokenId, are the numbers
 *   read downwards);
 * - `<kind>!o!<owner>!<n>` -> tokenId, numbered per owner, and `<kind>!c!<owner>` -> the owner's count.
 *
 * In memory: each list's size (kept with the saved position) and a bounded cache of owners' counts
 * (ChainInfo.recordCache of them; absent: every one), read back before a block that mints for an
 * owner the cache lost (`needs`/`take`).
 */
import { recordMap } from '../core/state.ts';
import { MINERS } from '../core/tx/miner.ts';
import { NFTS } from '../core/tx/art.ts';
import { AUDIO_NFTS, IMAGE_NFTS } from '../core/tx/media.ts';
import type { BlockEvent, ChainInfo } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { missingCounts, nextNumber, type RowCounters, rowCounters, takeCounts, trimCounts } from './rowCounters.ts';
import { numberedRows, row } from './rows.ts';

/** The kinds listed. */
export type ListedKind = 'miners' | 'nfts' | 'imageNfts' | 'audioNfts';

/** How many records each list holds. */
type RecordCounts = Record<ListedKind, number>;

/** The lists' sizes and a cache of owners' counts (by `<kind>!c!<owner>` row key). */
export interface RecordListsState {
  counts: RecordCounts;
  owners: RowCounters;
}

/** `<kind>!n!<n>` -> id: every record of a kind, numbered. */
export const kindRows = numberedRows<string, ListedKind>((kind) => `${kind}!n!`);
/** `<kind>!o!<owner>!<n>` -> tokenId: one owner's tokens of a kind, numbered. */
export const ownerRows = numberedRows<string, [ListedKind, string]>(([kind, owner]) => `${kind}!o!${owner}!`);
/** `<kind>!c!<owner>`: how many tokens of a kind an owner's list holds. */
export const ownerCountRow = row<number, [ListedKind, string]>('', ([kind, owner]) => `${kind}!c!${owner}`);

const TOKENS = [NFTS, IMAGE_NFTS, AUDIO_NFTS] as const;

const tokensOf = (ev: BlockEvent, rec: (typeof TOKENS)[number]) =>
  [...(recordMap(ev.diff.records, rec)?.values() ?? [])].sort((a, b) => (a.tokenId < b.tokenId ? 1 : -1));

function fresh(info: ChainInfo, counts: RecordCounts): RecordListsState {
  return { counts, owners: rowCounters(info.recordCache) };
}

/** Miner and token lists. */
export const recordListsProjection: Projection<RecordListsState, RecordCounts> = {
  name: 'recordLists',
  version: 2,
  init: (info) => fresh(info, { miners: 0, nfts: 0, imageNfts: 0, audioNfts: 0 }),
  apply(s, ev: BlockEvent) {
    const ops: KvOp[] = [];
    const counts = { ...s.counts };
    const miners = [...(recordMap(ev.diff.records, MINERS)?.values() ?? [])].sort((a, b) => (a.id < b.id ? -1 : 1));
    for (const m of miners) ops.push(kindRows.put('miners', counts.miners++, m.id));
    for (const rec of TOKENS) {
      const kind: ListedKind = rec.kind;
      for (const t of tokensOf(ev, rec)) {
        ops.push(kindRows.put(kind, counts[kind]++, t.tokenId));
        const owner: [ListedKind, string] = [kind, t.owner];
        const n = nextNumber(s.owners, ownerCountRow.key(owner), 'recordLists');
        ops.push(ownerRows.put(owner, n, t.tokenId), ownerCountRow.put(owner, n + 1));
      }
    }
    trimCounts(s.owners);
    s.counts = counts;
    return { state: s, ops };
  },
  needs(s, ev) {
    const keys: string[] = [];
    // A kind the block minted none of is skipped before its tokens are listed (most blocks).
    for (const rec of TOKENS)
      if ((recordMap(ev.diff.records, rec)?.size ?? 0) > 0)
        for (const t of tokensOf(ev, rec)) keys.push(ownerCountRow.key([rec.kind, t.owner]));
    return keys.length === 0 ? keys : missingCounts(s.owners, keys);
  },
  take: (s, rows) => takeCounts(s.owners, rows),
  save: (s) => s.counts,
  // Owners' counts are read back as they are needed: a load (start, rollback) starts without them.
  load: (saved, info) => fresh(info, { ...saved }),
};
