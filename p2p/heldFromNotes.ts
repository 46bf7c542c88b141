/**
 * What peers said of the blocks they hold: a peer that started from a checkpoint refuses ranges
 * below its log with `{error, heldFrom}`. It is not asked for them again for one strike cooldown
 * (it fetches its history meanwhile), and what it said is kept to hold it to its word: an honest
 * one names the same first block every time, so one that refuses blocks at or above a first it
 * named before contradicts itself. Bounded: when full, the oldest note goes first.
 */
import { MAX_BANNED } from './banList.ts';
import { makeRoom } from '../core/recency.ts';

/** Each peer's last `heldFrom` and when it said it. */
export class HeldFromNotes {
  private readonly notes = new Map<string, { first: number; at: number }>();
  private readonly cooldownMs: number;

  constructor(cooldownMs: number) {
    this.cooldownMs = cooldownMs;
  }

  /** False while `peer` recently said it holds no block `from`. */
  holds(peer: string, from: number, now = Date.now()): boolean {
    const note = this.notes.get(peer);
    return !note || now - note.at >= this.cooldownMs || from >= note.first;
  }

  /**
   * Records that `peer` refused `from..` holding blocks from `first` only; answers the
   * contradiction when it had named a first block at or below `from` before, else null.
   */
  note(peer: string, first: number, from: number, now = Date.now()): string | null {
    const said = this.notes.get(peer);
    this.notes.delete(peer);
    makeRoom(this.notes, MAX_BANNED);
    this.notes.set(peer, { first, at: now });
    return said && from >= said.first ? `refused blocks from ${from} after saying it holds them from ${said.first}` : null;
  }
}
