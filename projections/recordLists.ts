/**
 * Ordered lists of consensus records whose lists the API pages through (miners, art, image and
 * audio NFTs), as rows, so no reader walks the consensus state's records (a bounded cache, see
 * core/recordCache.ts). Each of these records is written once, when it is created (a miner by
 * MINER_REGISTER, a token by its mint) and never removed, so a record in a block's diff is new.
 * Rows: `<kind>!all!<order>` and, for tokens, `<kind>!own!<owner>!<order>`, each holding the id;
 * in memory: the count of each list.
 */
import { recordMap } from '../core/state.ts';
import { MINERS } from '../core/tx/miner.ts';
import { NFTS } from '../core/tx/art.ts';
import { AUDIO_NFTS, IMAGE_NFTS } from '../core/tx/media.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';

/** The kinds listed. */
export type ListedKind = 'miners' | 'nfts' | 'imageNfts' | 'audioNfts';

/** How many records each list holds. */
export type RecordCounts = Record<ListedKind, number>;

const HEIGHT_DIGITS = 12;
const MAX_HEIGHT = 10 ** HEIGHT_DIGITS - 1;
const pad = (n: number): string => String(n).padStart(HEIGHT_DIGITS, '0');

/** Miners oldest first: registration height, then id. */
export const minerOrder = (m: { registeredAt: number; id: string }): string => `${pad(m.registeredAt)}!${m.id}`;
/** Tokens newest first: mint height descending, then tokenId. */
export const tokenOrder = (t: { blockIndex: number; tokenId: string }): string => `${pad(MAX_HEIGHT - t.blockIndex)}!${t.tokenId}`;

/** The key range of a list (`owner` for one owner's tokens). */
export function listRange(kind: ListedKind, owner?: string): { gte: string; lt: string } {
  const prefix = owner ? `${kind}!own!${owner}!` : `${kind}!all!`;
  return { gte: prefix, lt: `${prefix}\xff` };
}

const TOKENS = [NFTS, IMAGE_NFTS, AUDIO_NFTS] as const;

/** Miner and token lists. */
export const recordListsProjection: Projection<RecordCounts> = {
  name: 'recordLists',
  version: 1,
  init: () => ({ miners: 0, nfts: 0, imageNfts: 0, audioNfts: 0 }),
  apply(s, ev: BlockEvent) {
    const ops: KvOp[] = [];
    const next = { ...s };
    for (const m of recordMap(ev.diff.records, MINERS).values()) {
      ops.push({ type: 'put', key: `miners!all!${minerOrder(m)}`, value: m.id });
      next.miners++;
    }
    for (const rec of TOKENS) {
      const kind = rec.kind as ListedKind;
      for (const t of (recordMap(ev.diff.records, rec) as Map<string, { blockIndex: number; tokenId: string; owner: string }>).values()) {
        ops.push({ type: 'put', key: `${kind}!all!${tokenOrder(t)}`, value: t.tokenId });
        ops.push({ type: 'put', key: `${kind}!own!${t.owner}!${tokenOrder(t)}`, value: t.tokenId });
        next[kind]++;
      }
    }
    return { state: next, ops };
  },
  save: (s) => s,
  load: (saved) => saved as RecordCounts,
};
