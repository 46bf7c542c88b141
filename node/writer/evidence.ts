/**
 * Equivocation evidence: two different blocks for one slot, both attested by the slot's
 * authority. Node-local (what this node saw, not chain state), kept across restarts. The block
 * seen second is never built upon here: gossip of it is rejected and never starts a switch to it
 * at equal length; only a strictly better chain built on it by others wins (so the network does
 * not split by who saw which block first).
 */
import type { Block, BlockHeader } from '../../core/block.ts';
import type { Rows } from '../../projections/store.ts';

/** A block as evidence: its header, hash and attestation (transactions are not needed). */
type EvidenceBlock = BlockHeader & { hash: string; attestations: Block['attestations'] };

/** One authority's two blocks for one slot. */
export interface Evidence {
  proposer: string;
  slot: number;
  height: number;
  /** The block this node had (and keeps building on). */
  first: EvidenceBlock;
  /** The conflicting block: never built upon. */
  second: EvidenceBlock;
  seenAt: number;
}

const headerOf = (b: Block): EvidenceBlock => ({
  index: b.index,
  hash: b.hash,
  previousHash: b.previousHash,
  timestamp: b.timestamp,
  proposer: b.proposer,
  txRoot: b.txRoot,
  stateRoot: b.stateRoot,
  tokensBurned: b.tokensBurned,
  tokensConsumed: b.tokensConsumed,
  attestations: b.attestations,
});

/** Recorded equivocations, newest first on read. */
export class EvidenceStore {
  private readonly rows: Rows;
  private readonly all = new Map<string, Evidence>();
  private readonly refused = new Set<string>();

  constructor(rows: Rows) {
    this.rows = rows;
  }

  /** Loads what earlier runs recorded. */
  async load(): Promise<void> {
    for await (const [key, value] of this.rows.iterator()) this.remember(key, value as Evidence);
  }

  /** Records `second` against `first` (already checked to equivocate); false when already known. */
  async record(first: Block, second: Block, slot: number, seenAt: number): Promise<boolean> {
    const key = `${slot}:${first.proposer}:${second.hash}`;
    if (this.all.has(key)) return false;
    const e: Evidence = { proposer: first.proposer, slot, height: first.index, first: headerOf(first), second: headerOf(second), seenAt };
    await this.rows.put(key, e);
    this.remember(key, e);
    return true;
  }

  /** True when a block with this hash was seen second for its slot. */
  isRefused(hash: string): boolean {
    return this.refused.has(hash);
  }

  /** Every record, newest slot first. */
  list(): Evidence[] {
    return [...this.all.values()].sort((a, b) => b.slot - a.slot || (a.second.hash < b.second.hash ? -1 : 1));
  }

  private remember(key: string, e: Evidence): void {
    this.all.set(key, e);
    this.refused.add(e.second.hash);
  }
}
