/**
 * Proposer statistics over the last 1,000 blocks: which authority proposed each block, by slot.
 * A slot between two consecutive blocks of the window that produced nothing is a miss for its
 * owner (time before the window's first block is not counted).
 */
import { slotOf } from '../core/block.ts';
import type { BlockEvent, ChainInfo } from './events.ts';
import { heightKey } from '../core/encoding.ts';
import type { KvOp, Projection } from './projection.ts';

/** Blocks the statistics look back over. */
export const VALIDATOR_WINDOW = 1000;

/** The window: [slot, authority index] per block, oldest first. */
export interface ValidatorWindow {
  blockTimeMs: number;
  authorities: string[];
  blocks: [number, number][];
}

/**
 * Proposed blocks by slot over the window. Each block is one row (`heightKey(index)` ->
 * [slot, authority index]) and the row of the block that leaves the window is deleted, so a
 * block costs two row writes and its undo record two small entries, however long the window.
 * The in-memory window is rebuilt from the rows on restore.
 */
export const validatorsProjection: Projection<ValidatorWindow> = {
  name: 'validators',
  // v2: the window as one row a block instead of a saved state.
  version: 2,
  init: (info: ChainInfo) => ({
    blockTimeMs: info.genesis.blockTimeMs,
    authorities: [...info.genesis.authorities],
    blocks: [],
  }),
  apply(s, ev: BlockEvent) {
    const { index } = ev.block;
    const entry: [number, number] = [slotOf(ev.block.timestamp, s.blockTimeMs), s.authorities.indexOf(ev.block.proposer)];
    s.blocks.push(entry);
    const ops: KvOp[] = [{ type: 'put', key: heightKey(index), value: entry, fresh: true }];
    // Blocks are consecutive: the one leaving is index - WINDOW.
    if (s.blocks.length > VALIDATOR_WINDOW) ops.push({ type: 'del', key: heightKey(index - VALIDATOR_WINDOW), prev: s.blocks.shift() });
    return { state: s, ops };
  },
  async restore(rows, info) {
    const s = validatorsProjection.init(info);
    for await (const [, value] of rows) s.blocks.push(value as [number, number]);
    return s;
  },
};

/** How many slots in [a, b) belong to authority `i` of `n` (slot s belongs to s mod n). */
function owned(a: number, b: number, i: number, n: number): number {
  const upTo = (x: number) => (x > i ? Math.ceil((x - i) / n) : 0);
  return b > a ? upTo(b) - upTo(a) : 0;
}

/** Per authority: blocks proposed and slots missed within the window. */
export function validatorStats(w: ValidatorWindow) {
  const n = w.authorities.length;
  const rows = w.authorities.map((address) => ({ address, proposed: 0, missed: 0 }));
  let prev: number | null = null;
  for (const [slot, who] of w.blocks) {
    if (prev !== null) for (let i = 0; i < n; i++) rows[i].missed += owned(prev + 1, slot, i, n);
    if (rows[who]) rows[who].proposed++;
    prev = slot;
  }
  return { blocks: w.blocks.length, fromSlot: w.blocks[0]?.[0] ?? null, toSlot: prev, validators: rows };
}
