/**
 * Token records of one kind (art, image or audio NFTs) as the consensus state holds them: newest
 * first (by mint block, then tokenId), sorted once per height, and by owner.
 */
import type { RecordKind, RecordTypes } from '../core/state.ts';
import type { ChainQueries } from './chainQueries.ts';

/** The record kinds that hold tokens. */
export type TokenKind = {
  [K in RecordKind]: RecordTypes[K] extends { tokenId: string; owner: string; blockIndex: number } ? K : never;
}[RecordKind];

/** The served form of a token record: the consensus record without its transaction hash. */
export function servedToken<T extends { txHash: string }>(n: T): Omit<T, 'txHash'> {
  const { txHash: _txHash, ...record } = n;
  return record;
}

/** Reads of one kind of token. */
export class TokenQueries<K extends TokenKind> {
  readonly chain: ChainQueries;
  readonly kind: K;
  private sorted: { height: number; all: RecordTypes[K][] } | undefined;

  constructor(chain: ChainQueries, kind: K) {
    this.chain = chain;
    this.kind = kind;
  }

  private map(): Map<string, RecordTypes[K]> {
    return this.chain.state().records[this.kind];
  }

  /** Every token, newest first. */
  all(): RecordTypes[K][] {
    const height = this.chain.height();
    if (this.sorted?.height === height) return this.sorted.all;
    const all = [...this.map().values()].sort((a, b) => b.blockIndex - a.blockIndex || (a.tokenId < b.tokenId ? -1 : 1));
    this.sorted = { height, all };
    return all;
  }

  /** One owner's tokens, newest first. */
  owned(owner: string): RecordTypes[K][] {
    return this.all().filter((n) => n.owner === owner);
  }

  /** One token by id. */
  get(tokenId: string): RecordTypes[K] | undefined {
    return this.map().get(tokenId);
  }
}
