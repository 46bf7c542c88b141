/**
 * Proposer statistics over the last 1,000 blocks: which authority proposed each block, by slot.
 * A slot between two consecutive blocks of the window that produced nothing is a miss for its
 * owner (time before the window's first block is not counted).
 */
import { slotOf } from '../core/block.ts';
import type { BlockEvent, ChainInfo } from './events.ts';
import type { Projection } from './projection.ts';

/** Blocks the statistics look back over. */
export const VALIDATOR_WINDOW = 1000;

/** The window: [slot, authority index] per block, oldest first. */
export interface ValidatorWindow {
  blockTimeMs: number;
  authorities: string[];
  blocks: [number, number][];
}

/**
 * Proposed blocks by slot over the window. A block's undo is the entry it pushed out (or null),
 * so the undo log holds a few bytes a block, not the window.
 */
export const validatorsProjection: Projection<ValidatorWindow, ValidatorWindow, [number, number] | null | undefined> = {
  name: 'validators',
  version: 1,
  init: (info: ChainInfo) => ({
    blockTimeMs: info.genesis.blockTimeMs,
    authorities: [...info.genesis.authorities],
    blocks: [],
  }),
  apply(s, ev: BlockEvent) {
    s.blocks.push([slotOf(ev.block.timestamp, s.blockTimeMs), s.authorities.indexOf(ev.block.proposer)]);
    return { state: s, undo: s.blocks.length > VALIDATOR_WINDOW ? s.blocks.shift() : null };
  },
  save: (s) => s,
  load: (saved) => saved,
  revert(s, undo) {
    s.blocks.pop();
    if (undo) s.blocks.unshift(undo);
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
