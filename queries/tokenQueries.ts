/**
 * Token records of one kind (art, image or audio NFTs): pages of the newest first (by mint block,
 * then tokenId) and of one owner's, listed by the recordLists projection's rows, each record read
 * from the consensus state (its cache, else its row).
 */
import type { RecordDef } from '../core/record.ts';
import type { RecordKind, RecordTypes } from '../core/state.ts';
import { RECORDS } from '../core/tx/registry.ts';
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

/** A page of tokens and the size of the list it is from. */
export interface TokenPage<T> {
  total: number;
  items: T[];
}

/** Reads of one kind of token. */
export class TokenQueries<K extends TokenKind> {
  readonly chain: ChainQueries;
  readonly kind: K;
  private readonly rec: RecordDef<K, RecordTypes[K]>;

  constructor(chain: ChainQueries, kind: K) {
    this.chain = chain;
    this.kind = kind;
    this.rec = RECORDS.find((r) => r.kind === kind) as RecordDef<K, RecordTypes[K]>;
  }

  /** `limit` tokens from `offset`, newest first (of one owner's when given), with the list's size. */
  async page(limit: number, offset: number, owner?: string): Promise<TokenPage<RecordTypes[K]>> {
    const { total, ids } = await this.chain.listPage(this.kind, limit, offset, owner);
    const items = (await this.chain.records(this.rec, ids)).filter((t) => t !== undefined);
    return { total, items };
  }

  /** One token by id. */
  get(tokenId: string): Promise<RecordTypes[K] | undefined> {
    return this.chain.record(this.rec, tokenId);
  }
}
